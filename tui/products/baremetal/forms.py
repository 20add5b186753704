"""Bare-metal forms and flows (pydantic; loaded on first use): order, edit, install an OS, remote
access to the management controller, reverse DNS of an IP."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, ValidationInfo, field_validator

from ..kit.base import Call, Choices, Context, CreateSpec, EditSpec, Row
from ..kit.fields import HOSTNAME, check_uuids, ctx, reverse_name, sent, split_tags
from ..kit.flows import asks_at_send, confirm_loss
from ..kit.format import gb
from ..kit.vocabulary import Form, Tags, label
from .catalogue import money as _money

if TYPE_CHECKING:
    from ..kit.flows import FlowUI
    from ..kit.service import ResourceService

DESCRIPTION_MAX = 255  # spec 1 §8


def offer_label(o: dict[str, Any]) -> str:
    cpu = (o.get("cpu") or [{}])[0]
    memory = sum(int(m.get("capacity") or 0) for m in o.get("memory") or [])
    disks = o.get("disk") or []
    disk = (
        f"{len(disks)}×{gb((disks[0] or {}).get('capacity'))} GB {(disks[0] or {}).get('type', '')}"
        if disks
        else "no disk"
    )
    stock = {"available": "in stock", "low": "low stock", "empty": "OUT OF STOCK"}.get(
        str(o.get("stock")), str(o.get("stock"))
    )
    bandwidth = int(o.get("bandwidth") or 0) / 1e9
    return (
        f"{o.get('name', '?'):<14} {cpu.get('core_count', '?')}c {cpu.get('name', '')} · {gb(memory)} GB · {disk} · "
        f"{bandwidth:g} Gbit/s · {_money(o.get('price_per_month'))}/month · {stock}"
    )


# ---- order --------------------------------------------------------------------------------------
class OrderForm(Form):
    offer_id: Annotated[str, label("Offer", min_length=1, widget="select")]
    name: Annotated[str, label("Name", min_length=1, max_length=255)]
    description: Annotated[
        str, label("Description", max_length=DESCRIPTION_MAX, placeholder="at most 255 characters")
    ] = ""
    tags: Tags = []

    @field_validator("offer_id")
    @classmethod
    def _in_stock(cls, v: str, info: ValidationInfo) -> str:
        offer = (ctx(info, "offers") or {}).get(v)
        if offer is not None and offer.get("stock") == "empty":
            raise ValueError("this offer is out of stock: choose another")
        return v

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("a name is required (not only spaces)")
        return v


async def order_options(service: ResourceService, scope: str) -> tuple[Choices, dict[str, Any]]:
    offers = await service.read_all(scope, "offers", key="offers")
    order = {"available": 0, "low": 1, "empty": 2}
    offers.sort(
        key=lambda o: (order.get(str(o.get("stock")), 3), int((o.get("price_per_month") or {}).get("units") or 0))
    )
    return {"offer_id": [(offer_label(o), o["id"]) for o in offers if o.get("id")]}, {
        "offers": {o["id"]: o for o in offers}
    }


def order_payload(form: BaseModel, c: Context) -> dict[str, Any]:
    assert isinstance(form, OrderForm)
    body = sent(form, "offer_id", "name", "description", "tags")
    if c.organization_id:
        body["organization_id"] = c.organization_id
    else:
        body["project_id"] = c.project_id
    return body


ORDER = CreateSpec(OrderForm, order_payload, order_options)


class EditForm(Form):
    name: Annotated[str, label("Name", min_length=1, max_length=255)]
    description: Annotated[str, label("Description", max_length=DESCRIPTION_MAX)] = ""
    tags: Tags = []


def edit_values(row: Row) -> dict[str, Any]:
    return {"name": row.name, "description": row.text("description"), "tags": [str(t) for t in row.items("tags")]}


EDIT = EditSpec(EditForm, edit_values)  # sends what changed


# ---- install ------------------------------------------------------------------------------------
class InstallForm(Form):
    os_id: Annotated[str, label("Operating system", min_length=1, widget="select")]
    hostname: Annotated[
        str,
        label(
            "Hostname",
            min_length=1,
            max_length=255,
            pattern=HOSTNAME,
            placeholder="e.g. db-01.example.com",
            rule="a host name: labels of letters, digits and dashes, joined by dots",
        ),
    ]
    ssh_key_ids: Annotated[list[str], label("SSH key IDs", min_length=1, placeholder="UUIDs, comma separated")]

    @field_validator("ssh_key_ids", mode="before")
    @classmethod
    def _keys(cls, v: object) -> object:
        return split_tags(v)

    @field_validator("ssh_key_ids")
    @classmethod
    def _uuids(cls, v: list[str]) -> list[str]:
        return check_uuids(v, "SSH key IDs")


@asks_at_send
async def install_flow(ui: FlowUI, server: Row) -> None:
    svc = ui.service()
    systems = await svc.read_all(ui.scope, "os", key="os", params={"offer_id": server.get("offer_id")})
    choices = [(f"{o.get('name', '?')} {o.get('version', '')}".strip(), o["id"]) for o in systems if o.get("id")]
    if not choices:
        ui.notify(f"No operating system is offered for {server.name}'s offer.", "warning")
        return

    async def send(form: InstallForm) -> Any:
        os_name = next((label for label, v in choices if v == form.os_id), form.os_id)
        await confirm_loss(
            ui,
            f"Install {os_name} on {server.name}?",
            f"Every disk of {server.name} ({server.id}) is erased and "
            f"{os_name} installed as {form.hostname}. What is on it now is lost for good.",
            "Install",
            server.name or server.id,
        )
        await ui.cleared(f"Install {os_name} on {server.name}")
        return await svc.run(Call("POST", "{id}/install"), ui.scope, server, form.model_dump())

    done = await ui.form(
        f"Install an OS on {server.name} (its disks are erased)",
        InstallForm,
        choices={"os_id": choices},
        initial={"hostname": server.name if _is_hostname(server.name) else ""},
        submit=send,
        submit_label="Install",
    )
    if done:
        ui.notify(f"Installing on {server.name}: to_install → installing → completed, shown as it goes.")
        ui.upsert(svc.row_of(done, ui.scope))


def _is_hostname(name: str) -> bool:
    import re

    return bool(re.match(HOSTNAME, name or ""))


# ---- management-controller access ---------------------------------------------------------------
class RemoteAccessForm(Form):
    ip: Annotated[str, label("Allowed client IP", min_length=1, placeholder="the address your browser connects from")]

    @field_validator("ip")
    @classmethod
    def _ip(cls, v: str) -> str:
        import ipaddress

        try:
            return str(ipaddress.ip_address(v.strip()))
        except ValueError:
            raise ValueError("an IPv4 or IPv6 address") from None


async def revoke_message(svc: ResourceService, scope: str, server: Row) -> str:
    """What revoking ends (the access open now, to which address, until when); none open is said
    and nothing is sent (Refused)."""
    from ...api.errors import NotFound
    from ..kit.flows import NothingToDo

    try:
        access = await svc.run(Call("GET", "{id}/remote-access", mutating=False), scope, server)
    except NotFound:
        named = server.name or server.id
        raise NothingToDo(f"no remote access is open on {named}: there is nothing to revoke") from None
    from ..kit.times import moment_of

    ip, until = access.get("ip") or "?", moment_of(access.get("expires_at")) or "?"
    return f"The access open to {ip} (until {until}) ends now: its URL, login and password stop working."


def jump_host_client_ip() -> str:
    """Over SSH, the address the operator comes from (`SSH_CLIENT`): the usual answer."""
    return (os.environ.get("SSH_CLIENT") or os.environ.get("SSH_CONNECTION") or "").split(" ")[0]


# ---- reverse DNS --------------------------------------------------------------------------------
class ReverseForm(Form):
    reverse: Annotated[str, label("Reverse DNS", max_length=255, placeholder="e.g. host.example.com")] = ""

    @field_validator("reverse")
    @classmethod
    def _host(cls, v: str) -> str:
        return reverse_name(v)


@asks_at_send
async def reverse_flow(ui: FlowUI, server: Row) -> None:
    ips = [ip for ip in server.items("ips") if isinstance(ip, dict)]
    picked = await ui.pick(
        f"Reverse DNS: which IP of {server.name}?",
        [
            (f"{ip.get('address')} · {ip.get('reverse') or 'no reverse'} · {ip.get('reverse_status', '?')}", ip)
            for ip in ips
        ],
    )
    if picked is None:
        return
    svc = ui.service()

    async def send(form: ReverseForm) -> Any:
        await ui.cleared(f"Set the reverse of {picked.get('address')} to {form.reverse or 'none'}")
        return await svc.call(
            "PATCH", ui.scope, "servers", server.id, "ips", str(picked.get("id")), body={"reverse": form.reverse}
        )

    done = await ui.form(
        f"Reverse DNS of {picked.get('address')}",
        ReverseForm,
        initial={"reverse": picked.get("reverse") or ""},
        submit=send,
    )
    if done:
        ui.notify(
            f"Reverse of {picked.get('address')}: {done.get('reverse') or 'none'} · "
            f"{done.get('reverse_status', '?')} (pending → active, shown as it goes)"
        )
        ui.follow(server)


async def install_warning(svc: ResourceService, scope: str, server: Row) -> str:
    """Said before a stop or a reboot while an OS install is under way (the platform takes them)."""
    from .common import MOVING_INSTALL, install_status

    status = install_status(server.data)
    return (
        f"An OS install is under way ({status}): stopping or rebooting now may leave it unfinished."
        if status in MOVING_INSTALL
        else ""
    )
