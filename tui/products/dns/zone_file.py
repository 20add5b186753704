"""A zone's records as a standard zone file (RFC 1035 master file): `$ORIGIN`, `$TTL`, then a line a
record — name relative to the zone (`@` the zone itself), TTL, class, type, data (an MX's or SRV's
priority before it; a TXT record's strings each quoted, in ASCII). What the API sent is written as
read, its control characters escaped.

A record the file cannot hold — a dynamic answer (geo-IP, HTTP-checked, weighted, views: the file
would say only its plain data) and the platform's own ALIAS — is written as a comment saying so, and
an import never stages it, nor a record of the file standing for it (`holds`).

Read back (`load`), the file gives records as the platform keeps them, each with its line
(`where`); it is refused whole, with the line at fault, when it cannot be read, makes more than
`zone_reading.LIMIT` records, holds a record outside the zone, a CNAME beside another record, or two
records of a name, type and data that differ otherwise (the platform holds one)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from ...api.safe import clean
from .identity import key, zone_of
from .txt import platform_text, zone_text

if TYPE_CHECKING:
    import dns.name

    from ..kit.base import ParentRef, Row
    from .zone_reading import Read

PRIORITISED = ("MX", "SRV")
DYNAMIC = {
    "geo_ip_config": "geo-IP",
    "http_service_config": "HTTP-checked",
    "weighted_config": "weighted",
    "view_config": "views",
}
LINE = "_line"  # the key of a record read holding the line it ends on


def dump(rows: Iterable[Row], parent: ParentRef | None) -> str:
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
        if kind == "TXT":  # its strings, quoted (a ; in one is no comment)
            value = zone_text(value)
        line = " ".join(clean(str(part)) for part in (name, data.get("ttl") or 3600, "IN", kind, value))
        why = cannot_hold(data)
        lines.append(f"; {line}  ({why}: not in the file)" if why else line)
    return "\n".join(lines) + "\n"


def ascii_name(name: str) -> str:
    """A name as a zone file holds it: each label not ASCII in Punycode (`bücher` → `xn--bcher-kva`)."""
    try:
        return ".".join(label if label.isascii() else label.encode("idna").decode("ascii") for label in name.split("."))
    except UnicodeError:
        return name


def cannot_hold(data: dict[str, Any]) -> str:
    """Why a zone file cannot hold the record ("" when it can): a dynamic answer, or a type of the
    platform's own (ALIAS)."""
    import dns.rdatatype

    for field, said in DYNAMIC.items():
        if data.get(field):
            return f"a dynamic answer ({said}), which a zone file cannot say"
    kind = str(data.get("type") or "")
    try:
        dns.rdatatype.from_text(kind)
    except (dns.rdatatype.UnknownRdatatype, ValueError):
        return f"{clean(kind) or 'no type'} is the platform's own type, not a standard one"
    return ""


def holds(row: Row) -> bool:
    """Whether a zone file can hold the record: an import deletes none it cannot."""
    return not cannot_hold(getattr(row, "data", None) or {})


def vital(row: Row) -> str | None:
    """What deleting the record takes away that deserves a word before the review: the zone's own
    name servers (its NS records at @), without which the zone is not served."""
    data = getattr(row, "data", None) or {}
    if data.get("type") == "NS" and not data.get("name"):
        return "the zone's own name servers (its NS records at @), without which it is not served"
    return None


def load(text: str, parent: ParentRef | None) -> list[dict[str, Any]]:
    """The records a zone file holds, as a record is sent (name relative to the zone, "" for the zone
    itself; type; data as the platform keeps it; TTL; an MX's or SRV's priority apart), each with the
    line it ends on (`LINE`), read by dnspython's reader (`zone_reading`). The SOA is the platform's
    own: left out. A file refused says why and where (`flows.Refused`)."""
    from ..kit.flows import Refused
    from .zone_reading import TooMany, Unreadable, read

    zone = zone_of(parent)
    try:
        records = read(text, zone)
    except TooMany as err:
        raise Refused(f"this file cannot be imported: {err}. Import it in parts; nothing was staged") from None
    except Unreadable as err:
        raise Refused(
            f"this is not a zone file of {zone} that can be read ({clean(str(err))}); nothing was staged"
        ) from None
    import dns.name

    origin = dns.name.from_text(zone + ".")
    problem = _outside(records, zone, origin)
    out = [r for r in (_record(one, origin) for one in records) if r is not None]
    out, twice = _once_each(text, out, parent)
    problem = problem or _beside(text, out) or twice
    if problem:
        raise Refused(f"{problem}; nothing was staged")
    return out


