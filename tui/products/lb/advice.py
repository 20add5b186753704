"""What the advisor looks for in load balancers (`products.kit.advice`): backends sending to addresses no
resource read holds, or to stopped servers; a load balancer not highly available (its two instances not
both ready)."""

from __future__ import annotations

from ..dns.advice import HOLDERS
from typing import TYPE_CHECKING

from ..kit.advice import PointsAtState, Tested, UnheldAddress
from .kinds import availability

if TYPE_CHECKING:
    from ..kit.base import Row


def not_highly_available(row: Row) -> str | None:
    """Why a ready load balancer is not highly available (one of its two instances not ready), or None
    (highly available, or itself not ready: its state says so)."""
    if row.state not in ("", "ready"):
        return None
    tone, words = availability(row.raw)
    if tone == "good":
        return None
    said = words.removeprefix("no: ")
    return f"not highly available ({said}): its two instances are not both ready, so one failure stops it"


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
    Tested(
        "lb.not-highly-available",
        "A load balancer not highly available",
        "Soon broken",
        "warning",
        "lb.lbs",
        test=not_highly_available,
        reads=("state",),
    ),
)
