"""Instance volumes: local (l_ssd) and block (b_ssd, sbs_volume) storage, as listed and acted on.
Forms and flows live in `volume_forms` (pydantic), loaded on first use."""

from __future__ import annotations

from pydantic import BaseModel

from ..kit.base import ActionSpec, Call, Lazy, Row, data_lost
from ..kit.declared import Field
from ..kit.kind_options import Refuses, Rows
from ..kit.location import FromContext
from ..kit.shapes import FormCall
from .common import ID, SERVER, TONES, detail_common, instance_kind

F = "tui.products.instance.volume_forms:"
NAME_TAGS: Lazy[type[BaseModel]] = Lazy("tui.products.instance.fields:NameTagsForm")
BUSY = frozenset({"snapshotting", "fetching", "saving", "attaching", "resizing", "hotsyncing"})


def _snapshottable(r: Row) -> bool:
    return r.state == "available" and r.text("volume_type") in ("l_ssd", "b_ssd")


VOLUMES = instance_kind(
    id="instance.volumes",
    singular="volume",
    writing=data_lost(
        refuses=Refuses(
            delete=lambda r: (
                f"it is attached to {r.obj('server').get('name') or 'a server'}: detach it first"
                if r.get("server")
                else None
            )
        ),
    ),
    fields=(
        ID,
        Field("name", "Name", "name", width=22),
        Field("volume_type", "Type", width=10, key="type"),
        Field("size", "Size", "size", width=7),
        Field("state", "State", "state", width=15, tones=TONES),
        SERVER,
        Field("base_snapshot", "From snapshot", "ref", ref="instance.snapshots"),
        *detail_common(),
    ),
    columns=("name", "type", "size", "state", "server", "zone", "created"),
    rows=Rows(
        row_fields=(
            "id",
            "name",
            "volume_type",
            "size",
            "state",
            "server",
            "zone",
            "creation_date",
            "modification_date",
            "tags",
            "base_snapshot",
        )
    ),
    transitional=BUSY,
    actions=(
        ActionSpec(
            "snapshot",
            "Snapshot…",
            _snapshottable,
            shape=FormCall(
                "Snapshot {name} ({volume_type})",
                NAME_TAGS,
                Call("POST", "snapshots", lambda r: {"volume_id": r.id, "project": FromContext("project_id")}),
                done="Snapshot of {name} started",
                initial=lambda r: {"name": f"{r.name}-snap"},
                submit_label="Snapshot",
                creates=Lazy("tui.products.instance.snapshots:SNAPSHOTS"),
            ),
        ),
        ActionSpec(
            "attach",
            "Attach to a server…",
            lambda r: not r.get("server") and r.state == "available",
            flow=Lazy(F + "attach_flow"),
        ),
        ActionSpec("detach", "Detach from its server", lambda r: bool(r.get("server")), flow=Lazy(F + "detach_flow")),
        ActionSpec(
            "migrate",
            "Migrate to block storage (sbs)…",
            lambda r: r.text("volume_type") == "b_ssd" and r.state == "available",
            flow=Lazy(F + "migrate_flow"),
        ),
    ),
    create=Lazy(F + "CREATE"),
    edit=Lazy(F + "EDIT"),
)
