"""What the advisor looks for in load balancers (`products.kit.advice`): backends sending to addresses no
resource read holds, or to stopped servers."""

from __future__ import annotations

from ..dns.advice import HOLDERS
from ..kit.advice import PointsAtState, UnheldAddress

RULES = (
    UnheldAddress(
        "lb.backend-unheld-address",
        "A backend sending to an address nothing here holds",
        "Broken links",
        "warning",
        "lb.backends",
        field="pool",
        also=HOLDERS,
    ),
    PointsAtState(
        "lb.backend-stopped-server",
        "A backend sending to a stopped server",
        "Broken links",
        "warning",
        "lb.backends",
        field="pool",
        states=frozenset({"stopped", "stopped in place"}),
        also=("instance.servers",),
    ),
)
