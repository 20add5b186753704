"""Volume forms and flows (pydantic; loaded on first use): create with the type's constraints,
rename and grow, snapshot, attach to and detach from a server, migrate b_ssd to block storage."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, ValidationInfo, field_validator

from ..kit.base import Context, CreateSpec, EditSpec, Row
from ..kit.fields import sent
from ..kit.format import gb
from ..kit.vocabulary import Form, label
from .fields import GB, Name, Tags, ctx

if TYPE_CHECKING:
    from ..kit.flows import FlowUI
    from ..kit.service import ResourceService

VOLUME_TYPE_LABELS = {"b_ssd": "b_ssd (block)", "sbs_volume": "sbs_volume (block storage)", "l_ssd": "l_ssd (local)"}


class VolumeCreateForm(Form):
    name: Name
    volume_type: Annotated[str, label("Type", min_length=1, widget="select")]
    base_snapshot: Annotated[str, label("From snapshot", widget="select")] = ""
    size_gb: Annotated[
        int | None, label("Size (GB)", validate_default=True, placeholder="empty when made from a snapshot")
    ] = None
    tags: Tags = []

    @field_validator("volume_type")
    @classmethod
    def _type(cls, v: str, info: ValidationInfo) -> str:
        types = ctx(info, "types")
        if types is not None and v not in types:
            raise ValueError(f"one of {', '.join(types)}")
        return v

    @field_validator("base_snapshot")
    @classmethod
    def _snapshot(cls, v: str, info: ValidationInfo) -> str:
        snap = (ctx(info, "snapshots") or {}).get(v)
        vtype = info.data.get("volume_type")
        if snap is not None and vtype and snap.get("volume_type") != vtype:
            raise ValueError(f"a {snap.get('volume_type')} snapshot makes {snap.get('volume_type')} volumes only")
        return v

    @field_validator("size_gb")
    @classmethod
    def _size(cls, v: int | None, info: ValidationInfo) -> int | None:
        from_snapshot = bool(info.data.get("base_snapshot"))
        if v is None:
            if not from_snapshot and "base_snapshot" in info.data:
                raise ValueError("required for an empty volume")
            return v
        if from_snapshot:
            raise ValueError("taken from the snapshot: leave it empty")
        limits = ((ctx(info, "types") or {}).get(info.data.get("volume_type", "")) or {}).get("constraints") or {}
        lo, hi = int(limits.get("min", GB)), int(limits.get("max", 10_000 * GB))
        if not lo <= v * GB <= hi:
            raise ValueError(f"between {gb(lo)} and {gb(hi)} GB for this type")
        return v


def volume_payload(form: BaseModel, c: Context) -> dict[str, Any]:
    assert isinstance(form, VolumeCreateForm)
    body = sent(form, "name", "volume_type", "tags", project=c.project_id)
    if form.base_snapshot:
        body["base_snapshot"] = form.base_snapshot
    else:
        body["size"] = (form.size_gb or 0) * GB
    return body


async def volume_options(
    service: ResourceService, scope: str
) -> tuple[dict[str, list[tuple[str, str]]], dict[str, Any]]:
    types = (await service.call("GET", scope, "products", "volumes")).get("volumes") or {}
    snaps = await service.read_all(scope, "snapshots", key="snapshots")
    snapshots = {s["id"]: s for s in snaps if s.get("id") and s.get("state") == "available"}
    type_choices = []
    for name, t in types.items():
        c = t.get("constraints") or {}
        sizes = f"{gb(c.get('min'))}–{gb(c.get('max'))} GB"
        type_choices.append((f"{VOLUME_TYPE_LABELS.get(name, name)} · {sizes}", name))
    snap_choices = [("none: an empty volume", "")] + [
        (f"{s.get('name')} · {s.get('volume_type')} · {gb(s.get('size'))} GB", sid) for sid, s in snapshots.items()
    ]
    return {"volume_type": type_choices, "base_snapshot": snap_choices}, {"types": types, "snapshots": snapshots}


class VolumeEditForm(Form):
    name: Name
    size_gb: Annotated[int, label("Size (GB)")]
    tags: Tags = []

    @field_validator("size_gb")
    @classmethod
    def _grow(cls, v: int, info: ValidationInfo) -> int:
        current = ctx(info, "current")
        if current is None:
            return v
        now = int(current.get("size") or 0)
        if v * GB != now and current.text("volume_type") == "l_ssd":
            raise ValueError("l_ssd volumes cannot be resized")
        if v * GB < now:
            raise ValueError(f"a volume can only grow (now {gb(now)} GB)")
        if v * GB > 10_000 * GB:
            raise ValueError("at most 10000 GB")
        return v


def volume_edit_values(row: Row) -> dict[str, Any]:
    return {"name": row.name, "size_gb": int(row.get("size") or 0) // GB, "tags": [str(t) for t in row.items("tags")]}


def volume_patch(form: BaseModel, row: Row) -> dict[str, Any]:
    assert isinstance(form, VolumeEditForm)
    out: dict[str, Any] = {}
    if form.name != row.name:
        out["name"] = form.name
    if form.tags != row.items("tags"):
        out["tags"] = form.tags
    if form.size_gb * GB != int(row.get("size") or 0):
        out["size"] = form.size_gb * GB
    return out


CREATE = CreateSpec(VolumeCreateForm, volume_payload, volume_options, field_map={"size": "size_gb"})
EDIT = EditSpec(VolumeEditForm, volume_edit_values, volume_patch)


# ---- flows --------------------------------------------------------------------------------------
async def server_volumes(
    ui: FlowUI, sid: str, scope: str | None = None
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The server as sent, and its volume map ordered by key (read in `scope`, the flow's own by default)."""
    server = (await ui.service().call("GET", scope or ui.scope, "servers", sid)).get("server") or {}
    vols = server.get("volumes") or {}
    return server, {k: vols[k] for k in sorted(vols, key=lambda k: int(k) if str(k).isdigit() else 999)}


