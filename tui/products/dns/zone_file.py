"""A zone's records as a standard zone file (RFC 1035 master file): `$ORIGIN`, `$TTL`, then a line a
record — name relative to the zone (`@` the zone itself), TTL, class, type, data (an MX's or SRV's
priority before it). What the API sent is written as read, its control characters escaped."""

from __future__ import annotations

from typing import Any, Iterable

from ...api.safe import clean
from .names import shown

PRIORITISED = ("MX", "SRV")


def dump(rows: Iterable[Any], parent: Any) -> str:
    zone = str(getattr(parent, "name", "") or getattr(parent, "id", "")).rstrip(".")
    lines = [
        f"; {zone}: its records as listed, written by cloudtui",
        f"$ORIGIN {clean(zone)}.",
        "$TTL 3600",
    ]
    for row in rows:
        data = getattr(row, "data", None) or {}
        name = shown(str(data.get("name") or "")) or "@"
        kind = str(data.get("type") or "")
        value = str(data.get("data") or "")
        priority = data.get("priority")
        if kind in PRIORITISED and priority not in (None, "") and not value.split(" ", 1)[0].isdigit():
            value = f"{priority} {value}"
        lines.append(" ".join(clean(str(part)) for part in (name, data.get("ttl") or 3600, "IN", kind, value)))
    return "\n".join(lines) + "\n"
