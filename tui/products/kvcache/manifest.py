"""The key-value cache's views (imports nothing: targets load on first open)."""

from __future__ import annotations

from ..manifest import Entry

SECTION = "Data"

ENTRIES = (
    Entry(
        "kvcache.clusters",
        "Clusters",
        "Cache",
        "zone",
        "list",
        "tui.products.kvcache.clusters:CLUSTERS",
        title="Cache clusters",
    ),
    Entry(
        "kvcache.versions",
        "Versions",
        "Cache",
        "zone",
        "list",
        "tui.products.kvcache.catalogue:VERSIONS",
        title="Cache versions",
    ),
    Entry(
        "kvcache.node_types",
        "Node types",
        "Cache",
        "zone",
        "list",
        "tui.products.kvcache.catalogue:NODE_TYPES",
        title="Cache node types",
    ),
)

# The advisor's rules for this product (`products.kit.advice`), imported when the advisor opens.
ADVICE = "tui.products.kvcache.advice:RULES"
