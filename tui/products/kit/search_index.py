"""Find any resource the console holds, across products, zones and regions: by name, ID, IP address,
DNS name or tag, as each kind declares them (`declared.Field` roles `name`, `id`, `ip`, `tags`); a
child named under a parent whose name is a DNS name (a record "www" of the zone example.com) by its
full name too (www.example.com).

The index is made of the rows the lists loaded, one part per kind and scope, replaced when that list
is read again. A part is made off the UI thread (`part_of`: linear in its rows) and holds its rows'
searched values lower-cased in one string, so a search is `str.find` over it (C speed: 50,000 rows
answer within a frame), each row found once, the best first: a value typed whole, then one that
starts with it, then one that holds it; names before other values.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import TYPE_CHECKING, Any, Callable, Iterable

from ...records import record
from .declared import Field

if TYPE_CHECKING:
    from .base import ParentRef, ResourceKind

ROLES = ("name", "id", "ip", "tags")
_END = "\x1e"  # ends a row's values; a value never holds it (control characters are not searched)
_SEP = "\x1f"  # between a row's values


@record(frozen=True)
class Hit:
    """One resource found: where it is, what it is called and the value the search matched."""

    kind_id: str
    scope: str
    row_id: str
    name: str
    matched: str
    rank: int  # lower is better
    parent: ParentRef | None = None  # the parent a child kind's row was listed under (`ParentRef`), or None


@record(frozen=True)
class Part:
    kind_id: str
    scope: str
    text: str  # every row's searched values, lower-cased, each row's ended by _END
    starts: list[int]  # where each row's values start in `text`
    rows: list[tuple[str, str, str]]  # (row id, name, the row's own scope) per row
    parent: ParentRef | None = None  # a child kind's parent (`ParentRef`)

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.kind_id, self.scope, str(getattr(self.parent, "id", "")))


def searched_fields(fields: Iterable[Field]) -> list[Field]:
    """The fields a kind is found by: its names, IDs, addresses and tags (read, not computed)."""
    return [f for f in fields if f.path and any(f.has(r) for r in ROLES)]


def _texts(value: object) -> Iterable[str]:
    if isinstance(value, (list, tuple)):
        for v in value:
            yield from _texts(v)
    elif isinstance(value, dict):  # tags as a map
        for k, v in value.items():
            yield f"{k}={v}" if v not in (None, "") else str(k)
    elif value is not None and value != "":
        yield str(value)


def _plain(text: str) -> str:
    """A value as searched: lower-cased, without the characters that end or part the values."""
    return text.lower() if text.isprintable() else "".join(c for c in text if c >= " ").lower()


def part_of(
    kind: ResourceKind,
    scope: str,
    rows: Iterable[Any],
    parent: ParentRef | None = None,
    pause: Callable[[], None] | None = None,
) -> Part:
    """The searchable part of one list (run off the UI thread: it reads every row once; `pause()`, called
    every 1,000 rows, lets the UI thread have the interpreter meanwhile)."""
    fields = searched_fields(kind.fields)
    plain_paths = [f.path for f in fields if "." not in f.path]  # read straight from the row's data
    walked = [f for f in fields if "." in f.path]
    named = str(getattr(parent, "name", "") or "").lower().rstrip(".")
    under = named if "." in named and parent is not None else ""
    chunks: list[str] = []
    starts: list[int] = []
    found: list[tuple[str, str, str]] = []
    at = 0
    for n, row in enumerate(rows):
        if pause is not None and n % 1000 == 999:
            pause()
        data = row.data if isinstance(getattr(row, "data", None), dict) else getattr(row, "raw", {})
        found_values = [data.get(p) for p in plain_paths]
        found_values += [v for f in walked for v in f.values(data)]
        values = [_plain(v) if type(v) is str else _plain(t) for v in found_values if v for t in _texts(v)]
        values = [v for v in values if v]
        if under:  # a name under a DNS-named parent is found by its full name too ("www" of example.com)
            own = _plain(str(row.name or ""))
            if own and not own.endswith("."):
                values.append(under if own in ("@", under) else f"{own}.{under}")
        if not values:
            continue
        chunk = _SEP.join(values) + _END
        starts.append(at)
        chunks.append(chunk)
        at += len(chunk)
        found.append((str(row.id), str(row.name or row.id), kind.scope_of(row) or scope))
    return Part(kind.id, scope, "".join(chunks), starts, found, parent)


class SearchIndex:
    """Every part, by kind, scope and parent; a part replaced whole when its list is read again (a
    row listed both in every zone and in its own is found once)."""

    def __init__(self) -> None:
        self.parts: dict[tuple[str, str, str], Part] = {}

    def put(self, part: Part) -> None:
        self.parts[part.key] = part

    def forget(self, kind_id: str, scope: str, parent_id: str = "") -> None:
        self.parts.pop((kind_id, scope, parent_id), None)

    def __len__(self) -> int:
        return sum(len(p.rows) for p in self.parts.values())

    def search(self, typed: str, most: int = 40) -> list[Hit]:
        """The rows whose values hold `typed`, each once, best first; at most `most`, looked for among
        the first `4 × most` found (a search of one letter stays as fast as one of ten)."""
        query = _plain(typed.strip())
        if not query:
            return []
        hits: list[Hit] = []
        seen: set[tuple[str, str]] = set()
        budget = 4 * most
        for part in list(self.parts.values()):
            text, starts = part.text, part.starts
            pos = text.find(query)
            while pos != -1 and budget > 0:
                i = bisect_right(starts, pos) - 1
                end = starts[i + 1] if i + 1 < len(starts) else len(text)
                if (part.kind_id, part.rows[i][0]) not in seen:
                    seen.add((part.kind_id, part.rows[i][0]))
                    hits.append(_hit(part, i, text[starts[i] : end - 1], query))
                    budget -= 1
                pos = text.find(query, end)
            if budget <= 0:
                break
        hits.sort(key=lambda h: (h.rank, h.name.lower()))
        return hits[:most]


def _hit(part: Part, i: int, values: str, query: str) -> Hit:
    row_id, name, scope = part.rows[i]
    rank, matched = 9, ""
    for n, value in enumerate(values.split(_SEP)):
        if query not in value:
            continue
        how = 0 if value == query else 1 if value.startswith(query) else 2
        said = how * 2 + (0 if value == name.lower() or n == 0 else 1)
        if said < rank:
            rank, matched = said, value
    return Hit(part.kind_id, scope, row_id, name, matched, rank, part.parent)
