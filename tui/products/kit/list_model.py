"""A list of one kind in one scope, as plain Python: its rows, totals and failures, the rows that move
or were followed after an act, its staged changes; listing, refreshing and polling, each returning
what changed (rows stored, rows gone).

A view shows a model (`ui.widgets.resource_view`): it gives the model its table as `shown` (a
`RowSink`), so every change to the rows here is drawn there; it runs the model's reads in its workers
and says what came of them. Nothing here imports Textual: a list's behaviour is tested against the
sandbox with no app (tests/unit/test_list_model.py).

Rows are held as shown: where the kind is edited as a change set (`writing.staged`), with the staged
changes laid over them (`overlaid`); rows staged as new have ids starting with "+" and are never read
from the API.
"""

from __future__ import annotations

import time
from dataclasses import field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Literal, Protocol

from ...api.errors import ApiError
from ...records import record
from .base import Row
from .changeset import ChangeSet
from .list_delta import delta, polled
from .refresh_plan import RefreshPlanner

if TYPE_CHECKING:
    from .base import ResourceKind
    from .service import ListChunk, ResourceService

FOLLOWED_FOR = 300.0  # seconds a row followed after an act of ours counts as newer than a listing's copy
Read = Literal["poll", "refresh", "list"]


class RowSink(Protocol):
    """Where a model's rows are shown (a view's table): told each change as it is made."""

    def upsert(self, rows: Iterable[Row], *, first: bool = False) -> None: ...

    def remove_rows(self, keys: Iterable[str]) -> None: ...

    def replace(self, rows: Iterable[Row]) -> None: ...

    def clear(self) -> None: ...


@record
class Change:
    """What one read (or one page of a listing) changed."""

    rows: list[Row] = field(default_factory=list)  # stored: new, or changed
    gone: list[str] = field(default_factory=list)  # ids no longer held
    whole: bool = False  # a listing's end: the rows held are exactly what it read
    failed: dict[str, ApiError] = field(default_factory=dict)  # scope -> why it could not be read
    errors: int = 0  # reads by id that failed otherwise (a poll: the next one reads them again)

    @property
    def ok(self) -> bool:
        return not self.failed and not self.errors


