"""What the advisor looks for in Instance (`products.kit.advice`): security-group rules letting every
address in on SSH, RDP or a database's port; addresses and volumes billed while attached to nothing,
servers stopped in place (their compute still billed)."""

from __future__ import annotations

from ..kit.advice import InState, OpenToWorld, Unattached

RULES = (
    OpenToWorld(
        "instance.rule-open-to-world",
        "A security-group rule open to every address on an admin or database port",
        "Open doors",
        "error",
        "instance.security_group_rules",
        field="range",
        ports=frozenset({22, 3389, 3306, 5432, 6379, 27017}),
        port_from="from",
        port_to="to",
        where=(("direction", frozenset({"inbound"})), ("action", frozenset({"accept"}))),
        what="accepted from every address (0.0.0.0/0)",
    ),
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