def _record(read: Read, origin: dns.name.Name) -> dict[str, Any] | None:
    """One record read, as the platform keeps it (None: the SOA, or a record outside the zone)."""
    import dns.rdatatype

    kind = dns.rdatatype.to_text(read.rdata.rdtype)
    if kind == "SOA" or not read.name.is_subdomain(origin):
        return None
    name = read.name.relativize(origin).to_text()
    rd: Any = read.rdata  # of the class its type makes (A, MX, SRV…): its fields are read by `kind` below
    record: dict[str, Any] = {"name": "" if name == "@" else name, "type": kind, "ttl": read.ttl, LINE: read.line}
    if kind in ("A", "AAAA"):
        record["data"] = rd.address
    elif kind == "TXT":
        record["data"] = platform_text(tuple(rd.strings))
    elif kind == "MX":
        record["priority"], record["data"] = int(rd.preference), rd.exchange.to_text()
    elif kind == "SRV":
        record["priority"], record["data"] = int(rd.priority), f"{rd.weight} {rd.port} {rd.target.to_text()}"
    elif kind == "TLSA":  # one hex string, as the platform takes it (dnspython cuts it every 128)
        record["data"] = f"{rd.usage} {rd.selector} {rd.mtype} {rd.cert.hex()}"
    else:
        record["data"] = rd.to_text()
    return record


def _outside(records: list[Read], zone: str, origin: dns.name.Name) -> str:
    """A record whose name is not in the zone (a `$ORIGIN` elsewhere, a full name of another zone),
    said with its line: nothing of the file is imported, rather than that record dropped unsaid."""
    gone = [r for r in records if not r.name.is_subdomain(origin)]
    if not gone:
        return ""
    more = f" (and {len(gone) - 1} more)" if len(gone) > 1 else ""
    return (
        f"line {gone[0].line}: {clean(gone[0].name.to_text())} is not in {zone}{more}: a zone file of {zone} "
        "holds only names within it (look at its $ORIGIN lines)"
    )


def _beside(text: str, records: list[dict[str, Any]]) -> str:
    """A CNAME beside another record of its name (RFC 1034 §3.6.2), said with both lines."""
    first: dict[str, dict[str, Any]] = {}
    cname: dict[str, dict[str, Any]] = {}
    for r in records:
        name = r["name"].lower()
        if r["type"] == "CNAME":
            cname.setdefault(name, r)
        else:
            first.setdefault(name, r)
    for name, c in cname.items():
        other = first.get(name)
        if other is not None:
            return (
                f"{where(text, c)}: a CNAME stands alone at its name, and {where(text, other)} is at "
                f"{clean(name or '@')} too"
            )
    return ""


def _once_each(text: str, records: list[dict[str, Any]], parent: ParentRef | None) -> tuple[list[dict[str, Any]], str]:
    """The records, each once (records the same in all are one record, as in DNS), and what is wrong
    when two of one name, type and data differ in TTL or priority: the platform holds one."""
    seen: dict[Any, dict[str, Any]] = {}
    for r in records:
        had = seen.setdefault(key(r, parent), r)
        if had is not r and (had["ttl"], had.get("priority")) != (r["ttl"], r.get("priority")):
            return [], (
                f"{where(text, r)}: {where(text, had)} gives the same record ({clean(r['type'])} of the same name "
                "and data) another TTL or priority; a zone holds it once"
            )
    return list(seen.values()), ""


def where(text: str, record: dict[str, Any]) -> str:
    """Where a record read stands in the file, as a refusal names it: `line 7: api 30 IN A 192.0.2.9`
    (its first line, when it spans several); "" when it has no line."""
    end = record.get(LINE)
    lines = text.splitlines()
    if not isinstance(end, int) or not 0 < end <= len(lines):
        return ""
    from .zone_reading import code

    start = end
    depth = code(lines[end - 1]).count(")") - code(lines[end - 1]).count("(")
    while depth > 0 and start > 1:  # a record in parentheses: from the line they open on
        start -= 1
        depth += code(lines[start - 1]).count(")") - code(lines[start - 1]).count("(")
    return f"line {start}: {clean(lines[start - 1].strip())[:60]}"
