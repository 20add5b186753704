"""DNS as listed and acted on (spec 3 §2.1, §4.1; spec/4 "DNS"): domains and zones, a zone's name
servers and TSIG key; what lives in a zone (records edited as a reviewed change set, versions,
certificates) is in `children`. Global scope. No pydantic here: forms live in `forms` and `records`,
loaded on first use."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ..kit.base import ActionSpec, Call, Child, Column, Lazy, Row, data_lost
from ..kit.declared import Field
from ..kit.kind_options import Item, Order, Reading, Refuses, Rows, Writing
from ..kit.set_editor import SetEditor
from ..kit.shapes import FormCall, ShowAnswer

# The kinds of what lives in a zone, named here too (tests import them from this module).
from .children import CERTIFICATES, RECORDS, VERSION_RECORDS, VERSIONS  # noqa: F401
from .common import (
    FORMS,
    PROJECT,
    TONES,
    VERSIONS_KEPT,  # noqa: F401  (records and zone_records import it from here)
    ZONE_RECORDS,
    custom_ns,
    dns_kind,
    records_action,
    zone_of,
)
from .names import shown

if TYPE_CHECKING:
    from ..kit.base import ParentRef
    from ..kit.models import Resource

CHILDREN = "tui.products.dns.children:"


def waiting(r: Row) -> bool:
    """An external domain waiting for its TXT record (the API gives its validation token)."""
    status = r.get("external_domain_registration_status")
    return isinstance(status, dict) and bool(status.get("validation_token"))


def time_left(row: Row) -> float | None:
    """Seconds left of the 48 hours an external domain has to be validated (spec 3 §3, §8)."""
    from ..kit import times

    registered = times.stamp(row.text("created_at"))
    return registered + 48 * 3600 - time.time() if registered is not None and waiting(row) else None


def leaving_default_ns(records: list[dict[str, Any]], row: Row) -> str | None:
    """What a set of name servers other than the default costs (spec 3 §4.1), said before it is sent."""
    default = sorted(map(str, row.items("ns_default")))
    names = sorted(str(r.get("name") or "").rstrip(".") for r in records)
    if not default or names == [d.rstrip(".") for d in default]:
        return None
    return (
        f"{shown(row.id)} will no longer use the default name servers ({', '.join(default)}): "
        "its records can no longer be edited here, only where the new name servers are run. "
        "Setting the default ones back makes them editable again."
    )


def validation_left(row: Row) -> str:
    from ..kit import times

    left = time_left(row)
    return "" if left is None else f"{times.span(left)}" if left > 0 else "overdue"


def validation_text(row: Row, name_servers: list[str]) -> str:
    from ..kit import times

    token = str((row.get("external_domain_registration_status") or {}).get("validation_token") or "")
    if not token:
        status = row.text("status") or "not waiting for validation"
        return f"{shown(row.text('domain'))} is {status}: no TXT record to publish."
    left = time_left(row)
    deadline = (
        f"{times.span(left)} left of the 48 hours to publish it"
        if left and left > 0
        else "The 48 hours to publish it have passed"
    )
    return (
        f"Publish this TXT record where {shown(row.text('domain'))} is served now:\n\n"
        f"{txt_record(row)}\n\n{deadline}.\n\n"
        "Once it is seen, the domain is validated; then point its name servers, at the registrar, to:\n"
        + (
            "\n".join(f"  {ns}" for ns in name_servers)
            or "  the platform's name servers (the zone's default name servers: Zones view, a → Name servers)"
        )
    )


def txt_record(row: Row, parent: ParentRef | None = None) -> str:
    """The validation record to publish, its domain and token checked (CommandRefused otherwise):
    an answer cannot slip another record or a broken quote into the zone it is pasted in."""
    from ..kit import commands

    token = (row.get("external_domain_registration_status") or {}).get("validation_token")
    return commands.record(
        '_scaleway-challenge.{domain}. 3600 IN TXT "{token}"',
        domain=commands.host("the domain", row.text("domain")),
        token=commands.token("the validation token", token),
    )


def zones_text(answer: dict[str, Any]) -> str:
    zones = [z for z in answer.get("dns_zones") or [] if isinstance(z, dict)]
    return "\n".join(f"{shown(zone_of(z)['zone'])}  ({z.get('status', '?')})" for z in zones) or "none"


def domain_line(d: Row | Resource) -> str:
    """A domain as read (Unicode) and as sent (Punycode)."""
    return f"{shown(d.raw.get('domain', ''))} ({d.raw.get('domain', '')})"


def renewal(r: Row) -> str:
    return r.text("auto_renew_status").replace("feature_status_", "")


DOMAIN_FIELDS = (
    Field("name", "Domain", "name", width=24, key="domain", detail=False),  # as read: made by `summarize`
    Field("domain", "Domain", "id", show=domain_line),
    Field("status", "Status", "state", width=12, tones=TONES),
    # Right after the status: a domain waiting to be validated has that long (it was cut at 120 columns, last)
    Field(
        "external_domain_registration_status",
        "Validate within",
        width=15,
        key="validate",
        show=validation_left,
        detail=False,
    ),
    Field("expired_at", "Expires", "time", width=10, key="expires", blank="—", empty="never (external)"),
    Field("dnssec_status", "DNSSEC", width=8, key="dnssec"),
    Field("registrar", "Registrar", width=10),
    Field("is_external", "External", "flag", width=8, key="external", words=("external", "—"), detail=False),
    Field("is_external", "External", "flag", words=("yes: registered elsewhere, validated by a TXT record", "no")),
    Field("auto_renew_status", "Auto-renew", width=10, key="renew", show=renewal, detail=False),
    Field("auto_renew_status", "Auto-renew"),
    Field("epp_code", "EPP codes"),
    Field("updated_at", "Updated", "time"),
)

DOMAINS = dns_kind(
    id="dns.domains",
    title="DNS domains",
    singular="domain",
    transitional=frozenset({"checking", "creating", "renewing", "updating"}),
    fields=DOMAIN_FIELDS,
    columns=("domain", "status", "validate", "expires", "dnssec", "registrar", "external", "renew"),
    reading=Reading(item=Item(fetch=True), order=Order(by=("domain", False))),
    actions=(
        ActionSpec(
            "validation",
            "Validation TXT record (copy)…",
            lambda r: waiting(r),
            why_not=lambda r: None if waiting(r) else "only an external domain waiting for validation has one",
            flow=Lazy(FORMS + "validation_flow"),
            mutating=False,
        ),
        ActionSpec(
            "zones",
            "Zones of this domain…",
            shape=ShowAnswer("Zones of {name}", Call("GET", "domains/{id}/zones", mutating=False), zones_text),
        ),
    ),
    rows=Rows(summarize=lambda d: {"name": shown(str(d.get("domain") or ""))}),
    create=Lazy(FORMS + "REGISTER"),
    writing=Writing(name_param="domain"),
)


def zone_line(z: Row | Resource) -> str:
    """A zone as read (Unicode) and as sent (Punycode)."""
    full = zone_of(z.raw)["zone"]
    return f"{shown(full)} ({full})"


def status_line(z: Row | Resource) -> str:
    """The status, and the platform's message on it when it says one."""
    return str(z.raw.get("status", "")) + (f": {z.raw.get('message')}" if z.raw.get("message") else "")


