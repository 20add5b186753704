"""The volumes object of a server's creation (spec 1 §2.3), as a step after the create form:
keys "0", "1", … in order, each additional volume one of the use cases of the spec's table.

| use case                         | required                          | optional   |
| empty volume                     | name, volume_type, size           | boot       |
| from a snapshot (l_ssd, b_ssd)   | base_snapshot, name, volume_type  | boot       |
| from a snapshot (sbs_volume)     | base_snapshot, name, volume_type  | size, boot |
| attach existing (l_ssd, b_ssd)   | id                                | boot       |
| attach existing sbs_volume       | id, volume_type                   | boot       |

Volume 0 comes from the image (the create form's boot volume); sizes are checked against the
chosen type's `volume_constraints` before anything is sent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import ValidationInfo, field_validator

from ..kit.base import Column
from ..kit.format import gb
from ..kit.vocabulary import Form, label
from .fields import GB, check_name, ctx

if TYPE_CHECKING:
    from ..kit.flows import FlowUI
    from .server_forms import ServerCreateForm

SOURCES = [("empty volume", "empty"), ("from a snapshot", "snapshot"), ("attach an existing volume", "existing")]


class VolumeSpecForm(Form):
    source: Annotated[str, label("Source", widget="select")] = "empty"
    volume_type: Annotated[str, label("Type", widget="select")] = "b_ssd"
    name: Annotated[str, label("Name", validate_default=True, placeholder="e.g. data-1")] = ""
    size_gb: Annotated[int | None, label("Size (GB)", validate_default=True)] = None
    snapshot: Annotated[str, label("Snapshot", validate_default=True, widget="select")] = ""
    existing: Annotated[str, label("Existing volume", validate_default=True, widget="select")] = ""

    @field_validator("source")
    @classmethod
    def _source(cls, v: str) -> str:
        if v not in ("empty", "snapshot", "existing"):
            raise ValueError("empty, snapshot or existing")
        return v

    @field_validator("volume_type")
    @classmethod
    def _type(cls, v: str, info: ValidationInfo) -> str:
        if v not in ("l_ssd", "b_ssd", "sbs_volume"):
            raise ValueError("l_ssd, b_ssd or sbs_volume")
        ctype = ctx(info, "ctype") or {}
        if v == "l_ssd" and ctype and not (ctype.get("per_volume_constraint") or {}).get("l_ssd"):
            raise ValueError("this instance type has no local storage")
        return v

    @field_validator("name")
    @classmethod
    def _name(cls, v: str, info: ValidationInfo) -> str:
        if info.data.get("source") == "existing":
            if v:
                raise ValueError("an existing volume keeps its name: leave it empty")
            return v
        if not v:
            raise ValueError("required")
        return check_name(v)

    @field_validator("size_gb")
    @classmethod
    def _size(cls, v: int | None, info: ValidationInfo) -> int | None:
        source, vtype = info.data.get("source"), info.data.get("volume_type")
        if source == "existing" or (source == "snapshot" and vtype != "sbs_volume"):
            if v is not None:
                raise ValueError("taken from the volume or snapshot: leave it empty")
            return v
        if v is None:
            if source == "empty":
                raise ValueError("required for an empty volume")
            return v
        lo, hi = _limits(info, vtype or "")
        if not lo <= v * GB <= hi:
            raise ValueError(f"between {gb(lo)} and {gb(hi)} GB for {vtype} on this type")
        return v

    @field_validator("snapshot")
    @classmethod
    def _snapshot(cls, v: str, info: ValidationInfo) -> str:
        if info.data.get("source") != "snapshot":
            return ""
        if not v:
            raise ValueError("choose the snapshot")
        snap = (ctx(info, "snapshots") or {}).get(v) or {}
        family = {"sbs_snapshot": "sbs_volume"}.get(str(snap.get("volume_type")), snap.get("volume_type"))
        if snap and family != info.data.get("volume_type"):
            raise ValueError(f"a {snap.get('volume_type')} snapshot makes {family} volumes only")
        return v

    @field_validator("existing")
    @classmethod
    def _existing(cls, v: str, info: ValidationInfo) -> str:
        if info.data.get("source") != "existing":
            return ""
        if not v:
            raise ValueError("choose the volume")
        vol = (ctx(info, "volumes") or {}).get(v) or {}
        if vol and vol.get("volume_type") != info.data.get("volume_type"):
            raise ValueError(f"that volume is {vol.get('volume_type')}: set Type to match")
        return v


def _limits(info: ValidationInfo, vtype: str) -> tuple[int, int]:
    if vtype == "l_ssd":
        c = ((ctx(info, "ctype") or {}).get("per_volume_constraint") or {}).get("l_ssd") or {}
        return int(c.get("min_size", GB)), int(c.get("max_size", 0))
    return 1 * GB, 10_000 * GB


def to_volume(spec: dict[str, Any]) -> dict[str, Any]:
    """One entry of the volumes object, with exactly the parameters of its use case."""
    if spec["source"] == "existing":
        out: dict[str, Any] = {"id": spec["existing"]}
        if spec["volume_type"] == "sbs_volume":
            out["volume_type"] = "sbs_volume"
        return out
    out = {"name": spec["name"], "volume_type": spec["volume_type"]}
    if spec["source"] == "snapshot":
        out["base_snapshot"] = spec["snapshot"]
    if spec.get("size_gb") is not None:
        out["size"] = spec["size_gb"] * GB
    return out


def boot_volume(payload: dict[str, Any], image: dict[str, Any], ctype: dict[str, Any]) -> dict[str, Any]:
    """Volume 0 as the platform would default it (spec 1 §2.3), when the form left it default."""
    given = (payload.get("volumes") or {}).get("0")
    if given:
        return given
    local = ((ctype.get("per_volume_constraint") or {}).get("l_ssd")) and (ctype.get("volumes_constraint") or {}).get(
        "max_size"
    )
    if local:
        return {"volume_type": "l_ssd", "size": int(local), "boot": True}
    return {
        "volume_type": "b_ssd",
        "size": int(((image.get("root_volume") or {}).get("size")) or 10 * GB),
        "boot": True,
    }


COLUMNS = (
    Column("source", "Source", lambda r: str(r.get("source")), width=9),
    Column("type", "Type", lambda r: str(r.get("volume_type")), width=10),
    Column("name", "Name", lambda r: str(r.get("name") or r.get("existing") or ""), width=22),
    Column("size", "Size", lambda r: f"{r['size_gb']} GB" if r.get("size_gb") else "—", width=8),
)


async def extend_volumes(
    ui: FlowUI, form: ServerCreateForm, payload: dict[str, Any], extra: dict[str, Any]
) -> dict[str, Any] | None:
    """After the create form: when asked, the additional volumes, then the whole volumes object."""
    if not getattr(form, "more_volumes", False):
        return payload
    service = ui.service()
    snaps = {
        s["id"]: s
        for s in await service.read_all(ui.scope, "snapshots", key="snapshots")
        if s.get("state") == "available"
    }
    vols = {v["id"]: v for v in await service.read_all(ui.scope, "volumes", key="volumes") if not v.get("server")}
    ctype = (extra.get("types") or {}).get(form.commercial_type) or {}
    image = (extra.get("images") or {}).get(form.image) or {}
    types = [("b_ssd (block)", "b_ssd"), ("sbs_volume (block storage)", "sbs_volume")]
    if (ctype.get("per_volume_constraint") or {}).get("l_ssd"):
        types.append(("l_ssd (local)", "l_ssd"))
    choices = {
        "source": SOURCES,
        "volume_type": types,
        "snapshot": [("", "")]
        + [(f"{s.get('name')} · {s.get('volume_type')} · {gb(s.get('size'))} GB", sid) for sid, s in snaps.items()],
        "existing": [("", "")]
        + [(f"{v.get('name')} · {v.get('volume_type')} · {gb(v.get('size'))} GB", vid) for vid, v in vols.items()],
    }
    boot = boot_volume(payload, image, ctype)
    edited = await ui.edit_records(
        f"Volumes of {form.name} (after volume 0: {boot.get('volume_type')} {gb(boot.get('size'))} GB from the image)",
        VolumeSpecForm,
        [],
        COLUMNS,
        ordered=True,
        choices=choices,
        number_from=1,
        describe="Each volume is empty, made from a snapshot, or an existing volume; keys follow this order.",
        context={"ctype": ctype, "snapshots": snaps, "volumes": vols},
    )
    if edited is None:
        return None
    local = sum(v["size_gb"] * GB for v in edited if v.get("volume_type") == "l_ssd" and v.get("size_gb"))
    local += sum(
        int(s.get("size") or 0)
        for v in edited
        if v["source"] == "snapshot" and v.get("volume_type") == "l_ssd"
        for s in [snaps.get(v["snapshot"], {})]
    )
    local += int(boot.get("size") or 0) if boot.get("volume_type") == "l_ssd" else 0
    limit = int((ctype.get("volumes_constraint") or {}).get("max_size") or 0)
    if local and limit and local > limit:
        ui.notify(
            f"Local storage would total {gb(local)} GB; {form.commercial_type} allows {gb(limit)} GB. Nothing was "
            "sent.",
            "error",
        )
        return None
    volumes = {"0": boot, **{str(i): to_volume(v) for i, v in enumerate(edited, 1)}}
    return {**payload, "volumes": volumes}
