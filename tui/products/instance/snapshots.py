"""Instance snapshots and images, as listed and acted on. Forms and flows: `snapshot_forms`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel

from ..kit.base import ActionSpec, Call, Lazy, data_lost
from ..kit.declared import Field
from ..kit.kind_options import Refuses, Rows, Writing
from ..kit.location import FromContext
from ..kit.shapes import FormCall
from .common import ID, TONES, detail_common, instance_kind

if TYPE_CHECKING:
    from ..kit.base import Row
    from ..kit.models import Resource

F = "tui.products.instance.snapshot_forms:"
NAME_TAGS: Lazy[type[BaseModel]] = Lazy("tui.products.instance.fields:NameTagsForm")


def volume_type_of(snapshot: Row) -> str:
    """The type of a volume made from a snapshot: an sbs snapshot makes an sbs volume."""
    kind = snapshot.text("volume_type")
    return {"sbs_snapshot": "sbs_volume"}.get(kind, kind)


def _extra_volumes(image: Row | Resource) -> str:
    """Each extra volume's place and name (`1: data`), beside the root volume."""
    extra = image.raw.get("extra_volumes") or {}
    return ", ".join(f"{k}: {v.get('name')}" for k, v in extra.items()) or "none"


SNAPSHOTS = instance_kind(
    id="instance.snapshots",
    singular="snapshot",
    writing=data_lost(),
    fields=(
        ID,
        Field("name", "Name", "name", width=24),
        Field("volume_type", "Type", width=12, key="type"),
        Field("size", "Size", "size", width=7),
        Field("state", "State", "state", width=14, tones=TONES),
        Field(
            "base_volume.id",
            "From volume",
            "ref",
            ref="instance.volumes",
            named="base_volume.name",
            width=18,
            key="volume",
            blank="—",
        ),
        Field("error_reason", "Error"),
        *detail_common(),
    ),
    columns=("name", "type", "size", "state", "volume", "zone", "created"),
    rows=Rows(
        row_fields=(
            "id",
            "name",
            "volume_type",
            "size",
            "state",
            "base_volume",
            "zone",
            "creation_date",
            "modification_date",
            "tags",
        )
    ),
    transitional=frozenset({"snapshotting", "importing", "exporting"}),
    actions=(
        ActionSpec(
            "volume",
            "Create a volume from it…",
            lambda r: r.state == "available",
            shape=FormCall(
                "New volume from {name}",
                NAME_TAGS,
                Call(
                    "POST",
                    "volumes",
                    lambda r: {
                        "project": FromContext("project_id"),
                        "volume_type": volume_type_of(r),
                        "base_snapshot": r.id,
                    },
                ),
                done="A volume is being created from {name} (Volumes view)",
                initial=lambda r: {"name": f"{r.name}-vol"},
                submit_label="Create",
            ),
        ),
        ActionSpec(
            "image",
            "Create an image from it…",
            lambda r: r.state == "available",
            shape=FormCall(
                "Image from {name}",
                Lazy(F + "ImageFromSnapshotForm"),
                Call("POST", "images", lambda r: {"root_volume": r.id, "project": FromContext("project_id")}),
                done="An image of {name} is being created (Images view)",
                initial=lambda r: {"name": f"{r.name}-image"},
                choices={"arch": [("x86_64", "x86_64"), ("arm64", "arm64"), ("arm", "arm")]},
                submit_label="Create",
            ),
        ),
        ActionSpec(
            "export",
            "Export to object storage…",
            lambda r: r.state == "available",
            shape=FormCall(
                "Export {name}",
                Lazy(F + "ExportForm"),
                Call("POST", "{id}/export"),
                done="Exporting {name} to {form.bucket}/{form.key}",
                initial=lambda r: {"key": f"{r.name}.qcow2"},
                submit_label="Export",
            ),
        ),
    ),
    create=Lazy(F + "SNAPSHOT_CREATE"),
    edit=Lazy(F + "NAMED_EDIT"),
)

IMAGES = instance_kind(
    id="instance.images",
    singular="image",
    writing=Writing(
        refuses=Refuses(
            delete=lambda r: "it is a public image of the marketplace" if r.get("public") else None,
            edit=lambda r: "it is a public image of the marketplace" if r.get("public") else None,
        ),
    ),
    fields=(
        ID,
        Field("name", "Name", "name", width=30),
        Field("arch", "Arch", width=7),
        Field("state", "State", "state", width=12, tones=TONES),
        Field("public", "Public", "flag", width=6, blank="no"),
        Field("root_volume.size", "Root", "size", width=9, key="root", blank="?", detail=False),
        Field("root_volume.id", "Root volume", "ref", ref="instance.snapshots", named="root_volume.name"),
        Field("extra_volumes.*.id", "Extra volumes", "ref", ref="instance.snapshots", show=_extra_volumes),
        Field("from_server", "From server", "ref", ref="instance.servers"),
        *detail_common(),
    ),
    columns=("name", "arch", "state", "public", "root", "zone", "created"),
    rows=Rows(
        row_fields=(
            "id",
            "name",
            "arch",
            "state",
            "public",
            "root_volume",
            "zone",
            "creation_date",
            "modification_date",
            "tags",
            "from_server",
        )
    ),
    transitional=frozenset({"creating"}),
    create=Lazy(F + "IMAGE_CREATE"),
    edit=Lazy(F + "NAMED_EDIT"),
)