async def set_server_volumes(ui: FlowUI, sid: str, volumes: list[dict[str, Any]]) -> dict[str, Any]:
    """PATCH the whole volume map, keys renumbered "0", "1", … in order (spec 1 §2.3)."""
    body = {
        "volumes": {
            str(i): {"id": v["id"], **({"volume_type": "sbs_volume"} if v.get("volume_type") == "sbs_volume" else {})}
            for i, v in enumerate(volumes)
        }
    }
    return await ui.service().call("PATCH", ui.scope, "servers", sid, body=body)


async def attach_flow(ui: FlowUI, vol: Row) -> None:
    from .servers import SERVERS

    servers = await ui.service(SERVERS).list_rows(ui.scope)
    local = vol.text("volume_type") == "l_ssd"
    choices = [
        (f"{s.name} · {s.state}" + ("  (must be powered off for l_ssd)" if local and s.state != "stopped" else ""), s)
        for s in sorted(servers, key=lambda s: s.name)
    ]
    server = await ui.pick(f"Attach {vol.name} to", choices)
    if server is None:
        return
    if local and server.state != "stopped":
        ui.notify(f"{server.name} is {server.state}: l_ssd volumes attach only to a powered-off server.", "warning")
        return
    _, current = await server_volumes(ui, server.id)
    await set_server_volumes(ui, server.id, [*current.values(), {"id": vol.id, "volume_type": vol.text("volume_type")}])
    ui.notify(f"Attached {vol.name} to {server.name}")
    ui.follow(vol)


async def detach_flow(ui: FlowUI, vol: Row) -> None:
    owner = vol.obj("server")
    if not owner.get("id"):
        return
    server, current = await server_volumes(ui, owner["id"])
    if vol.text("volume_type") == "l_ssd" and server.get("state") != "stopped":
        ui.notify(f"{server.get('name')} is {server.get('state')}: power it off to detach an l_ssd volume.", "warning")
        return
    boot = current.get("0")
    if isinstance(boot, dict) and boot.get("id") == vol.id and server.get("state") != "stopped":
        ui.notify(
            f"{vol.name} is the boot volume of {server.get('name')}, which is {server.get('state')}: "
            "power it off first to detach it.",
            "warning",
        )
        return
    if not await ui.confirm(
        f"Detach {vol.name}?",
        f"{vol.name} is detached from {server.get('name')}; the volume and its data are kept.",
        "Detach",
    ):
        return
    await set_server_volumes(ui, owner["id"], [v for v in current.values() if v.get("id") != vol.id])
    ui.notify(f"Detached {vol.name} from {server.get('name')}")
    ui.follow(vol)


async def migrate_flow(ui: FlowUI, vol: Row) -> None:
    plan = await ui.service().call("POST", ui.scope, "block-migration", "plan", body={"volume_id": vol.id})
    volume = plan.get("volume")
    volumes = [volume] if isinstance(volume, dict) else [v for v in plan.get("volumes") or [] if isinstance(v, dict)]
    names = [v.get("name") for v in volumes] + [
        f"snapshot {s.get('name')}" for s in plan.get("snapshots") or [] if isinstance(s, dict)
    ]
    message = "These move to block storage (sbs) and cannot move back:\n  " + "\n  ".join(str(n) for n in names)
    if not await ui.confirm(f"Migrate {vol.name}?", message, "Migrate"):
        return
    await ui.service().call(
        "POST",
        ui.scope,
        "block-migration",
        "apply",
        body={"volume_id": vol.id, "validation_key": plan.get("validation_key")},
    )
    ui.notify(f"Migrating {vol.name} to block storage")
    ui.follow(vol)
