"""Instance snapshots and images, as listed and acted on. Forms and flows: `snapshot_forms`."""

from __future__ import annotations

from typing import Any

from ..base import ActionSpec, Call, Column, Lazy
from ..location import FromContext
from ..shapes import FormCall
from ..format import human_bytes
from .common import DELETE_BY_ID, created_col, detail_common, instance_kind, name_col, raw, size_col, state_col, zone_col

F = "tui.products.instance.snapshot_forms:"
NAME_TAGS = Lazy("tui.products.instance.fields:NameTagsForm")


def volume_type_of(snapshot: Any) -> str:
    """The type of a volume made from a snapshot: an sbs snapshot makes an sbs volume."""
    kind = snapshot.text("volume_type")
    return {"sbs_snapshot": "sbs_volume"}.get(kind, kind)

SNAPSHOTS = instance_kind(
    id="instance.snapshots",
    title="Snapshots",
    singular="snapshot",
    delete=DELETE_BY_ID,
    delete_needs_name=True,  # data lost: the name is typed
    name_param="name",
    collection="snapshots",
    list_key="snapshots",
    item_key="snapshot",
    columns=(
        name_col(24),
        Column("type", "Type", lambda r: r.text("volume_type"), width=12),
        size_col(),
        state_col(14),
        Column("volume", "From volume", lambda r: r.obj("base_volume").get("name") or "—", width=18),
        zone_col(),
        created_col(),
    ),
    row_fields=("id", "name", "volume_type", "size", "state", "base_volume", "zone", "creation_date", "modification_date", "tags"),
    detail_fields=(
        ("ID", raw("id")),
        ("Name", raw("name")),
        ("Type", raw("volume_type")),
        ("Size", lambda s: human_bytes(s.raw.get("size"))),
        ("State", raw("state")),
        ("From volume", raw("base_volume")),
        ("Error", raw("error_reason")),
        *detail_common(),
    ),
    transitional=frozenset({"snapshotting", "importing", "exporting"}),
    actions=(
        ActionSpec("volume", "Create a volume from it…", lambda r: r.state == "available", shape=FormCall(
            "New volume from {name}", NAME_TAGS, Call("POST", "volumes", lambda r: {"project": FromContext("project_id"), "volume_type": volume_type_of(r), "base_snapshot": r.id}),
            done="A volume is being created from {name} (Volumes view)", initial=lambda r: {"name": f"{r.name}-vol"}, submit_label="Create")),
        ActionSpec("image", "Create an image from it…", lambda r: r.state == "available", shape=FormCall(
            "Image from {name}", Lazy(F + "ImageFromSnapshotForm"), Call("POST", "images", lambda r: {"root_volume": r.id, "project": FromContext("project_id")}),
            done="An image of {name} is being created (Images view)", initial=lambda r: {"name": f"{r.name}-image"},
            choices={"arch": [("x86_64", "x86_64"), ("arm64", "arm64"), ("arm", "arm")]}, submit_label="Create")),
        ActionSpec("export", "Export to object storage…", lambda r: r.state == "available", shape=FormCall(
            "Export {name}", Lazy(F + "ExportForm"), Call("POST", "{id}/export"), done="Exporting {name} to {form.bucket}/{form.key}",
            initial=lambda r: {"key": f"{r.name}.qcow2"}, submit_label="Export")),
    ),
    create=Lazy(F + "SNAPSHOT_CREATE"),
    edit=Lazy(F + "NAMED_EDIT"),
)

IMAGES = instance_kind(
    id="instance.images",
    title="Images",
    singular="image",
    delete=DELETE_BY_ID,
    name_param="name",
    collection="images",
    list_key="images",
    item_key="image",
    columns=(
        name_col(30),
        Column("arch", "Arch", lambda r: r.text("arch"), width=7),
        state_col(12),
        Column("public", "Public", lambda r: "yes" if r.get("public") else "no", width=6),
        Column("root", "Root", lambda r: human_bytes(r.obj("root_volume").get("size")), width=9),
        zone_col(),
        created_col(),
    ),
    row_fields=("id", "name", "arch", "state", "public", "root_volume", "zone", "creation_date", "modification_date", "tags", "from_server"),
    detail_fields=(
        ("ID", raw("id")),
        ("Name", raw("name")),
        ("Arch", raw("arch")),
        ("State", raw("state")),
        ("Public", raw("public")),
        ("Root volume", raw("root_volume")),
        ("Extra volumes", lambda s: ", ".join(f"{k}: {v.get('name')}" for k, v in (s.raw.get("extra_volumes") or {}).items()) or "none"),
        ("From server", raw("from_server")),
        *detail_common(),
    ),
    transitional=frozenset({"creating"}),
    create=Lazy(F + "IMAGE_CREATE"),
    edit=Lazy(F + "NAMED_EDIT"),
    deletable=lambda r: "it is a public image of the marketplace" if r.get("public") else None,
    editable=lambda r: "it is a public image of the marketplace" if r.get("public") else None,
)
