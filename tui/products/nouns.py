"""A kind's names made from its one noun, by English's regular rules (a kind whose title is not its
noun's plural says its title)."""

from __future__ import annotations


def plural(noun: str) -> str:
    """'server' → 'servers', 'IP address' → 'IP addresses', 'policy' → 'policies'."""
    if noun.endswith(("s", "x", "z", "sh", "ch")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        return noun[:-1] + "ies"
    return noun + "s"


def title_of(noun: str) -> str:
    """A list's title from its noun: 'security group' → 'Security groups' (an acronym kept: 'ACL rules')."""
    many = plural(noun)
    return many[:1].upper() + many[1:]
