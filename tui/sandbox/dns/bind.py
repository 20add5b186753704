"""Zone files in BIND format, for the raw import (`POST /dns-zones/{dns_zone}/raw`) and export
(`GET /dns-zones/{dns_zone}/raw`) the public clients call, and the records an import from another
provider (`import-provider`, `online_v1`) brings.

The parser reads what a zone export usually holds: `$ORIGIN`, `$TTL`, one record a line (a blank
owner repeats the previous one, `@` is the origin), optional TTL and class in either order,
comments, and parentheses spanning lines (the SOA, which is skipped: the platform writes its own).
Each record is then checked like a record of a PATCH; a refused line names its line number.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[^\s"]+')
CLASSES = ("IN", "CH", "HS")


def _strip_comment(line: str) -> str:
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"' and (i == 0 or line[i - 1] != "\\"):
            quoted = not quoted
        elif ch == ";" and not quoted:
            return line[:i]
    return line


def _logical_lines(content: str) -> list[tuple[int, str]]:
    """(first line number, text) with parenthesised continuations joined."""
    out, pending, start, depth = [], "", 0, 0
    for n, raw in enumerate(content.splitlines(), 1):
        line = _strip_comment(raw)
        if depth == 0:
            start, pending = n, line
        else:
            pending += " " + line
        depth += line.count("(") - line.count(")")
        if depth <= 0:
            depth = 0
            if pending.strip():
                out.append((start, pending.replace("(", " ").replace(")", " ")))
    return out


def _relative(owner: str, origin: str, zone: str) -> str:
    """An owner name relative to the zone ('' for its root)."""
    name = origin if owner == "@" else owner if owner.endswith(".") else f"{owner}.{origin}"
    name = name.lower().removesuffix(".")
    return "" if name == zone else name.removesuffix("." + zone) if name.endswith("." + zone) else name


def parse(content: str, zone: str) -> tuple[list[tuple[int, dict[str, Any]]], list[tuple[int, str]]]:
    """The records of a zone file as PATCH-style records with their line numbers, and the lines
    that are not records at all."""
    origin, default_ttl, owner = zone + ".", 3600, "@"
    records: list[tuple[int, dict[str, Any]]] = []
    bad: list[tuple[int, str]] = []
    for n, line in _logical_lines(content):
        tokens = TOKEN.findall(line)
        if not tokens:
            continue
        if tokens[0].upper() == "$TTL" and len(tokens) > 1 and tokens[1].isdigit():
            default_ttl = int(tokens[1])
            continue
        if tokens[0].upper() == "$ORIGIN" and len(tokens) > 1:
            origin = tokens[1] if tokens[1].endswith(".") else f"{tokens[1]}.{origin}"
            continue
        if line[:1] not in (" ", "\t"):
            owner = tokens.pop(0)
        ttl = default_ttl
        for _ in range(2):  # TTL and class, in either order
            if tokens and tokens[0].isdigit():
                ttl = int(tokens.pop(0))
            elif tokens and tokens[0].upper() in CLASSES:
                tokens.pop(0)
        if len(tokens) < 2:
            bad.append((n, "a record is 'name [ttl] [class] type data'"))
            continue
        rtype, rest = tokens[0].upper(), tokens[1:]
        if rtype == "SOA":
            continue
        rec: dict[str, Any] = {"name": _relative(owner, origin, zone), "type": rtype, "ttl": ttl}
        if rtype in ("MX", "SRV") and rest[0].isdigit() and len(rest) > 1:
            rec["priority"], rest = int(rest[0]), rest[1:]
        if rtype == "TXT":
            rec["data"] = "".join(t[1:-1] if t.startswith('"') else t for t in rest)
        else:
            rec["data"] = " ".join(rest)
        records.append((n, rec))
    return records, bad


def render(zone: str, records: list[dict[str, Any]], serial: int) -> str:
    """The zone's records as a zone file (a dynamic record exports its plain data)."""
    ns = next((r["data"] for r in records if r["name"] == "" and r["type"] == "NS"), "ns0.invalid.")
    lines = [f"$ORIGIN {zone}.", "$TTL 3600", f"@ 3600 IN SOA {ns} hostmaster.{zone}. {serial} 10800 3600 604800 3600"]
    for r in records:
        data = r["data"]
        if r["type"] == "TXT" and not data.startswith('"'):
            data = '"' + data.replace('"', '\\"') + '"'
        if r["type"] in ("MX", "SRV"):
            data = f"{r['priority']} {data}"
        lines.append(f"{r['name'] or '@'} {r['ttl']} IN {r['type']} {data}")
    return "\n".join(lines) + "\n"


def provider_records(zone: str, token: str) -> list[dict[str, Any]]:
    """What an import from the other provider brings (the same for the same token): its classic
    web and mail records."""
    h = hashlib.sha256(token.encode()).digest()
    return [
        {"name": "", "type": "A", "data": f"198.51.100.{h[0] % 250 + 1}", "ttl": 3600},
        {"name": "www", "type": "CNAME", "data": f"{zone}.", "ttl": 3600},
        {"name": "", "type": "MX", "data": "mx1.online.example.", "ttl": 3600, "priority": 10},
        {"name": "", "type": "MX", "data": "mx2.online.example.", "ttl": 3600, "priority": 20},
        {"name": "", "type": "TXT", "data": "v=spf1 include:_spf.online.example ~all", "ttl": 3600},
        {"name": "ftp", "type": "A", "data": f"198.51.100.{h[1] % 250 + 1}", "ttl": 3600},
    ]
