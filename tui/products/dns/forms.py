"""DNS forms and the zone conversations (pydantic; loaded on first use): register an external
domain, create a zone, rename, clone (overwriting asks for the destination's name typed), refresh,
name servers with glue IPs, the provider import (it replaces the records: the zone's name typed)
and certificates. Names are typed in Unicode and sent as Punycode."""

from __future__ import annotations

import ipaddress
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import AfterValidator, BaseModel, Field, SecretStr, ValidationInfo, field_validator

from ..kit.base import Context, CreateSpec
from ..kit.fields import ctx, sends
from ..kit.flows import asks_at_send, confirm_loss
from ..kit.vocabulary import Form, label
from .names import ascii_name, shown

if TYPE_CHECKING:
    from ..kit.base import Row
    from ..kit.flows import FlowUI
    from ..kit.service import ResourceService


def _domain(v: str) -> str:
    """A domain as registrars hold it: host labels (no '_', which only records' names carry) and a
    top-level label of letters (or Punycode)."""
    name = ascii_name(v, "domain name")
    if "." not in name:
        raise ValueError("a domain name has at least two labels, such as example.com")
    if "_" in name:
        raise ValueError("a domain name holds letters, digits and '-' only: '_' is for records such as _dmarc")
    top = name.rsplit(".", 1)[1]
    if not (top.isalpha() or top.startswith("xn--")):
        raise ValueError(f"the last label of a domain name is letters, such as com or fr: {top!r} is not")
    return name


# A domain's full name, checked as registrars hold it (an ASCII form of an international name).
DomainName = Annotated[str, Field(min_length=3, max_length=253), AfterValidator(_domain)]


class RegisterForm(Form):
    domain: Annotated[DomainName, label("Domain", placeholder="e.g. example.com (registered elsewhere)")]
    show_record: Annotated[bool, label("Show the TXT record to publish now (later: a → Validation TXT record)")] = True


def registered(answer: dict[str, Any]) -> dict[str, Any] | None:
    """An external domain as just registered (the answer is the registration, not the domain)."""
    if not answer.get("domain"):
        return None
    return {
        "domain": answer["domain"],
        "status": "checking",
        "is_external": True,
        "registrar": "EXTERNAL",
        "created_at": answer.get("created_at"),
        "project_id": answer.get("project_id"),
        "external_domain_registration_status": {"validation_token": answer.get("validation_token")},
    }


REGISTER = CreateSpec(
    RegisterForm,
    sends("domain"),
    after_create="show_record",
    after_action="validation",
    path="domains/external-domain",
    created=lambda answer, payload: registered(answer),
)


async def validation_flow(ui: FlowUI, domain: Row) -> None:
    """The TXT record a domain registered elsewhere must publish (copied alone with `y`), the time
    left, and the platform's two name servers (its root zone's defaults) the registrar must name."""
    from ..kit.base import Call
    from ..kit.commands import CommandRefused
    from ..kit.shapes import refusal
    from .kinds import txt_record, validation_text

    try:
        zones = await ui.service().read_list(
            Call("GET", "dns-zones", params={"dns_zone": domain.id}, mutating=False), ui.scope, domain, "dns_zones"
        )
    except Exception:  # the record is what matters: the name servers are said in words when unread
        zones = []
    name_servers = next((list(map(str, z.get("ns_default") or [])) for z in zones if not z.get("subdomain")), [])
    title = f"Validate {shown(domain.id)}, registered elsewhere"
    try:
        text, record = validation_text(domain, name_servers), txt_record(domain)
    except CommandRefused as err:  # said instead of a record that would put something else in the zone
        await ui.dialog("result", title=title, text=refusal(err), copy=False)
        return
    await ui.dialog("result", title=title, text=text, copy_text=record)


class ZoneForm(Form):
    domain: Annotated[str, label("Domain", min_length=1, widget="select")]
    subdomain: Annotated[
        str, label("Sub-domain", min_length=1, max_length=253, placeholder="e.g. shop (the zone is shop.<domain>)")
    ]

    @field_validator("subdomain")
    @classmethod
    def _sub(cls, v: str) -> str:
        return ascii_name(v, "sub-domain")


async def zone_options(service: ResourceService, scope: str) -> tuple[dict[str, list[tuple[str, str]]], dict[str, Any]]:
    domains = await service.read_all(scope, "domains", key="domains")
    return {
        "domain": [
            (f"{shown(str(d.get('domain')))} ({d.get('status', '?')})", str(d.get("domain")))
            for d in domains
            if d.get("domain")
        ]
    }, {}


ZONE_CREATE = CreateSpec(ZoneForm, sends("domain", "subdomain"), zone_options)


class RenameForm(Form):
    new_dns_zone: Annotated[DomainName, label("New name", placeholder="the zone's full new name")]


class CloneForm(Form):
    dest_dns_zone: Annotated[DomainName, label("Clone into", placeholder="an existing zone's full name")]
    overwrite: Annotated[bool, label("Overwrite its records (they are lost)")] = False


