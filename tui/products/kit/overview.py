"""The account at a glance (issue 52, item 1): from the rows the console has read (the index's `Held`
lists, the same `F` fills), how many resources each list holds in each zone or region, by state, and
each state's tone (good, busy, bad, alarm, other) as its kind declares it. One pass, linear in the rows,
run off the UI thread; no Textual and no product named here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from ...records import record
from .format import COMMON, Tones
from .location import ALL

if TYPE_CHECKING:
    from .base import ResourceKind
    from .related import Held

TONES = ("alarm", "bad", "busy", "other", "good")  # the order states are said in: what needs someone first


@record
class Tally:
    """One list in one zone or region: its resources, how many in each state (most urgent tone first),
    and the tone of each state."""

    kind: ResourceKind
    scope: str
    total: int = 0
    states: dict[str, int] | None = None  # state → count; None for a kind without states
    tones: dict[str, str] | None = None  # state → its tone

    def ordered(self) -> list[tuple[str, int, str]]:
        """(state, count, tone), the most urgent tone first, then the most numerous."""
        states, tones = self.states or {}, self.tones or {}
        return sorted(((s, n, tones[s]) for s, n in states.items()), key=lambda t: (TONES.index(t[2]), -t[1], t[0]))

    def needing(self) -> int:
        """How many of its resources are in a bad state, or an alarm's."""
        return sum(n for _, n, tone in self.ordered() if tone in ("bad", "alarm"))


def tones_of(kind: ResourceKind) -> Tones | None:
    """The tones of a kind's state, as its state field declares them; None when it has no state."""
    field = next((f for f in kind.fields if f.has("state") and f.path), None)
    if field is None:
        return None
    return field.tones or COMMON


def held_by_account(kind: ResourceKind) -> bool:
    """Whether a list holds what the account holds, not what the platform offers (a catalogue: types,
    engines, versions): something in it can be made, changed or deleted from here."""
    if kind.reading.per_scope or kind.singleton is not None:
        return False
    writes = (kind.create, kind.edit, kind.delete, kind.writing.deleting.flow)
    return any(w is not None for w in writes) or any(a.mutating for a in kind.actions)


def tally(held: Iterable[Held]) -> list[Tally]:
    """Every list read, by zone or region (a list read for every zone is told apart by its rows' own), in
    the order read; left out: a child list (a zone's records: counted where its parent is) and a catalogue
    (what the platform offers, not what the account holds)."""
    out: dict[tuple[str, str], Tally] = {}
    seen: set[tuple[str, str]] = set()  # a resource in two lists read (its zone's, open; every zone's, by F): once
    for part in held:
        kind = part.kind
        if part.parent is not None or not held_by_account(kind):
            continue
        tones = tones_of(kind)
        for row in part.rows:
            if (kind.id, row.id) in seen:
                continue
            seen.add((kind.id, row.id))
            scope = (kind.scope_of(row) if part.scope == ALL else "") or part.scope
            found = out.get((kind.id, scope))
            if found is None:
                found = out[(kind.id, scope)] = Tally(
                    kind, scope, states={} if tones else None, tones={} if tones else None
                )
            found.total += 1
            if tones is not None and found.states is not None and found.tones is not None:
                state = str(row.state or "unknown")
                found.states[state] = found.states.get(state, 0) + 1
                if state not in found.tones:
                    found.tones[state] = tones.of(state)
    return list(out.values())
