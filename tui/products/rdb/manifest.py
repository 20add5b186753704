"""The relational-database product's views (imports nothing: targets load on first open)."""

from __future__ import annotations

from ..manifest import Entry

SECTION = "Data"
KINDS = "tui.products.rdb."

ENTRIES = (
    Entry(
        "rdb.instances",
        "Instances",
        "Databases",
        "region",
        "list",
        KINDS + "instances:INSTANCES",
        title="Database instances",
    ),
    Entry("rdb.backups", "Backups", "Databases", "region", "list", KINDS + "backups:BACKUPS", title="Database backups"),
    Entry(
        "rdb.snapshots",
        "Snapshots",
        "Databases",
        "region",
        "list",
        KINDS + "backups:SNAPSHOTS",
        title="Database snapshots",
    ),
    Entry(
        "rdb.engines", "Engines", "Databases", "region", "list", KINDS + "catalogue:ENGINES", title="Database engines"
    ),
    Entry(
        "rdb.node_types",
        "Node types",
        "Databases",
        "region",
        "list",
        KINDS + "catalogue:NODE_TYPES",
        title="Database node types",
    ),
)

# The advisor's rules for this product (`products.kit.advice`), imported when the advisor opens.
ADVICE = "tui.products.rdb.advice:RULES"
