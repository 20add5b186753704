"""The container registry's views (imports nothing: targets load on first open)."""

from __future__ import annotations

from ..manifest import Entry

SECTION = "Containers"
KINDS = "tui.products.container_registry.kinds:"

ENTRIES = (
    Entry(
        "registry.namespaces",
        "Namespaces",
        "Registry",
        "region",
        "list",
        KINDS + "NAMESPACES",
        title="Registry namespaces",
    ),
    Entry("registry.images", "Images", "Registry", "region", "list", KINDS + "IMAGES", title="Registry images"),
)

# The advisor's rules for this product (`products.kit.advice`), imported when the advisor opens.
ADVICE = "tui.products.container_registry.advice:RULES"
