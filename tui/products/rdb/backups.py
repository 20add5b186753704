"""Database backups and snapshots: region-wide lists, and the same kinds as children of one instance
(bound by `instance_id`), so either place shows the same table, actions and refresh."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...records import replace
from ..kit.base import ActionSpec, Call, Lazy, Parent, data_lost
from ..kit.declared import ID, Field
from ..kit.kind_options import Order, Reading, Refuses
from ..kit.nouns import title_of
from ..kit.shapes import ShowValue
from ..kit.states import When
from ..kit.times import moment_of
from .common import TONES, rdb_kind

if TYPE_CHECKING:
    from ..kit.base import ParentRef, ResourceKind, Row
    from ..kit.models import Resource

COPIES = "tui.products.rdb.copy_forms:"


READY = When("ready")
_ready, _why = READY.ok, READY.why


def _held(row: Row) -> str | None:
    """A locked backup is held by the platform (a legal hold): it is not deleted from here."""
    return (
        "it is locked by the platform: nothing deletes it until it is unlocked (ask support)"
        if row.state == "locked"
        else None
    )


def _download(row: Row, parent: ParentRef | None = None) -> str:
    return (
        f"{row.text('download_url')}\n\nWorks until {moment_of(row.text('download_url_expires_at')) or 'it expires'}."
    )


def _stored(backup: Row | Resource) -> str:
    return "in the same region" if backup.raw.get("same_region") else "off-site, in another region"


def _with_the_data(snapshot: object) -> str:
    return "with the data, in the same location (a copy of the block volume)"


def _export(row: Row) -> str:
    return "URL ready" if row.get("download_url") else "—"


def copy_fields(name_width: int, *own: Field) -> tuple[Field, ...]:
    """What a backup and a snapshot both hold, around what each holds of its own."""
    return (
        ID,
        Field("name", "Name", "name", width=name_width),
        Field("status", "Status", "state", width=12, tones=TONES),
        Field("instance_id", "Instance", "ref", ref="rdb.instances", named="instance_name", width=14, key="instance"),
        *own,
        Field(
            "expires_at", "Expires", "time", width=10, key="expires", blank="never", empty="never", as_detail=moment_of
        ),
        Field("created_at", "Created", "time", width=10, key="created"),
    )


BACKUP_FIELDS = copy_fields(
    20,
    Field("database_name", "Database", width=12, key="database"),
    Field("size", "Size", "size", width=8),
    Field("", "Stored", show=_stored),
    Field("download_url", "Download URL", empty="export it first (a)"),
    Field("download_url", "Export", width=9, key="export", show=_export, detail=False),
)
SNAPSHOT_FIELDS = copy_fields(
    22,
    Field("node_type", "Node type", width=12, key="node"),
    Field("size", "Size", "size", width=8),
    Field("", "Stored", show=_with_the_data),
)


BACKUPS = rdb_kind(
    id="rdb.backups",
    title="Database backups",
    singular="backup",
    list_key="database_backups",
    reading=Reading(order=Order(by=("created", True))),
    transitional=frozenset({"creating", "restoring", "deleting", "exporting"}),
    fields=BACKUP_FIELDS,
    columns=("name", "status", "instance", "database", "size", "created", "expires", "export"),
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
    writing=data_lost("This copy of the database is gone for good", refuses=Refuses(delete=_held), name_param="name"),
)


def of_instance(kind: ResourceKind, create: str, **more: object) -> ResourceKind:
    """The copies of one instance, from its detail: the project's list of them, filtered by it."""
    return replace(
        kind,
        id=kind.id.replace("rdb.", "rdb.instance_"),
        title=title_of(kind.singular),
        parent=Parent("rdb.instances", query="instance_id"),
        create=Lazy(COPIES + create),
        **more,
    )


INSTANCE_BACKUPS = of_instance(BACKUPS, "BACKUP_HERE")

SNAPSHOTS = rdb_kind(
    id="rdb.snapshots",
    title="Database snapshots",
    singular="snapshot",
    transitional=frozenset({"creating", "restoring", "deleting"}),
    fields=SNAPSHOT_FIELDS,
    columns=("name", "status", "instance", "node", "size", "created", "expires"),
    actions=(
        ActionSpec(
            "instance",
            "Create an instance from it…",
            _ready,
            flow=Lazy(COPIES + "instance_from_snapshot_flow"),
            why_not=_why,
        ),
    ),
    edit=Lazy(COPIES + "BACKUP_EDIT"),  # the same two fields: name and expiry
    delete=Call("DELETE", "{id}"),
    writing=data_lost("The copy of the volume is gone for good", name_param="name"),
)

INSTANCE_SNAPSHOTS = of_instance(SNAPSHOTS, "SNAPSHOT_CREATE")  # sent under the instance (its spec's path)
