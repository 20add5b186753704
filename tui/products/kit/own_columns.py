"""Columns of the operator's own (issue 51, item 4): per list, which of its declared fields it shows, in
which order and how wide, as k9s's `views.yaml`. Kept in config.toml, for every profile or for one:

    [columns]
    "instance.servers" = ["name", "state", "zone", "private_ip:16", "ip", "created"]

    [profiles.prod.columns]
    "instance.servers" = ["name", "state", "ip"]

Each entry names a field by its key (the column's key, as `[[commands]]` placeholders do), `:N` a width
of N cells. A profile's own entry for a list wins over the one for all. A list's candidates are its own
columns and every declared field with a path; a row keeps what its columns read (`kept`, read by
`ResourceKind.row_maker`), so a field the list's rows leave out is kept once a column shows it.
Export and the detail pane are unchanged. No Textual here: the picker (`ui/screens/columns.py`) and the
list use it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from ...records import record, replace
from .declared import Column

if TYPE_CHECKING:
    from .base import ResourceKind

WIDEST = 60
NARROWEST = 3
_ENTRY = re.compile(r"([A-Za-z0-9_.*-]+)(?::(\d{1,3}))?")
# A field listed by no kind's columns is as wide as what it holds usually is.
_ROLE_WIDTH = {"time": 10, "ip": 15, "state": 16, "size": 8, "money": 10, "flag": 6, "count": 6, "place": 9,
               "id": 36, "ref": 20, "tags": 18, "name": 22}


@record(frozen=True)
class Chosen:
    """One column chosen: a field's key, and its width (None: the column's own)."""

    key: str
    width: int | None = None

    def __str__(self) -> str:
        return self.key if self.width is None else f"{self.key}:{self.width}"


def parse(value: Any, where: str) -> tuple[dict[str, tuple[Chosen, ...]], list[str]]:
    """A `[columns]` table read leniently: each list's entries it can use, and, one line a list, what is
    wrong with the others (an entry that is no key or no width, a key given twice: left out)."""
    if value is None:
        return {}, []
    if not isinstance(value, dict):
        return {}, [f"{where}: columns is {type(value).__name__}, not a table of lists"]
    out: dict[str, tuple[Chosen, ...]] = {}
    problems = []
    for kind_id, entries in value.items():
        if not isinstance(entries, list) or not all(isinstance(e, str) for e in entries):
            problems.append(f"{where}: columns.{kind_id} is not a list of field keys")
            continue
        if not entries:
            problems.append(f"{where}: columns.{kind_id} is empty (remove it for the list's own columns)")
            continue
        chosen: dict[str, Chosen] = {}
        wrong = []
        for entry in entries:
            found = _ENTRY.fullmatch(entry.strip())
            width = int(found.group(2)) if found and found.group(2) else None
            if found is None or (width is not None and not NARROWEST <= width <= WIDEST):
                wrong.append(f"{entry!r} is not a key or key:width ({NARROWEST}–{WIDEST})")
            elif found.group(1) in chosen:
                wrong.append(f"{found.group(1)} is given twice")
            else:
                chosen[found.group(1)] = Chosen(found.group(1), width)
        if wrong:
            problems.append(f"{where}: columns.{kind_id}: {'; '.join(wrong)} (left out)")
        if chosen:
            out[str(kind_id)] = tuple(chosen.values())
    return out, problems


def candidates(kind: ResourceKind) -> tuple[Column, ...]:
    """Every column the list can show: its own, in order, then each declared field with a path it lists
    not, titled as none of those is (as wide as its role usually is)."""
    own: tuple[Column, ...] = kind.columns  # type: ignore[assignment]  # (all Columns once the kind is made)
    keys, titles = {c.key for c in own}, {c.title for c in own}
    more = []
    for f in kind.fields:  # (one titled as a column already is the detail's own reading of it: not twice)
        if f.path and f.key not in keys and (f.head or f.title) not in titles:
            keys.add(f.key)
            titles.add(f.head or f.title)
            width = f.width or _ROLE_WIDTH.get(f.role, min(max(len(f.title) + 2, 12), 30))
            more.append(Column(f.key, f.head or f.title, f.cell, width=width, sort_key=f.sort_value, field=f))
    return (*own, *more)


def columns(kind: ResourceKind, chosen: Sequence[Chosen]) -> tuple[Column, ...]:
    """The columns `chosen` names, in its order and widths, the list's first (its name) first wherever it
    was put (a key the list has not is left out: it is said at start, `unknown`); the list's own when none
    is left."""
    by_key = {c.key: c for c in candidates(kind)}
    first = kind.columns[0].key  # type: ignore[union-attr]  # (all Columns once the kind is made)
    keys = list(dict.fromkeys(c.key for c in chosen if c.key in by_key))  # (a key given twice: once)
    keys.sort(key=lambda k: k != first)  # the name first: it stays in place when the list scrolls sideways
    widths = {c.key: c.width for c in chosen}
    out = tuple(replace(by_key[k], width=widths[k]) if widths[k] is not None else by_key[k] for k in keys)
    return out or kind.columns  # type: ignore[return-value]


def unknown(kind: ResourceKind, chosen: Sequence[Chosen]) -> list[str]:
    """The keys in `chosen` that name no column or field of the list."""
    keys = {c.key for c in candidates(kind)}
    return [c.key for c in chosen if c.key not in keys]


def reads(shown: Iterable[Column]) -> tuple[str, ...]:
    """The top-level keys of the objects that `shown` columns read (what a row must keep for them)."""
    return tuple(dict.fromkeys(c.field.path.split(".")[0] for c in shown if c.field is not None and c.field.path))


# ---- the columns in force, for the console's run -------------------------------------------------
# Set from the settings as the console starts or changes profile (`use`), as `times.NOW` is: a list reads
# its columns here, and `ResourceKind.row_maker` what its rows keep for them, from any thread.
_chosen: dict[str, tuple[Chosen, ...]] = {}
_kept: dict[str, tuple[str, ...]] = {}


def use(chosen: Mapping[str, Sequence[Chosen]]) -> None:
    """The columns chosen, by list (kind id), from now on."""
    _chosen.clear()
    _chosen.update({k: tuple(v) for k, v in chosen.items()})
    _kept.clear()


def chosen_for(kind_id: str) -> tuple[Chosen, ...]:
    return _chosen.get(kind_id, ())


def shown(kind: ResourceKind) -> tuple[Column, ...]:
    """The list's columns in force: the operator's, else its own."""
    chosen = _chosen.get(kind.id)
    return columns(kind, chosen) if chosen else kind.columns  # type: ignore[return-value]


def kept(kind: ResourceKind) -> tuple[str, ...]:
    """What the list's rows keep for the operator's columns beside the kind's own row fields (worked out
    once a list)."""
    if kind.id not in _chosen:
        return ()
    if kind.id not in _kept:
        _kept[kind.id] = reads(shown(kind))
    return _kept[kind.id]
