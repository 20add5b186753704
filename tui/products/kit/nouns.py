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


def one_of(word: str) -> str:
    """The singular of a plural word: 'servers' → 'server', 'policies' → 'policy', 'ips' → 'ip'."""
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    return word[:-1] if word.endswith("s") else word


def title_of(noun: str) -> str:
    """A list's title from its noun: 'security group' → 'Security groups' (an acronym kept: 'ACL rules')."""
    many = plural(noun)
    return many[:1].upper() + many[1:]


def in_text(title: str) -> str:
    """A title as running text reads it: 'Flexible IPs' → 'flexible IPs', 'DNS zones' kept (a word
    lowered only when capitalised alone, so an acronym stays as written)."""
    return " ".join(w.lower() if w[:1].isupper() and w[1:].islower() else w for w in title.split(" "))


def counted(n: int, noun: str) -> str:
    """'1 change', '2 changes': a count with its noun as English says it."""
    return f"{n:,} {noun if n == 1 else plural(noun)}"
