"""DNS's views (imports nothing: targets load on first open)."""

from __future__ import annotations

from ..manifest import Entry

SECTION = "Network"
KINDS = "tui.products.dns.kinds:"

ENTRIES = (
    Entry("dns.zones", "Zones", "DNS", "global", "list", KINDS + "ZONES", title="DNS zones"),
    Entry("dns.domains", "Domains", "DNS", "global", "list", KINDS + "DOMAINS", title="DNS domains"),
)

# The advisor's rules for this product (`products.kit.advice`), imported when the advisor opens.
ADVICE = "tui.products.dns.advice:RULES"