class ListModel:
    """One kind's rows in one scope ("all": every zone or region of it)."""

    def __init__(
        self,
        kind: ResourceKind,
        service: ResourceService,
        scope: str,
        *,
        planner: RefreshPlanner | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.kind, self.service, self.scope = kind, service, scope
        self.planner = planner or RefreshPlanner()
        self.clock = clock  # wall time, for when it was read (the status bar's "refreshed")
        self.changes: ChangeSet | None = ChangeSet() if kind.writing.staged is not None else None
        self.rows: dict[str, Row] = {}  # id -> row, in the API's order
        self.totals: dict[str, int] = {}  # scope -> the total the API tells
        self.failed: dict[str, ApiError] = {}  # scope -> why its last listing failed
        self.listing = False  # a full listing is under way
        self.last_refresh: float | None = None  # the last read that succeeded (wall time)
        self.last_attempt: float | None = None  # the last one tried, whatever came of it
        self.moving: set[str] = set()  # rows in a transitional state, or followed after an act: polled
        self.followed: dict[str, float] = {}  # id -> when an act of ours last followed it (monotonic)
        self.following: list[Row] = []  # rows to read again at once, in one poll
        self.then: dict[str, Any] = {}  # row id -> what runs on it once it settles (`ActionSpec.then`)
        self.released: tuple[set[str], str | None] | None = None  # given back: the marks and the cursor's row
        self.early: list[ListChunk] = []  # prefetched pages shown already, taken into the first listing
        self.shown: RowSink | None = None

    # ---- the rows -------------------------------------------------------------------------------
    def overlaid(self, rows: Iterable[Row]) -> Iterable[Row]:
        """Rows as they will be once the staged changes are sent."""
        if not self.changes:
            return rows
        return self.changes.overlay(rows, self.kind.row_maker(self.scope), self.kind.id_field)

    def put(self, rows: Iterable[Row], *, first: bool = False) -> Change:
        """Store rows (new ones last, or `first`: a list whose API shows the newest first)."""
        rows = list(rows)
        held, moving, transitional = self.rows, self.moving, self.kind.is_transitional
        new = [r.id for r in rows if r.id not in held] if first else []
        for row in rows:
            held[row.id] = row
            if transitional(row):
                moving.add(row.id)
            elif moving:
                moving.discard(row.id)
        if new:
            self.rows = {**{k: held[k] for k in new}, **held}
        if self.shown is not None:
            self.shown.upsert(rows, first=first)
        return Change(rows=rows)

    def drop(self, keys: Iterable[str]) -> Change:
        gone = [k for k in keys if self.rows.pop(k, None) is not None]
        for key in gone:
            self.moving.discard(key)
        if gone and self.shown is not None:
            self.shown.remove_rows(gone)
        return Change(gone=gone)

    def _hold(self, rows: list[Row]) -> list[str]:
        """Hold exactly these rows, in this order; the ids no longer held. A row held as it was keeps
        whether it moves (one followed after an act); one read anew moves when its state is transitional."""
        old, new = self.rows, {r.id: r for r in rows}
        gone = [k for k in old if k not in new]
        transitional = self.kind.is_transitional
        moving = {k for k in self.moving if k in new and new[k] is old.get(k)}
        moving.update(r.id for r in rows if r is not old.get(r.id) and transitional(r))
        self.rows, self.moving = new, moving
        if self.shown is not None:
            self.shown.replace(rows)
        return gone

    def clear(self) -> None:
        self.rows, self.moving = {}, set()
        if self.shown is not None:
            self.shown.clear()

    def moving_rows(self) -> list[Row]:
        return [self.rows[k] for k in self.moving if k in self.rows][: self.planner.policy.max_polls]

    def listed_rows(self) -> list[Row]:
        """The rows the API lists (those staged as new left out)."""
        staged = self.changes is not None
        return [r for r in self.rows.values() if not (staged and r.id.startswith("+"))]

    def set_scope(self, scope: str) -> None:
        self.scope = scope
        self.totals, self.failed = {}, {}
        self.clear()

    # ---- memory ---------------------------------------------------------------------------------
    def releasable(self) -> bool:
        """Whether its rows can be given back: not while it holds what would be lost or is at work
        (changes staged, rows moving, a listing under way)."""
        return bool(self.rows) and self.released is None and not self.changes and not self.moving and not self.listing

    def release(self, marked: set[str], cursor: str | None) -> None:
        """Give the rows back; what a return needs is kept (the rows marked, the cursor's, the totals)."""
        self.released = (marked, cursor)
        self.clear()

    # ---- reads ----------------------------------------------------------------------------------
    def take_early(self) -> Change:
        """The pages a prefetch already has (shown at once); the next listing takes them in."""
        self.early = self.service.take_prefetched(self.scope)
        return self.put([r for chunk in self.early for r in chunk.items])

    def _stamp(self, ok: bool) -> None:
        self.last_attempt = self.clock()
        if ok:
            self.last_refresh = self.last_attempt

    async def list_all(self, each: Callable[[Change], None] | None = None) -> Change:
        """Every row again, each page stored as it arrives (`each` told of it, and once before the
        first). Rows of scopes that failed are kept: partial results stay. A row followed after this
        listing began keeps our copy: the listing's was read before the act (a stale "ready" put back
        over "pausing" stopped the polls)."""
        began = time.monotonic()
        seen: dict[str, Row] = {}
        totals: dict[str, int] = {}
        failed: dict[str, ApiError] = {}
        early, self.early = self.early, []

        def take(chunk: ListChunk, shown: bool = False) -> None:
            if chunk.error is not None:
                failed[chunk.scope] = chunk.error
            if chunk.total is not None:
                totals[chunk.scope] = chunk.total
            if not chunk.items:
                return
            items = chunk.items
            followed = self.followed
            if followed and self.changes is None:
                items = [self.rows.get(r.id) or r if followed.get(r.id, 0.0) > began else r for r in items]
            for r in items:
                seen[r.id] = r
            self.totals = totals
            if not shown:
                change = self.put(self.overlaid(items))
                if each is not None:
                    each(change)

        self.listing = True
        try:
            if each is not None:
                each(Change())  # under way: said before the first page
            for chunk in early:
                take(chunk, shown=True)
            async for chunk in self.service.iter_list(self.scope):
                take(chunk)
            for rid, r in self.rows.items():  # the rows of scopes that failed stay
                if rid not in seen and self.kind.scope_of(r) in failed:
                    seen[rid] = r
            rows = list(self.overlaid(list(seen.values())))
            gone = self._hold(rows)
        except Exception:  # a bug, not an API failure (those come as chunks): the caller says so
            self.last_attempt = self.clock()
            raise
        finally:
            self.listing = False
        self.totals, self.failed = totals, failed
        self._stamp(not failed)
        self.planner.listed()
        return Change(rows=rows, gone=gone, whole=True, failed=failed)

    async def refresh(self) -> Change | None:
        """What changed since the rows held were read, reading as little as that needs (`list_delta`);
        None when only listing everything again can tell."""
        try:
            found = await delta(self.service, self.scope, self.listed_rows())
        except ApiError as err:
            self._stamp(False)
            return Change(failed={self.scope: err})
        if found is None:
            return None
        change = Change()
        if found.fresh:  # one made elsewhere goes where the API lists it: first, where the newest come first
            change.rows = self.put(self.overlaid(found.fresh), first=self.kind.reading.order.newest_first).rows
        if found.gone:
            change.gone = self.drop(found.gone).gone
        self.totals.update(found.totals)
        self._stamp(True)
        return change

    async def poll(self, rows: list[Row]) -> Change:
        """Each of `rows` read again by id (those staged as new left out): as they are now, or gone."""
        staged = self.changes is not None
        found = await polled(self.service, self.scope, [r for r in rows if not (staged and r.id.startswith("+"))])
        change = Change(errors=len(found.errors))
        for sc, gone in found.gone.items():
            dropped = self.drop(gone).gone  # (one already dropped, by a poll before this one, counts once)
            change.gone += dropped
            if sc in self.totals:
                self.totals[sc] = max(0, self.totals[sc] - len(dropped))
        if found.fresh:
            change.rows = self.put(self.overlaid(found.fresh)).rows
        self._stamp(change.ok)
        return change

    # ---- what to read next ------------------------------------------------------------------------
    def plan(self, in_sight: bool) -> Read:
        """What the next tick reads: out of sight, only the rows moving (a poll, maybe of none); in
        sight, a poll of those moving between slow ticks, else what changed (a kind with a probe, but
        every row once `RefreshPolicy.whole` has passed), else every row."""
        moving, by_id = bool(self.moving), self.kind.reading.item.fetch
        if not in_sight:
            return "poll"
        if by_id and self.planner.plan(moving) == "poll":
            return "poll"
        if moving and not by_id:  # no GET by id: moving rows are seen by listing again
            return "list"
        if (
            self.kind.reading.probe is not None
            and not self.failed
            and not self.listing
            and not self.planner.whole_due()
        ):
            return "refresh"
        return "list"

    def follow(self, row: Row) -> Literal["list", "poll", "queued"]:
        """After a change of ours: the row read again at once and polled until it settles. "list":
        the kind has no GET by id, list again; "poll": poll `following` now; "queued": a poll of the
        rows followed is already asked for (an act on marked rows reads them in one poll)."""
        now = time.monotonic()
        self.followed = {k: t for k, t in self.followed.items() if now - t < FOLLOWED_FOR} | {row.id: now}
        self.planner.hurried()
        if row.id in self.rows:
            # Moving until a poll sees it settle: the next tick's poll (an exclusive worker) may cancel
            # this one before its answer is stored, and a row not moving was then never polled again.
            self.moving.add(row.id)
        if not self.kind.reading.item.fetch:
            return "list"
        self.following.append(row)
        return "poll" if len(self.following) == 1 else "queued"

    def take_following(self) -> list[Row]:
        rows, self.following = self.following, []
        return rows
