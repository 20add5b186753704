"""Database backups and snapshots: region-wide lists, and the same kinds as children of one instance
(bound by `instance_id`), so either place shows the same table, actions and refresh."""

from __future__ import annotations

from typing import Any

from ...records import replace
from ..base import ActionSpec, Call, Column, Lazy, Parent
from ..format import date_of, human_bytes
from ..shapes import ShowValue
from ..times import moment_of
from ..states import When
from .instances import TONES, rdb_kind
from ..columns import name_col, state_col

COPIES = "tui.products.rdb.copy_forms:"


READY = When("ready")
_ready, _why = READY.ok, READY.why


def _download(row: Any, parent: Any = None) -> str:
    return (
        f"{row.text('download_url')}\n\nWorks until {moment_of(row.text('download_url_expires_at')) or 'it expires'}."
    )


BACKUPS = rdb_kind(
    id="rdb.backups",
    title="Database backups",
    singular="backup",
    collection="backups",
    list_key="database_backups",
    item_key=None,
    page_size=100,
    state_field="status",
    transitional=frozenset({"creating", "restoring", "deleting", "exporting"}),
    columns=(
        name_col(20),
        state_col(TONES, 12, "status", "Status"),
        Column("instance", "Instance", lambda r: r.text("instance_name"), width=14),
        Column("database", "Database", lambda r: r.text("database_name"), width=12),
        Column("size", "Size", lambda r: human_bytes(r.get("size")), width=8, sort_key=lambda r: r.get("size") or 0),
        Column(
            "created",
            "Created",
            lambda r: date_of(r.text("created_at")),
            width=10,
            sort_key=lambda r: r.text("created_at"),
        ),
        Column("expires", "Expires", lambda r: date_of(r.text("expires_at")) or "never", width=10),
        Column("export", "Export", lambda r: "URL ready" if r.get("download_url") else "—", width=9),
    ),
    sort=("created", True),
    detail_fields=(
        ("ID", lambda b: b.id),
        ("Name", lambda b: b.name),
        ("Status", lambda b: TONES.text(str(b.raw.get("status", "")))),
        ("Instance", lambda b: f"{b.raw.get('instance_name', '')} ({b.raw.get('instance_id', '')})"),
        ("Database", lambda b: str(b.raw.get("database_name", ""))),
        ("Size", lambda b: human_bytes(b.raw.get("size"))),
        ("Stored", lambda b: "in the same region" if b.raw.get("same_region") else "off-site, in another region"),
        ("Download URL", lambda b: str(b.raw.get("download_url") or "export it first (a)")),
        ("Expires", lambda b: moment_of(b.raw.get("expires_at")) or "never"),
        ("Created", lambda b: str(b.raw.get("created_at", ""))),
    ),
    actions=(
        ActionSpec(
            "export",
            "Export (make a download URL)",
            _ready,
            call=Call("POST", "{id}/export", {}),
            why_not=_why,
            then="url",
        ),
        ActionSpec(
            "url",
            "Download URL (copy)…",
            lambda r: bool(r.get("download_url")),
            shape=ShowValue("Download URL of {name}", _download, copy="{download_url}"),
        ),
        ActionSpec("restore", "Restore to an instance…", _ready, flow=Lazy(COPIES + "restore_flow"), why_not=_why),
    ),
    create=Lazy(COPIES + "BACKUP_CREATE"),
    edit=Lazy(COPIES + "BACKUP_EDIT"),
    delete=Call("DELETE", "{id}"),
    delete_needs_name=True,  # data lost: the name is typed
    delete_warning=lambda r: "This copy of the database is gone for good",
    name_param="name",
)

INSTANCE_BACKUPS = replace(
    BACKUPS, id="rdb.instance_backups", title="Backups", parent=Parent("rdb.instances", query="instance_id"),
    create=Lazy(COPIES + "BACKUP_HERE"),
)

SNAPSHOTS = rdb_kind(
    id="rdb.snapshots",
    title="Database snapshots",
    singular="snapshot",
    collection="snapshots",
    list_key="snapshots",
    item_key=None,
    page_size=100,
    state_field="status",
    transitional=frozenset({"creating", "restoring", "deleting"}),
    columns=(
        Column("name", "Name", lambda r: r.name, width=22),
        Column("status", "Status", lambda r: TONES.text(r.state), width=12),
        Column("instance", "Instance", lambda r: r.text("instance_name"), width=14),
        Column("node", "Node type", lambda r: r.text("node_type"), width=12),
        Column("size", "Size", lambda r: human_bytes(r.get("size")), width=8, sort_key=lambda r: r.get("size") or 0),
        Column("created", "Created", lambda r: date_of(r.text("created_at")), width=10, sort_key=lambda r: r.text("created_at")),
        Column("expires", "Expires", lambda r: date_of(r.text("expires_at")) or "never", width=10),
    ),
    detail_fields=(
        ("ID", lambda s: s.id),
        ("Name", lambda s: s.name),
        ("Status", lambda s: TONES.text(str(s.raw.get("status", "")))),
        ("Instance", lambda s: f"{s.raw.get('instance_name', '')} ({s.raw.get('instance_id', '')})"),
        ("Node type", lambda s: str(s.raw.get("node_type", ""))),
        ("Size", lambda s: human_bytes(s.raw.get("size"))),
        ("Stored", lambda s: "with the data, in the same location (a copy of the block volume)"),
        ("Expires", lambda s: moment_of(s.raw.get("expires_at")) or "never"),
        ("Created", lambda s: str(s.raw.get("created_at", ""))),
    ),
    actions=(
        ActionSpec("instance", "Create an instance from it…", _ready, flow=Lazy(COPIES + "instance_from_snapshot_flow"), why_not=_why),
    ),
    edit=Lazy(COPIES + "BACKUP_EDIT"),  # the same two fields: name and expiry
    delete=Call("DELETE", "{id}"),
    delete_needs_name=True,  # data lost: the name is typed
    delete_warning=lambda r: "The copy of the volume is gone for good",
    name_param="name",
)

INSTANCE_SNAPSHOTS = replace(
    SNAPSHOTS, id="rdb.instance_snapshots", title="Snapshots", parent=Parent("rdb.instances", query="instance_id"),
    create=Lazy(COPIES + "SNAPSHOT_CREATE"), create_path="instances/{parent}/snapshots",
)
