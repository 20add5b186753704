"""Instance snapshots and images, as listed and acted on. Forms and flows: `snapshot_forms`."""

from __future__ import annotations

from ..base import ActionSpec, Column, Lazy, ResourceKind
from ..format import human_bytes
from .common import DELETE_BY_ID, API, RESOURCE, created_col, detail_common, name_col, raw, size_col, state_col, zone_col

F = "tui.products.instance.snapshot_forms:"

SNAPSHOTS = ResourceKind(
    id="instance.snapshots",
    product="Instance",
    title="Snapshots",
    singular="snapshot",
    api=API,
    scope_type="zone",
    paging="per_page",
    delete=DELETE_BY_ID,
    name_param="name",
    collection="snapshots",
    list_key="snapshots",
    item_key="snapshot",
    model=RESOURCE,
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
        ActionSpec("volume", "Create a volume from it…", lambda r: r.state == "available", flow=Lazy(F + "volume_from_snapshot_flow")),
        ActionSpec("image", "Create an image from it…", lambda r: r.state == "available", flow=Lazy(F + "image_from_snapshot_flow")),
        ActionSpec("export", "Export to object storage…", lambda r: r.state == "available", flow=Lazy(F + "export_flow")),
    ),
    create=Lazy(F + "SNAPSHOT_CREATE"),
    edit=Lazy(F + "NAMED_EDIT"),
)

IMAGES = ResourceKind(
    id="instance.images",
    product="Instance",
    title="Images",
    singular="image",
    api=API,
    scope_type="zone",
    paging="per_page",
    delete=DELETE_BY_ID,
    name_param="name",
    collection="images",
    list_key="images",
    item_key="image",
    model=RESOURCE,
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
