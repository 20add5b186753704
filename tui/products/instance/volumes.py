"""Instance volumes: local (l_ssd) and block (b_ssd, sbs_volume) storage, as listed and acted on.
Forms and flows live in `volume_forms` (pydantic), loaded on first use."""

from __future__ import annotations

from ..base import ActionSpec, Call, Column, Lazy
from ..location import FromContext
from ..shapes import FormCall
from ..format import human_bytes
from .common import DELETE_BY_ID, created_col, detail_common, instance_kind, name_col, raw, server_col, size_col, state_col, zone_col

F = "tui.products.instance.volume_forms:"
NAME_TAGS = Lazy("tui.products.instance.fields:NameTagsForm")
BUSY = frozenset({"snapshotting", "fetching", "saving", "attaching", "resizing", "hotsyncing"})


def _snapshottable(r) -> bool:
    return r.state == "available" and r.text("volume_type") in ("l_ssd", "b_ssd")


VOLUMES = instance_kind(
    id="instance.volumes",
    title="Volumes",
    singular="volume",
    delete=DELETE_BY_ID,
    name_param="name",
    collection="volumes",
    list_key="volumes",
    item_key="volume",
    columns=(
        name_col(22),
        Column("type", "Type", lambda r: r.text("volume_type"), width=10),
        size_col(),
        state_col(15),
        server_col(18),
        zone_col(),
        created_col(),
    ),
    row_fields=("id", "name", "volume_type", "size", "state", "server", "zone", "creation_date", "modification_date", "tags", "base_snapshot"),
    detail_fields=(
        ("ID", raw("id")),
        ("Name", raw("name")),
        ("Type", raw("volume_type")),
        ("Size", lambda s: human_bytes(s.raw.get("size"))),
        ("State", raw("state")),
        ("Server", raw("server", "not attached")),
        ("From snapshot", raw("base_snapshot")),
        *detail_common(),
    ),
    transitional=BUSY,
    actions=(
        ActionSpec("snapshot", "Snapshot…", _snapshottable, shape=FormCall(
            "Snapshot {name} ({volume_type})", NAME_TAGS, Call("POST", "snapshots", lambda r: {"volume_id": r.id, "project": FromContext("project_id")}),
            done="Snapshot of {name} started", initial=lambda r: {"name": f"{r.name}-snap"}, submit_label="Snapshot",
            creates=Lazy("tui.products.instance.snapshots:SNAPSHOTS"))),
        ActionSpec("attach", "Attach to a server…", lambda r: not r.get("server") and r.state == "available", flow=Lazy(F + "attach_flow")),
        ActionSpec("detach", "Detach from its server", lambda r: bool(r.get("server")), flow=Lazy(F + "detach_flow")),
        ActionSpec("migrate", "Migrate to block storage (sbs)…", lambda r: r.text("volume_type") == "b_ssd" and r.state == "available", flow=Lazy(F + "migrate_flow")),
    ),
    create=Lazy(F + "CREATE"),
    edit=Lazy(F + "EDIT"),
    deletable=lambda r: f"it is attached to {r.obj('server').get('name') or 'a server'}: detach it first" if r.get("server") else None,
    delete_needs_name=True,
)
