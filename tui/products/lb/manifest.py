"""The load balancers' views (imports nothing: targets load on first open)."""

from __future__ import annotations

from ..manifest import Entry

SECTION = "Network"

ENTRIES = (
    Entry(
        "lb.lbs", "Balancers", "Load balancer", "region", "list", "tui.products.lb.kinds:LBS", title="Load balancers"
    ),
)

# The advisor's rules for this product (`products.kit.advice`), imported when the advisor opens.
ADVICE = "tui.products.lb.advice:RULES"
