"""What points here, and what this points at, across products: read from what the kinds declare.

A kind's `ref` fields hold the IDs of another kind's resources (a flexible IP's server, a backup's
instance); its `ip` fields hold addresses (a server's public IPs, a backend's server IPs, a DNS
record's data). From one resource:
- what it points at: the resources its references name (named when their list was read);
- what points at it: every row read of every kind whose references name it, or whose addresses
  include one of its own (the load-balancer backend sending to its address, the DNS record naming it).
One pass over the rows the console holds (`held`); made off the UI thread. Kinds that could point
here but were not read yet are named (`unread`), so the operator can have them read.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Iterable

from ...records import record, replace

if TYPE_CHECKING:
    from .base import ParentRef, ResourceKind, Row
    from .declared import Field


@record(frozen=True)
class Link:
    points: str  # "at" (this resource points at it), "here" (it points at this one), "same" (an address both hold)
    kind_id: str  # the other resource's kind
    title: str  # that kind's title ("Servers"), or its id when its list was never read
    row_id: str
    name: str
    scope: str
    via: str  # the field that makes the link: "Server", "Backend server IPs", "Data"
    parent: ParentRef | None = None  # the parent a child kind's row was listed under
    read: bool = True  # False: a reference to a resource whose list was not read (its id only)


@record(frozen=True)
class Held:
    """The rows of one list the console read."""

    kind: ResourceKind
    scope: str
    parent: ParentRef | None
    rows: list[Any]


def _texts(values: Iterable[Any]) -> Iterable[str]:
    for v in values:
        if isinstance(v, (list, tuple)):
            yield from _texts(v)
        elif v is not None and v != "":
            yield str(v)


def addresses(kind: ResourceKind, row: Row) -> set[str]:
    """Every address a resource holds (its `ip` fields' values)."""
    return {t for f in address_fields(kind) for t in _texts(f.values(row))}


@functools.lru_cache(maxsize=None)
def address_fields(kind: ResourceKind) -> tuple[Field, ...]:
    """A kind's fields that hold addresses (worked out once a kind: the advisor reads them for every row)."""
    return tuple(f for f in kind.fields if f.has("ip") and f.path)


def related(kind: ResourceKind, row: Row, held: Iterable[Held], titles: dict[str, str] | None = None) -> list[Link]:
    """What `row` (of `kind`) points at, then what points at it; each other resource once, with every
    field that links them. `titles`: kinds' titles by id, for the kinds whose lists were not read."""
    held = list(held)
    out: list[Link] = []
    mine, my_id, my_scope = addresses(kind, row), str(row.id), kind.scope_of(row)
    by_kind: dict[str, dict[str, tuple[Any, Held]]] = {}

    def rows_of(kind_id: str) -> dict[str, tuple[Any, Held]]:
        """A kind's rows by id (a catalogue listed in every zone keys its rows `zone/name`)."""
        if kind_id not in by_kind:
            by_kind[kind_id] = {str(r.id): (r, h) for h in held if h.kind.id == kind_id for r in h.rows}
        return by_kind[kind_id]

    pointed: dict[tuple[str, str], Link] = {}
    for f in kind.fields:  # what it points at
        if not f.has("ref") or not f.path:
            continue
        for target_id in _texts(f.values(row)):
            found = rows_of(f.ref).get(f"{my_scope}/{target_id}") or rows_of(f.ref).get(target_id)
            if (f.ref, target_id) in pointed:
                continue
            if found is not None:
                other, h = found
                name = str(other.name or other.id)
                link = Link("at", f.ref, h.kind.title, str(other.id), name, _scope(h, other), f.title, h.parent)
            else:
                title = (titles or {}).get(f.ref, f.ref)
                link = Link("at", f.ref, title, target_id, f.name_of(row) or target_id, my_scope, f.title, read=False)
            pointed[(f.ref, target_id)] = link
    out.extend(pointed.values())
    seen: dict[tuple[str, str], int] = {}
    for h in held:  # what points at it
        refs = [f for f in h.kind.fields if f.has("ref") and f.ref == kind.id and f.path]
        ips = [f for f in h.kind.fields if f.has("ip") and f.path] if mine else []
        if not refs and not ips:
            continue
        for other in h.rows:
            if h.kind.id == kind.id and str(other.id) == my_id:
                continue
            for f in refs:
                if my_id in _texts(f.values(other)):
                    _add(out, seen, h, other, f.title)
            for f in ips:
                if mine.intersection(_texts(f.values(other))):
                    _add(out, seen, h, other, f.title, "same")
    return out


def _scope(h: Held, row: Row) -> str:
    return h.kind.scope_of(row) or h.scope


def _add(out: list[Link], seen: dict[tuple[str, str], int], h: Held, row: Row, via: str, points: str = "here") -> None:
    """A resource that points here, once: a second field linking it is said beside the first."""
    key = (h.kind.id, str(row.id))
    if key in seen:
        link = out[seen[key]]
        if via not in link.via.split(", "):
            out[seen[key]] = replace(link, via=f"{link.via}, {via}")
        return
    seen[key] = len(out)
    out.append(
        Link(points, h.kind.id, h.kind.title, str(row.id), str(row.name or row.id), _scope(h, row), via, h.parent)
    )


def unread(kind: ResourceKind, row: Row, kinds: Iterable[Any], read: set[str]) -> list[Any]:
    """The kinds that could point at this resource (a reference to its kind; an address field, when it
    has addresses) whose lists were not read."""
    has_addresses = bool(addresses(kind, row))
    out = []
    for k in kinds:
        if k.id in read:
            continue
        refs = any(f.has("ref") and f.ref == kind.id for f in k.fields)
        ips = has_addresses and any(f.has("ip") and f.path for f in k.fields)
        if refs or ips:
            out.append(k)
    return out
