"""What each zone version changed: records added, changed and removed since the version before it,
shown beside its time in the list, menus and titles (a version's id says nothing to an operator).

The API gives a version's records (`GET /dns-zones/version/{id}`) and its diff against now, not
against the version before: counting costs the records of two versions. So only the newest
`COUNTED` versions are counted, a few reads at a time, and each count is kept: a version never
changes, so a refresh of the list reads nothing again. An older version says it was not counted."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..kit.base import Row
    from ..kit.service import ResourceService

COUNTED = 10  # the newest versions counted (each costs one read of its records, its predecessor's once)
KEPT = 2_000  # counts kept, by version id (oldest forgotten first)
AT_ONCE = 4
COMPARED = ("name", "type", "data", "ttl", "priority", "comment")
_counts: dict[str, str] = {}


def changes(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> str:
    """ "+added ~changed −removed" between two versions' records, matched by record id."""
    before = {str(r.get("id")): r for r in old if isinstance(r, dict)}
    after = {str(r.get("id")): r for r in new if isinstance(r, dict)}
    added = sum(1 for rid in after if rid not in before)
    removed = sum(1 for rid in before if rid not in after)
    changed = sum(
        1 for rid, r in after.items() if rid in before and any(before[rid].get(f) != r.get(f) for f in COMPARED)
    )
    return f"+{added} ~{changed} −{removed}"


async def count_changes(service: ResourceService, scope: str, rows: list[Row]) -> None:
    """Each of the newest versions gets `changes` ("+1 ~0 −2") and its name its time and that; the
    oldest one listed has nothing to compare with; a read that fails leaves the count unsaid."""
    newest = sorted(rows, key=lambda r: r.text("created_at"), reverse=True)
    wanted = [(v, older) for v, older in zip(newest[:COUNTED], newest[1 : COUNTED + 1]) if v.id not in _counts]
    if wanted:
        gate = asyncio.Semaphore(AT_ONCE)
        records: dict[str, Any] = {}

        async def read(vid: str) -> None:
            async with gate:
                try:
                    records[vid] = await service.read_all(scope, "dns-zones", "version", vid, key="records")
                except Exception as err:  # a failed read: that count is left unsaid, the list still shows
                    records[vid] = err

        ids = {v.id for pair in wanted for v in pair}
        await asyncio.gather(*(read(vid) for vid in ids))
        for v, older in wanted:
            new, old = records.get(v.id), records.get(older.id)
            if isinstance(new, list) and isinstance(old, list):
                _counts[v.id] = changes(old, new)
        while len(_counts) > KEPT:
            del _counts[next(iter(_counts))]
    for position, v in enumerate(newest):
        if v.id in _counts:
            said = _counts[v.id]
        else:
            said = "first kept" if position == len(newest) - 1 else "" if position < COUNTED else "not counted"
        v.data["changes"] = said
        if said and said[0] == "+":
            v.name = v.data["name"] = f"{v.text('created_at')[:19].replace('T', ' ')} ({said})"
