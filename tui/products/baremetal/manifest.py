"""The bare-metal product's views (imports nothing: targets load on first open)."""

from __future__ import annotations

from ..manifest import Entry

SECTION = "Compute"

ENTRIES = (
    Entry(
        "baremetal.servers",
        "Servers",
        "Bare metal",
        "zone",
        "list",
        "tui.products.baremetal.servers:SERVERS",
        title="Bare-metal servers",
    ),
    Entry(
        "baremetal.offers",
        "Offers",
        "Bare metal",
        "zone",
        "list",
        "tui.products.baremetal.catalogue:OFFERS",
        title="Bare-metal offers",
    ),
    Entry(
        "baremetal.os",
        "OS",
        "Bare metal",
        "zone",
        "list",
        "tui.products.baremetal.catalogue:SYSTEMS",
        title="Bare-metal operating systems",
    ),
)
