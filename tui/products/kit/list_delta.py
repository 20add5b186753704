"""What changed in a list since it was read, reading as little as the change needs (no Textual).

For a kind with a change probe (Instance servers: ordered by modification date), each scope is asked
for the rows changed since the marks held — the newest change alone first, one row when nothing
changed (`ResourceService.changes_since`). The total it tells says what else happened: as many rows
as held and made since, nothing more; fewer, rows deleted elsewhere, found by a search over positions
(`ResourceService.gone_since`); more, rows made deep in the list that the probe cannot place. Where
that cannot be told, the answer is None: list everything again.

Rows that move (started, being deleted) are read again by id instead (`polled`): each answers with
itself, or 404 when it is gone.

The first part of a list's model drawn out of its widget: a view hands it the rows it holds, in the
list's order, and applies what comes back.
"""

from __future__ import annotations

import asyncio
from dataclasses import field
from typing import TYPE_CHECKING

from ...api.errors import NotFound
from ...records import record
from .base import ALL, Row

if TYPE_CHECKING:
    from .service import ResourceService


@record
class Delta:
    fresh: list[Row] = field(default_factory=list)  # rows made or changed since, as the probe read them
    gone: list[str] = field(default_factory=list)  # ids no longer listed
    totals: dict[str, int] = field(default_factory=dict)  # each scope's total now


async def delta(service: ResourceService, scope: str, held: list[Row]) -> Delta | None:
    """What changed in `scope` ("all": each of its scopes) since `held` (the rows held, in the list's
    order, none staged) was read; None when listing everything again is the answer. An ApiError of a
    request is raised as it is."""
    kind = service.kind
    probe = kind.reading.probe
    if probe is None:
        return None
    by_scope: dict[str, list[Row]] = {sc: [] for sc in service.scopes_for(scope)}
    for row in held:
        rows = by_scope.get(scope if scope != ALL else kind.scope_of(row))
        if rows is not None:
            rows.append(row)
    results = await asyncio.gather(
        *(service.changes_since(sc, {r.id: r.data.get(probe.field) for r in rows}) for sc, rows in by_scope.items())
    )
    found = Delta()
    for (sc, rows), result in zip(by_scope.items(), results):
        if result is None or result.total is None:
            return None
        ids = [r.id for r in rows]
        known = set(ids)
        made = [r.id for r in result.rows if r.id not in known]
        count = len(ids) + len(made)
        if result.total < count:  # deleted elsewhere: where a made one goes is where the API lists it
            order = made + ids if kind.reading.order.newest_first else ids + made
            gone = await service.gone_since(sc, order, result.total)
            if gone is None:
                return None
            found.gone.extend(gone)
            count -= len(gone)
        if result.total != count:  # too much changed, or made deep in the list
            return None
        found.fresh.extend(result.rows)
        found.totals[sc] = result.total
    return found


@record
class Polled:
    fresh: list[Row] = field(default_factory=list)  # the rows as they are now
    gone: dict[str, list[str]] = field(default_factory=dict)  # scope -> the ids answered 404
    errors: list[BaseException] = field(default_factory=list)  # the reads that failed otherwise


async def polled(service: ResourceService, scope: str, rows: list[Row]) -> Polled:
    """Each of `rows` read again by id, at once (in its own scope when `scope` is "all")."""
    kind = service.kind
    scopes = [kind.scope_of(r) or scope for r in rows]
    answers = await asyncio.gather(*(service.get_row(sc, r.id) for sc, r in zip(scopes, rows)), return_exceptions=True)
    found = Polled()
    for sc, row, answer in zip(scopes, rows, answers):
        if isinstance(answer, NotFound):
            found.gone.setdefault(sc, []).append(row.id)
        elif isinstance(answer, BaseException):  # (the next tick reads it again)
            found.errors.append(answer)
        else:
            found.fresh.append(answer)
    return found
