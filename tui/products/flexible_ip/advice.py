"""What the advisor looks for in bare-metal flexible IPs (`products.kit.advice`): one attached to no server."""

from __future__ import annotations

from ..kit.advice import Unattached

RULES = (
    Unattached(
        "flexible_ip.unattached",
        "A bare-metal flexible IP attached to no server",
        "Paid for nothing",
        "warning",
        "flexible_ip.fips",
        fix="delete",
        field="server",
        what="billed, and used by nothing",
    ),
)
