"""What tells a record apart, read from a zone file or listed by the platform: its name, type and
what it answers (`key`). A record's TTL, and an MX's or SRV's priority, are not part of it: the
platform holds one record of a name, type and data, and a file that gives it another TTL changes it
(`~`), rather than adding a second one beside it (which the platform refuses).

What it answers is compared, not how it was written: an address as the `ipaddress` module writes
it, a host name in lower case and absolute (a name without its final dot is read against the zone, as
a zone file reads it: `mx1` in example.com is `mx1.example.com.`), a TXT record's strings (`txt`),
numbers as numbers and hex in lower case. Called for every row of a zone and every record of a file:
no pydantic, no dnspython."""

from __future__ import annotations

import ipaddress
import re
from typing import TYPE_CHECKING, Any

from .txt import strings

if TYPE_CHECKING:
    from ..kit.base import ParentRef

HOSTS = frozenset(("CNAME", "NS", "PTR", "MX", "ALIAS", "DNAME"))
CAA = re.compile(r'^\s*(\d+)\s+(\S+)\s+"?(.*?)"?\s*$', re.S)


def zone_of(parent: ParentRef | None) -> str:
    """The zone's name, lower case and without its final dot."""
    return str(getattr(parent, "name", "") or getattr(parent, "id", "") or "").rstrip(".").lower()


def key(record: dict[str, Any], parent: ParentRef | None) -> tuple[str, str, Any]:
    """(name, type, data as answered) of a record, in the zone `parent`."""
    kind = str(record.get("type") or "").upper()
    name = str(record.get("name") or "").rstrip(".").lower()
    return ("" if name == "@" else name), kind, answer(kind, str(record.get("data") or ""), zone_of(parent))


def answer(kind: str, data: str, zone: str) -> Any:
    """A record's data as what it answers, whatever way it was written (see the module's doc)."""
    if kind == "A":
        return data.strip()
    if kind == "TXT":
        return strings(data)
    if kind in HOSTS:
        return host(data, zone)
    parts = data.split()
    try:
        if kind == "AAAA":
            return str(ipaddress.ip_address(data.strip()))
        if kind == "SRV" and len(parts) == 3:
            return int(parts[0]), int(parts[1]), host(parts[2], zone)
        if kind == "TLSA" and len(parts) >= 4:
            return int(parts[0]), int(parts[1]), int(parts[2]), "".join(parts[3:]).lower()
        if kind == "CAA":
            m = CAA.match(data)
            if m:
                return int(m.group(1)), m.group(2).lower(), m.group(3)
    except ValueError:
        pass
    return " ".join(parts)


def host(name: str, zone: str) -> str:
    """A host name in record data, lower case and absolute, read against the zone when relative."""
    name = name.strip().lower()
    if name in ("@", ""):
        return zone + "."
    return name if name.endswith(".") else f"{name}.{zone}."
