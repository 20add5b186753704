"""Bare-metal flexible IPs: the create and edit forms and the flows (pydantic; loaded on first use).

Attach and detach take the marked IPs at once (`POST /fips/attach` and `/fips/detach` take lists).
A MAC group (IPs sharing one virtual MAC) moves together: attaching part of one adds the rest, and
says so before sending; detaching part of one warns that the detached IPs lose the MAC. The 64 IPs
per server and "duplicate only between IPs of one server" are refused here, before sending.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, ValidationInfo, field_validator

from ..kit.base import Context, CreateSpec, EditSpec, Row
from ..kit.fields import ctx, sent
from ..kit.flows import Refused, confirms_first
from ..kit.vocabulary import Form, ReverseName, Tags, label
from .fips import MAX_PER_SERVER, server_label

if TYPE_CHECKING:
    from ..kit.flows import FlowUI
    from ..kit.service import ResourceService

DESCRIPTION_MAX = 255  # spec 1 §8


# ---- create and edit ----------------------------------------------------------------------------
class CreateForm(Form):
    description: Annotated[
        str, label("Description", max_length=DESCRIPTION_MAX, placeholder="at most 255 characters")
    ] = ""
    tags: Tags = []
    server_id: Annotated[str, label("Attach to", widget="select")] = ""
    reverse: ReverseName = ""
    is_ipv6: Annotated[bool, label("IPv6 (a /64 block)")] = False

    @field_validator("server_id")
    @classmethod
    def _room(cls, v: str, info: ValidationInfo) -> str:
        held = (ctx(info, "counts") or {}).get(v, 0)
        if v and held >= MAX_PER_SERVER:
            raise ValueError(f"this server has {held} flexible IPs already: at most {MAX_PER_SERVER}")
        return v


async def _servers(fips: ResourceService, scope: str) -> list[Row]:
    """The zone's bare-metal servers, read on the flexible IPs' client."""
    from ..baremetal.servers import SERVERS
    from ..kit.service import ResourceService

    return await ResourceService(fips.client, SERVERS, context=fips.context).list_rows(scope)


def _counts(fips: list[Row]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for f in fips:
        sid = f.text("server_id")
        if sid:
            counts[sid] = counts.get(sid, 0) + 1
    return counts


async def create_options(
    service: ResourceService, scope: str
) -> tuple[dict[str, list[tuple[str, str]]], dict[str, Any]]:
    servers = await _servers(service, scope)
    counts = _counts(await service.list_rows(scope))
    choices = [("not attached", "")] + [
        (f"{s.name} · {s.state} · {counts.get(s.id, 0)}/{MAX_PER_SERVER} IPs", s.id) for s in servers
    ]
    return {"server_id": choices}, {"counts": counts}


def create_payload(form: BaseModel, c: Context) -> dict[str, Any]:
    assert isinstance(form, CreateForm)
    body = sent(form, "description", "tags", "is_ipv6", project_id=c.project_id)
    if form.server_id:
        body["server_id"] = form.server_id
    if form.reverse:
        body["reverse"] = form.reverse
    return body


CREATE = CreateSpec(CreateForm, create_payload, create_options)


class EditForm(Form):
    description: Annotated[str, label("Description", max_length=DESCRIPTION_MAX)] = ""
    tags: Tags = []
    reverse: ReverseName = ""


def edit_values(row: Row) -> dict[str, Any]:
    return {
        "description": row.text("description"),
        "tags": [str(t) for t in row.items("tags")],
        "reverse": row.text("reverse"),
    }


EDIT = EditSpec(EditForm, edit_values)  # sends what changed


# ---- MAC groups ---------------------------------------------------------------------------------
def groups_of(rows: list[Row], zone_fips: list[Row]) -> dict[str, list[Row]]:
    """The MAC groups the rows belong to: MAC address -> every IP of the zone sharing it."""
    macs = {r.text("mac") for r in rows if r.text("mac")}
    groups: dict[str, list[Row]] = {m: [] for m in macs}
    for f in zone_fips:
        if f.text("mac") in groups:
            groups[f.text("mac")].append(f)
    return groups


def _ips(rows: list[Row]) -> str:
    return ", ".join(r.name for r in rows)


def _answer_rows(ui: FlowUI, data: dict[str, Any]) -> list[Row]:
    svc = ui.service()
    return [svc.row_of(f, ui.scope) for f in data.get("flexible_ips") or [] if isinstance(f, dict)]


# ---- attach and detach, several at once ---------------------------------------------------------
@confirms_first  # once the server is picked: what moves where, the name (or the count) typed on production
async def attach_flow(ui: FlowUI, rows: list[Row]) -> bool:
    svc = ui.service()
    zone_fips = await svc.list_rows(ui.scope)
    chosen = {r.id: r for r in rows}
    notes: list[str] = []
    for mac, members in groups_of(rows, zone_fips).items():
        added = [m for m in members if m.id not in chosen]
        if added:
            notes.append(
                f"{_ips(added)} share{'s' if len(added) == 1 else ''} the virtual MAC {mac}: the group moves "
                "together, so it is attached too."
            )
            chosen.update({m.id: m for m in added})
        elif len(members) > 1:
            notes.append(f"{_ips(members)} share the virtual MAC {mac} and move together.")
    ids = list(chosen)
    busy = [r for r in chosen.values() if r.state not in ("ready", "attached")]
    if busy:
        raise Refused(f"{_ips(busy)} {'is' if len(busy) == 1 else 'are'} {busy[0].state}: wait until ready or attached")
    counts = _counts(zone_fips)
    servers = await _servers(svc, ui.scope)

    def why_not(s: Row) -> str | None:
        if all(r.text("server_id") == s.id for r in chosen.values()):
            return "they are on it already"
        staying = counts.get(s.id, 0) - sum(1 for r in chosen.values() if r.text("server_id") == s.id)
        if staying + len(ids) > MAX_PER_SERVER:
            return f"it has {counts.get(s.id, 0)} flexible IPs: {len(ids)} more would pass {MAX_PER_SERVER}"
        return None

    server = await ui.pick(
        f"Attach {len(ids)} flexible IP{'s' if len(ids) > 1 else ''} to which server in {ui.scope}?",
        [(f"{s.name} · {s.state} · {counts.get(s.id, 0)}/{MAX_PER_SERVER} IPs", s, why_not(s)) for s in servers],
    )
    if server is None:
        return False
    moving = [r for r in chosen.values() if r.text("server_id") and r.text("server_id") != server.id]
    lines = [f"{_ips(list(chosen.values()))} → {server.name}."] + notes
    if moving:
        lines.append(
            f"{_ips(moving)} leave{'s' if len(moving) == 1 else ''} "
            f"{', '.join(sorted({server_label(r) for r in moving}))}: "
            f"traffic to {'it' if len(moving) == 1 else 'them'} there stops."
        )
    if not await ui.confirm(f"Attach to {server.name}?", "\n".join(lines), "Attach"):
        return False
    data = await svc.call("POST", ui.scope, "fips", "attach", body={"fips_ids": ids, "server_id": server.id})
    for row in _answer_rows(ui, data) or list(chosen.values()):
        row.data["server_name"] = server.name
        ui.upsert(row)
    ui.notify(f"Attaching {len(ids)} to {server.name}: updating → attached, shown as it goes.")
    return True


@confirms_first
async def detach_flow(ui: FlowUI, rows: list[Row]) -> bool:
    svc = ui.service()
    busy = [r for r in rows if r.state != "attached"]
    if busy:
        raise Refused(
            f"{_ips(busy)} {'is' if len(busy) == 1 else 'are'} {busy[0].state or 'not attached'}: "
            "only attached IPs are detached"
        )
    chosen = {r.id for r in rows}
    lines = [
        f"{_ips(rows)} leave{'s' if len(rows) == 1 else ''} {', '.join(sorted({server_label(r) for r in rows}))}: "
        f"traffic to {'it' if len(rows) == 1 else 'them'} stops."
    ]
    for mac, members in groups_of(rows, await svc.list_rows(ui.scope)).items():
        staying = [m for m in members if m.id not in chosen]
        if staying:
            leaving = [m for m in members if m.id in chosen]
            lines.append(
                f"{_ips(leaving)} lose{'s' if len(leaving) == 1 else ''} the virtual MAC {mac}: its group "
                f"({_ips(staying)}) keeps it. "
                "Mark the whole group to keep the MAC."
            )
    if not await ui.confirm(
        f"Detach {len(rows)} flexible IP{'s' if len(rows) > 1 else ''}?", "\n".join(lines), "Detach"
    ):
        return False
    data = await svc.call("POST", ui.scope, "fips", "detach", body={"fips_ids": [r.id for r in rows]})
    for row in _answer_rows(ui, data) or rows:
        ui.upsert(row)
    ui.notify(f"Detaching {len(rows)}: detaching → ready, shown as it goes.")
    return True


# ---- virtual MAC --------------------------------------------------------------------------------
async def _enriched(svc: ResourceService, scope: str, data: dict[str, Any]) -> Row:
    return await svc.enriched(svc.row_of(data, scope), scope)


async def mac_duplicate_flow(ui: FlowUI, row: Row) -> None:
    svc = ui.service()
    sources = [f for f in await svc.list_rows(ui.scope) if f.id != row.id and f.text("mac")]
    if not sources:
        raise Refused("no flexible IP in this zone has a virtual MAC: generate one first")

    def why_not(f: Row) -> str | None:
        if f.text("server_id") != row.text("server_id"):
            return f"it is on {server_label(f)}, not {server_label(row)}: a MAC is duplicated between IPs of one server"
        return None

    sources.sort(key=lambda f: why_not(f) is not None)  # the IPs of the same server first
    source = await ui.pick(
        f"Duplicate onto {row.name} the virtual MAC of which IP?",
        [(f"{f.name} · {f.text('mac')} · {f.text('mac_type')} · on {server_label(f)}", f, why_not(f)) for f in sources],
    )
    if source is None:
        return
    data = await svc.call(
        "POST", ui.scope, "fips", row.id, "mac", "duplicate", body={"duplicate_from_fip_id": source.id}
    )
    ui.upsert(await _enriched(svc, ui.scope, data) if data else row)
    ui.notify(f"{row.name} and {source.name} share the virtual MAC {source.text('mac')}: they now move together.")


async def mac_move_flow(ui: FlowUI, row: Row) -> None:
    svc = ui.service()
    targets = [f for f in await svc.list_rows(ui.scope) if f.id != row.id]

    def why_not(f: Row) -> str | None:
        return f"it has its own virtual MAC ({f.text('mac')})" if f.text("mac") else None

    target = await ui.pick(
        f"Move {row.name}'s virtual MAC {row.text('mac')} to which IP?",
        [
            (f"{f.name} · {f.state} · on {server_label(f) if f.text('server_id') else 'no server'}", f, why_not(f))
            for f in targets
        ],
    )
    if target is None:
        return
    if not await ui.confirm("Move the virtual MAC?", f"{row.text('mac')} leaves {row.name} for {target.name}.", "Move"):
        return
    await svc.call("POST", ui.scope, "fips", row.id, "mac", "move", body={"dst_fip_id": target.id})
    ui.notify(f"Virtual MAC {row.text('mac')}: {row.name} → {target.name}")
    ui.reload()  # two rows changed


async def mac_delete_message(svc: ResourceService, scope: str, row: Row) -> str:
    """Deleting a shared MAC: who else keeps it (the confirmation says it)."""
    others = [m for m in groups_of([row], await svc.list_rows(scope)).get(row.text("mac"), []) if m.id != row.id]
    return f"{row.name} loses the virtual MAC {row.text('mac')}." + (
        f" {_ips(others)} keep{'s' if len(others) == 1 else ''} it." if others else ""
    )
