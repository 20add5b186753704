"""What the advisor looks for in Instance (`products.kit.advice`): addresses and volumes billed while
attached to nothing, servers stopped in place (their compute still billed)."""

from __future__ import annotations

from ..kit.advice import InState, Unattached

RULES = (
    Unattached(
        "instance.ip-unattached",
        "A flexible IP attached to no server",
        "Paid for nothing",
        "warning",
        "instance.ips",
        fix="delete",
        field="server",
        what="billed, and used by nothing",
    ),
    Unattached(
        "instance.volume-unattached",
        "A volume attached to no server",
        "Paid for nothing",
        "warning",
        "instance.volumes",
        fix="delete",
        field="server",
        what="its storage billed, and used by nothing",
    ),
    InState(
        "instance.server-stopped-in-place",
        "A server stopped in place",
        "Paid for nothing",
        "warning",
        "instance.servers",
        fix="poweroff",
        states=frozenset({"stopped in place"}),
        what="its compute still billed: powered off, it is not",
    ),
)
