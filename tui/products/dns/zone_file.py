"""A zone's records as a standard zone file (RFC 1035 master file): `$ORIGIN`, `$TTL`, then a line a
record — name relative to the zone (`@` the zone itself), TTL, class, type, data (an MX's or SRV's
priority before it). What the API sent is written as read, its control characters escaped."""

from __future__ import annotations

import re
from typing import Any, Iterable

from ...api.safe import clean

PRIORITISED = ("MX", "SRV")


def dump(rows: Iterable[Any], parent: Any) -> str:
    zone = str(getattr(parent, "name", "") or getattr(parent, "id", "")).rstrip(".")
    lines = [
        f"; {zone}: its records as listed, written by cloudtui",
        f"$ORIGIN {clean(ascii_name(zone))}.",
        "$TTL 3600",
    ]
    for row in rows:
        data = getattr(row, "data", None) or {}
        name = ascii_name(str(data.get("name") or "")) or "@"  # a zone file is ASCII: Punycode, as the API keeps it
        kind = str(data.get("type") or "")
        value = str(data.get("data") or "")
        priority = data.get("priority")
        if kind in PRIORITISED and priority not in (None, ""):  # SRV: priority weight port target
            value = f"{priority} {value}"
        if kind == "TXT" and not value.startswith('"'):  # one string, quoted (a ; in it is no comment)
            value = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
        line = " ".join(clean(str(part)) for part in (name, data.get("ttl") or 3600, "IN", kind, value))
        lines.append(line if holds(row) else f"; {line}  (not a standard record type: not in the file)")
    return "\n".join(lines) + "\n"


def ascii_name(name: str) -> str:
    """A name as a zone file holds it: each label not ASCII in Punycode (`bücher` → `xn--bcher-kva`)."""
    try:
        return ".".join(label if label.isascii() else label.encode("idna").decode("ascii") for label in name.split("."))
    except UnicodeError:
        return name


def holds(row: Any) -> bool:
    """Whether a zone file can hold the record (ALIAS, say, is the platform's own type: it cannot)."""
    import dns.rdatatype

    try:
        dns.rdatatype.from_text(str((getattr(row, "data", None) or {}).get("type") or ""))
    except (dns.rdatatype.UnknownRdatatype, ValueError):
        return False
    return True


def load(text: str, parent: Any) -> list[dict[str, Any]]:
    """The records a zone file holds, as a record is sent (name relative to the zone, "" for the zone
    itself; type; data; TTL; an MX's or SRV's priority apart), by dnspython's parser. The SOA is the
    platform's own: left out. A file that cannot be read is refused with the parser's reason."""
    import dns.exception
    import dns.name
    import dns.rdatatype
    import dns.zone

    from ..flows import Refused

    zone = str(getattr(parent, "name", "") or getattr(parent, "id", "")).rstrip(".")
    origin = dns.name.from_text(zone + ".")
    try:
        parsed = dns.zone.from_text(text, origin=origin, relativize=False, check_origin=False)
    except (dns.exception.DNSException, ValueError) as err:
        raise Refused(
            f"this is not a zone file of {zone} that can be read ({clean(_where(text, origin, err))}); "
            "nothing was staged"
        ) from None
    out: list[dict[str, Any]] = []
    for name, node in parsed.nodes.items():
        relative = name.relativize(origin).to_text()
        for rdataset in node.rdatasets:
            kind = dns.rdatatype.to_text(rdataset.rdtype)
            if kind == "SOA":
                continue
            for rdata in rdataset:
                text = rdata.to_text()
                if kind == "TXT":  # its strings as the platform keeps them: one text, unquoted
                    text = b"".join(rdata.strings).decode("utf-8", "replace")
                record: dict[str, Any] = {
                    "name": "" if relative == "@" else relative,
                    "type": kind,
                    "data": text,
                    "ttl": int(rdataset.ttl),
                }
                if kind in PRIORITISED:  # the platform keeps it apart from the data
                    first, _, rest = record["data"].partition(" ")
                    record["priority"], record["data"] = int(first), rest
                out.append(record)
    return out


def key(record: dict[str, Any]) -> tuple[Any, ...]:
    """What tells a record apart, read from a file or listed: name, type, data, TTL (an MX's or SRV's
    priority too). Records alike in all of them are one record."""
    kind = record.get("type")
    priority = int(record.get("priority") or 0) if kind in PRIORITISED else None
    return str(record.get("name") or ""), kind, str(record.get("data") or ""), int(record.get("ttl") or 0), priority


def _where(text: str, origin: Any, err: Exception) -> str:
    """The line a file could not be read at, and why, in the parser's words without its `<string>:N:`
    (which can name the line after). Each record line is read alone, with the `$` lines above it,
    until one fails; a record over several lines (parentheses) leaves the parser's own words."""
    import dns.exception
    import dns.zone

    reason = re.sub(r"^<string>:\d+:\s*", "", str(err))
    head: list[str] = []
    owner = "@"
    for n, line in enumerate(text.splitlines(), 1):
        bare = line.split(";", 1)[0].strip() if '"' not in line else line.strip()
        if not bare:
            continue
        if bare.startswith("$"):
            head.append(line)
            continue
        if "(" in bare or ")" in bare:
            return reason
        alone = f"{owner} {line.strip()}" if line[:1].isspace() else line  # a line that keeps the owner above
        owner = alone.split()[0]
        try:
            dns.zone.from_text("\n".join([*head, alone]) + "\n", origin=origin, relativize=False, check_origin=False)
        except (dns.exception.DNSException, ValueError) as alone_err:
            why = re.sub(r"^<string>:\d+:\s*", "", str(alone_err))
            return f"line {n}: {line.strip()[:60]}: {why}"
    return reason


def where(text: str, record: dict[str, Any]) -> str:
    """Where a record read stands in the file, as a refusal names it: `line 7: api 30 IN A 192.0.2.9`
    (its owner, type and first datum on one line); "" when no line can be told."""
    name, kind = str(record.get("name") or "@"), str(record.get("type") or "").upper()
    first = (str(record.get("data") or "").split() or [""])[0].strip('"').rstrip(".")
    owner = "@"
    for n, line in enumerate(text.splitlines(), 1):
        parts = line.split(";", 1)[0].split() if '"' not in line else line.split()
        if not parts or parts[0].startswith("$"):
            continue
        if not line[:1].isspace():
            owner = parts[0].rstrip(".")
        if (owner == name or owner.startswith(name + ".")) and kind in (p.upper() for p in parts) and first in line:
            return f"line {n}: {clean(line.strip())[:60]}"
    return ""