def domain_shown(r: Row) -> str:
    return shown(r.text("domain"))


def domain_line_of_zone(z: Row | Resource) -> str:
    """The zone's domain in the detail, as the operator reads it (punycode decoded)."""
    return shown(str(z.raw.get("domain") or "")) or "none"


def ns_cell(r: Row) -> str:
    return "default" if not custom_ns(r) else "custom: " + ", ".join(map(str, r.items("ns")))


def ns_line(z: Row | Resource) -> str:
    default = " (default)" if not custom_ns(z.raw) else " (not the default: records are not edited here)"
    return ", ".join(map(str, z.raw.get("ns") or [])) + default


# A zone's domain is a domain's id (its name as sent); its own id is its full name (`zone_of`).
ZONE_FIELDS = (
    Field("name", "Zone", "name", width=26, key="zone", detail=False),  # as read: made by `summarize`
    Field("zone", "Zone", "id", show=zone_line),
    Field("status", "Status", "state", width=10, tones=TONES, detail=status_line),
    Field(
        "domain",
        "Domain",
        "ref",
        ref="dns.domains",
        named="domain",
        width=18,
        show=domain_shown,
        detail=domain_line_of_zone,
    ),
    Field("ns", "Name servers", width=22, show=ns_cell, detail=ns_line),
    Field("ns_default", "Default name servers"),
    Field("ns_master", "Master name servers"),
    Field("updated_at", "Updated", "time", width=10, key="updated"),
)