@asks_at_send
async def clone_flow(ui: FlowUI, zone: Row) -> None:
    """Clone a zone's records into another; overwriting loses the destination's: its name typed."""
    svc: ResourceService = ui.service()

    into: list[str] = []  # the zone cloned into, said once done

    async def send(form: CloneForm) -> Any:
        if form.dest_dns_zone == zone.id:
            from ..kit.flows import Refused

            raise Refused("A zone is not cloned into itself: name another zone.")
        if form.overwrite:
            await confirm_loss(
                ui,
                f"Overwrite {shown(form.dest_dns_zone)}?",
                f"Every record of {shown(form.dest_dns_zone)} is replaced by those of "
                f"{shown(zone.id)}. What it holds now is lost (its versions keep it).",
                "Overwrite",
                form.dest_dns_zone,
            )
        from ...api.errors import ApiError

        into[:] = [form.dest_dns_zone]
        await ui.cleared(f"Clone {shown(zone.id)} into {shown(form.dest_dns_zone)}")
        try:
            return await svc.call(
                "POST",
                ui.scope,
                "dns-zones",
                zone.id,
                "clone",
                body={"dest_dns_zone": form.dest_dns_zone, "overwrite": form.overwrite, "project_id": ui.project_id},
            )
        except ApiError as err:
            if err.status != 409 or form.overwrite:
                raise
            from ..kit.flows import Refused

            raise Refused(
                f"{shown(form.dest_dns_zone)} already holds records: tick Overwrite to replace them "
                "(its name is then typed), or name another zone. Nothing was changed."
            ) from None

    done = await ui.form(f"Clone {shown(zone.id)}", CloneForm, submit=send, submit_label="Clone")
    if done is not None:
        ui.notify(f"{shown(zone.id)}: cloned into {shown(into[0])}" if into else f"{shown(zone.id)}: cloned")
        ui.reload()


class RefreshForm(Form):
    recreate_dns_zone: Annotated[bool, label("Recreate the zone (its NS records come back)")] = True
    recreate_sub_dns_zone: Annotated[bool, label("Recreate its sub-zones too")] = False


class NameServer(Form):
    name: Annotated[DomainName, label("Name server", placeholder="e.g. ns1.example.net")]
    ip: Annotated[
        list[str],
        label(
            "Glue IPs",
            validate_default=True,
            placeholder="only for a name server inside the zone: 192.0.2.53, 2001:db8::53",
        ),
    ] = []

    @field_validator("ip")
    @classmethod
    def _ips(cls, v: list[str], info: ValidationInfo) -> list[str]:
        zone, name = ctx(info, "zone") or "", str(info.data.get("name") or "")
        if zone and not v and (name == zone or name.endswith("." + zone)):
            raise ValueError(f"{name} is inside the zone {shown(zone)}: give its glue IPs, or no resolver can reach it")
        for ip in v:
            try:
                ipaddress.ip_address(ip)
            except ValueError:
                raise ValueError(f"IPv4 or IPv6 addresses: {ip} is not") from None
        return v


async def nameserver_options(ui: FlowUI, zone: Row) -> tuple[dict[str, Any], dict[str, Any]]:
    """The zone the name servers are for: one inside it needs its glue IPs."""
    return {}, {"zone": zone.id}


class ImportForm(Form):
    token: Annotated[SecretStr, label("Former provider's API token", min_length=1, widget="secret")]


@asks_at_send
async def import_flow(ui: FlowUI, zone: Row) -> None:
    """Records from the former provider's API replace the zone's: its name typed first."""
    svc: ResourceService = ui.service()

    async def send(form: ImportForm) -> Any:
        await confirm_loss(
            ui,
            f"Replace the records of {shown(zone.id)}?",
            f"The records of {shown(zone.id)} become those the provider holds. "
            "What it holds now is lost (its versions keep it).",
            "Import",
            zone.id,
        )
        await ui.cleared(f"Replace the records of {shown(zone.id)}")
        return await svc.call(
            "POST",
            ui.scope,
            "dns-zones",
            zone.id,
            "import-provider",
            body={"online_v1": {"token": form.token.get_secret_value()}},
        )

    done = await ui.form(
        f"Import records into {shown(zone.id)} from the former provider (online_v1)",
        ImportForm,
        submit=send,
        submit_label="Import",
    )
    if done is not None:
        count = len(done.get("records") or []) if isinstance(done, dict) else 0
        ui.notify(f"{shown(zone.id)}: {count} record(s) imported")
        ui.reload()


class CertificateForm(Form):
    alternative_dns_zones: Annotated[
        list[str],
        label("Also for the zones", placeholder="other zones the certificate covers, comma-separated (optional)"),
    ] = []

    @field_validator("alternative_dns_zones")
    @classmethod
    def _zones(cls, v: list[str]) -> list[str]:
        return [_domain(z) for z in v]


def certificate_payload(form: BaseModel, c: Context) -> dict[str, Any]:
    assert isinstance(form, CertificateForm) and c.parent is not None
    return {"dns_zone": c.parent.id, "alternative_dns_zones": form.alternative_dns_zones}


CERTIFICATE_CREATE = CreateSpec(CertificateForm, certificate_payload)
