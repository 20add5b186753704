"""The bare-metal flexible IPs' views (imports nothing: targets load on first open). They sit
under the "Bare metal" heading: they attach to bare-metal servers only."""

from __future__ import annotations

from ..manifest import Entry

SECTION = "Compute"

ENTRIES = (
    Entry(
        "flexible_ip.fips",
        "Flexible IPs",
        "Bare metal",
        "zone",
        "list",
        "tui.products.flexible_ip.fips:FIPS",
        title="Bare-metal flexible IPs",
    ),
)

# The advisor's rules for this product (`products.kit.advice`), imported when the advisor opens.
ADVICE = "tui.products.flexible_ip.advice:RULES"