ZONES = dns_kind(
    id="dns.zones",
    title="DNS zones",
    singular="zone",
    collection="dns-zones",
    # `about`: the service's name and version, under the list
    rows=Rows(summarize=zone_of, about=Lazy(ZONE_RECORDS + "service_info")),
    reading=Reading(item=Item(fetch=False), order=Order(by=("zone", False))),
    transitional=frozenset({"pending"}),
    fields=ZONE_FIELDS,
    columns=("zone", "status", "domain", "ns", "updated"),
    children=(
        Child("Records", CHILDREN + "RECORDS"),
        Child("Versions", CHILDREN + "VERSIONS"),
        Child("Certificates", CHILDREN + "CERTIFICATES"),
    ),
    actions=(
        ActionSpec(
            "rename",
            "Rename…",
            shape=FormCall(
                "Rename {name}",
                Lazy(FORMS + "RenameForm"),
                Call("PATCH", "dns-zones/{id}", PROJECT),
                done="{name}: renamed to {form.new_dns_zone}",
                then="reload",
            ),
        ),
        ActionSpec("clone", "Clone to another zone…", flow=Lazy(FORMS + "clone_flow")),
        ActionSpec(
            "refresh",
            "Refresh (recreate)…",
            shape=FormCall(
                "Refresh {name}: recreated from the platform's copy, its NS records back",
                Lazy(FORMS + "RefreshForm"),
                Call("POST", "dns-zones/{id}/refresh"),
                done="{name}: refreshed",
                then="reload",
                submit_label="Refresh",
            ),
        ),
        ActionSpec(
            "nameservers",
            "Name servers…",
            shape=SetEditor(
                "Name servers of {name}",
                Lazy(FORMS + "NameServer"),
                (
                    Column("name", "Name server", lambda r: str(r.get("name", "")), width=30),
                    Column("ip", "Glue IPs", lambda r: ", ".join(map(str, r.get("ip") or [])), width=30),
                ),
                Call("PUT", "dns-zones/{id}/nameservers"),
                "ns",
                ("name", "ip"),
                "name server",
                read=Call("GET", "dns-zones/{id}/nameservers", mutating=False),
                unique="name",
                confirm=leaving_default_ns,
                options=Lazy(FORMS + "nameserver_options"),
                describe="The zone's name servers, with glue IPs where a name server lies inside the zone. "
                "Other name servers than the default mean its records are no longer edited here.",
            ),
        ),
        ActionSpec(
            "tsig",
            "TSIG key for zone transfers (AXFR)…",
            shape=ShowAnswer(
                "TSIG key of {name}",
                Call("GET", "dns-zones/{id}/tsig-key", mutating=False),
                "Secondary servers sign their transfer requests with this key.",
                secret="key",
                copy=("name", "algorithm"),
            ),
        ),
        records_action("import", "Import records from another provider…", Lazy(FORMS + "import_flow")),
        records_action("clear", "Remove every record (a clear change)…", Lazy(ZONE_RECORDS + "clear_flow")),
        records_action(
            "delete_records", "Delete every record (DELETE …/records)…", Lazy(ZONE_RECORDS + "delete_records_flow")
        ),
    ),
    create=Lazy(FORMS + "ZONE_CREATE"),
    delete=Call("DELETE", "dns-zones/{id}", params=PROJECT),
    writing=data_lost(
        "The zone and all its records, NS included, are deleted: the names in it stop resolving",
        refuses=Refuses(
            delete=lambda r: (
                "a root zone can't be deleted (the platform refuses it): delete its domain instead"
                if not r.get("subdomain")
                else None
            )
        ),
        name_param="dns_zone",
    ),
)
