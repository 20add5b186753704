"""The silicon-server product's views (imports nothing: targets load on first open)."""

from __future__ import annotations

from ..manifest import Entry

SECTION = "Compute"

ENTRIES = (
    Entry("silicon.servers", "Servers", "Silicon", "zone", "list", "tui.products.silicon.servers:SERVERS", title="Silicon servers"),
)
