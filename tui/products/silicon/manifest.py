"""The silicon-server product's views (imports nothing: targets load on first open)."""

from __future__ import annotations

from ..manifest import Entry

SECTION = "Compute"

ENTRIES = (
    Entry(
        "silicon.servers",
        "Servers",
        "Silicon",
        "zone",
        "list",
        "tui.products.silicon.servers:SERVERS",
        title="Silicon servers",
    ),
    Entry(
        "silicon.types",
        "Types",
        "Silicon",
        "zone",
        "list",
        "tui.products.silicon.catalogue:SERVER_TYPES",
        title="Silicon server types",
    ),
    Entry(
        "silicon.os",
        "OS",
        "Silicon",
        "zone",
        "list",
        "tui.products.silicon.catalogue:SYSTEMS",
        title="Silicon operating systems",
    ),
)
