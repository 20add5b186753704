"""One resource kind in one scope: its table, its loading and refreshing, and what a user does to it.

All I/O runs in workers. Listing streams pages into the table as they arrive; "all zones" keeps
the zones that answered and names the ones that failed. A single one-shot timer is re-armed after
every fetch: fast polls (GET by id) for transitional resources, a slow re-list otherwise, nothing
while a modal is open or the view is hidden, the next at the normal interval after a failure (the
client paces what the API refused).
"""

from __future__ import annotations

import time
from typing import Any, Callable

from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message

from ...api.errors import ApiError, AuthenticationError
from ...products.base import ALL, Column, Context, ResourceKind
from ...products.service import ResourceService
from .. import collector
from ..errors import notify_error
from ..refresh import RefreshPlanner, RefreshPolicy
from ..refresher import Refresher
from ...products.changeset import ChangeSet
from .resource_actions import ResourceActions
from .resource_keys import LIST_KEYS, ResourceKeys
from .resource_table import ResourceTable
from .resource_changes import Writes
from .marked import Marked
from .staged import Staging
from .view_title import list_title

TITLE_EVERY = 0.5  # seconds between title updates while pages arrive (each repaints the table)
SHOWN_FRESH = 5.0  # seconds since its last read within which a list shown again is not read again


class ResourceView(ResourceKeys, ResourceActions, Vertical):
    BINDINGS = LIST_KEYS  # (resource_keys.py)

    class Refreshed(Message):
        def __init__(self, view: "ResourceView") -> None:
            super().__init__()
            self.view = view

    def __init__(
        self,
        kind: ResourceKind,
        service: ResourceService,
        scope: str,
        *,
        context: Callable[[str], Context],
        read_only: bool = False,
        policy: RefreshPolicy | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id, classes="resource-view")
        self.kind = kind
        self.service, self.scope, self.context, self.read_only = service, scope, context, read_only
        # Its parts: staged edits (kinds with `batch`), create/edit/delete, what acts on the marked rows.
        self.staged = Staging(self, ChangeSet() if kind.writing.batch is not None else None)
        self.writes, self.marks = Writes(self), Marked(self)
        self.refresher = Refresher(
            self,
            self._tick,
            policy=policy,
            moving=lambda: bool(self.table.watched),
            also_on_top=self._detail_on_top,
            out_of_sight=lambda: bool(self.kind.reading.fetch_detail and self.table.watched),
        )
        self.totals: dict[str, int] = {}
        self.failed: dict[str, ApiError] = {}
        self.listing = False  # a full listing is under way (not Widget.loading: that draws a spinner over the table)
        self.last_refresh: float | None = None  # the last refresh that succeeded (shown in the status bar)
        self.last_attempt: float | None = None  # the last one tried, whatever came of it
        self._early: list[Any] = []  # prefetched chunks shown at mount, taken into the first listing
        self._detail_ref: Callable[[], Any] = lambda: None
        self._followed: dict[str, float] = {}  # id -> when a write of ours last followed it (monotonic)
        self._following: list[Any] = []  # rows to read again at once (`follow`)
        self._title = ""
        self.then: dict[str, Any] = {}  # row id -> the action run on it once it settles (ActionSpec.then)
        # Given back while out of sight (`release`): the rows marked and the cursor's, put back once listed again.
        self.released: tuple[set[str], str | None] | None = None

    def compose(self) -> ComposeResult:
        yield ResourceTable(id="table")

    @property
    def table(self) -> ResourceTable:
        return self.query_one(ResourceTable)

    def on_mount(self) -> None:
        self.table.watch_rows = self.kind.is_transitional  # the table keeps the set of moving rows
        self._set_columns()
        if self.kind.reading.sort is not None:  # e.g. a timeline, newest first
            self.table.sort_by(*self.kind.reading.sort)
        # Pages a prefetch already has go in now, so the view's first frame shows them.
        self._early = self.service.take_prefetched(self.scope)
        for chunk in self._early:
            self.table.upsert(chunk.items)
        self.update_title()
        self.reload()

    def _set_columns(self) -> None:
        """The kind's columns. Listing every zone or region at once, the zone or region comes right
        after the name (at the end, it was off screen in a wide list); listing one, it is left out:
        the title names it, and every row would repeat it."""
        columns = self.kind.columns
        scope_type = self.kind.scope_type
        where = [c for c in columns if c.key == scope_type]
        if not where and scope_type in ("zone", "region"):  # every row carries its scope: said when all are listed
            where = [Column(scope_type, scope_type.capitalize(), lambda r: r.text(scope_type), width=10)]
        rest = tuple(c for c in columns[1:] if c not in where)
        columns = (*columns[:1], *where, *rest) if self.scope == ALL else (*columns[:1], *rest)
        self.table.set_columns(self.staged.columns(columns))

    @property
    def planner(self) -> RefreshPlanner:
        return self.refresher.planner

    @property
    def parent_ref(self) -> Any:
        return self.service.parent

    def on_unmount(self) -> None:
        self.refresher.cancel()

    def focus_table(self) -> None:
        found = self.query(ResourceTable)
        if found:
            found.first().focus()
        elif self.is_attached:  # mounted a moment ago: its table is composed on the next refresh
            self.call_after_refresh(self.focus_table)

    # ---- title --------------------------------------------------------------------------------
    def update_title(self) -> None:
        staged = len(self.changes) if self.changes is not None else 0
        retrying = self.service.retrying(self.scope) if self.listing else ""
        title = list_title(
            self.kind, self.scope, self.parent_ref, self.table, self.totals, self.failed, self.listing, staged, retrying
        )
        if title != self._title:  # setting it repaints the whole table
            self._title = title
            self.table.border_title = Content(title)  # plain text: never read as markup

    # ---- memory -------------------------------------------------------------------------------
    def release(self) -> bool:
        """Give the rows back while out of sight (the main screen asks it of the views shown least
        lately, past a budget of rows: `MainScreen._keep_few`). What a return needs is kept (the rows
        marked, the cursor's row, the totals) and it lists again when shown. Not while it holds what
        would be lost or is still at work: changes staged, rows moving (followed after an act), a
        listing under way."""
        if not self.rows_held():
            return False
        table = self.table
        if self.released is not None or self.changes or table.watched or self.listing:
            return False
        self.refresher.cancel()
        self.released = (set(table.marked), table.cursor_key)
        table.clear()
        return True

    def rows_held(self) -> int:
        found = self.query(ResourceTable)
        return found.first().loaded_count if found else 0

    def on_show(self) -> None:
        """Shown again: read again at once (its rows given back: listed; else what changed since, a
        probe of one row for a list of servers), unless it was read in the last SHOWN_FRESH seconds."""
        if self.released is not None:
            self.reload()
        elif not self.listing and self.planner.now() - self.planner.last_full > SHOWN_FRESH:
            self.refresher.fire()

    def _put_back(self) -> None:
        """After the listing that follows a release: the marks and the cursor where they were."""
        if self.released is None:
            return
        (marked, cursor), self.released = self.released, None
        table = self.table
        for key in marked:
            if table.get(key) is not None:
                table.toggle_mark(key)
        if cursor is not None:
            table.move_to(cursor)

    # ---- loading ------------------------------------------------------------------------------
    def set_scope(self, scope: str) -> None:
        if scope == self.scope:
            return
        self.scope = scope
        self._set_columns()
        self.table.clear()
        self.totals, self.failed = {}, {}
        self.reload()

    def reload(self) -> None:
        self.refresher.cancel()
        self._load()
        if self.kind.rows.about is not None:
            self._about()

    @work(exclusive=True, group="about", exit_on_error=False)
    async def _about(self) -> None:
        """The kind's line about the list, from the API (a service's version, what a list's flags
        mean), under the table. A line of context: when it cannot be read, the list is not held up."""
        from ...api.safe import clean

        try:
            said = await self.kind.rows.about.get()(self.service, self.scope)  # type: ignore[union-attr]
        except Exception as err:
            from ..errors import log_shown

            log_shown(self.kind.title, f"its line about the list could not be read: {err}")
            said = ""
        self.table.border_subtitle = Content(clean(said)) if said else None

    @work(exclusive=True, group="list", exit_on_error=False)
    async def _load(self) -> None:
        self.listing = True
        self.update_title()
        previous = {r.id: r for r in self.table.resources()}
        began = time.monotonic()

        def newest(items: list[Any]) -> list[Any]:
            """A row a write of ours followed after this listing began is newer than the listing's
            copy (read before the write): a stale "ready" put back over "pausing" stopped the polls."""
            followed, table = self._followed, self.table
            if not followed or self.changes is not None:
                return items
            return [table.get(r.id) or r if followed.get(r.id, 0.0) > began else r for r in items]

        seen: dict[str, Any] = {}
        totals: dict[str, int] = {}
        failed: dict[str, ApiError] = {}
        titled = 0.0
        early, self._early = self._early, []

        def take(chunk: Any, shown: bool = False) -> None:
            nonlocal titled
            if chunk.error is not None:
                failed[chunk.scope] = chunk.error
            if chunk.total is not None:
                totals[chunk.scope] = chunk.total
            if chunk.items:
                items = newest(chunk.items)
                for r in items:
                    seen[r.id] = r
                if not shown:
                    # rows show as their page arrives
                    self.table.upsert(self.staged.shown(items) if self.changes else items)
                self.totals = totals
                now = time.monotonic()
                if now - titled > TITLE_EVERY:  # the count moves a few times a second, not per page
                    self.update_title()
                    titled = now

        said = self.set_interval(TITLE_EVERY * 2, self.update_title)  # a page retried says why while it waits
        try:
            self.table.listing = True
            with collector.paused():  # rows and pages hold no cycles; see collector.py
                for chunk in early:
                    take(chunk, shown=True)
                async for chunk in self.service.iter_list(self.scope):
                    take(chunk)
                # Keep rows of scopes that failed: partial results stay visible.
                for rid, r in previous.items():
                    if rid not in seen and self.kind.scope_of(r) in failed:
                        seen[rid] = r
                self.table.replace(self.staged.shown(list(seen.values())) if self.changes else seen.values())
        except Exception as err:  # a bug, not an API failure: say so, keep the rows, keep refreshing
            self.listing = False
            if not self.is_attached or not self.query(ResourceTable):  # the console closing: nothing to say
                return
            self.last_attempt = self._wall()
            notify_error(self.app, err, f"Listing {self.kind.title_in_text}")
            self.update_title()
            self.refresher.arm()
            return
        finally:
            said.stop()
            self.listing = self.table.listing = False
        self.totals, self.failed = totals, failed
        self._listed(failed)

    def _listed(self, failed: dict[str, ApiError]) -> None:
        """Book-keeping after a full or delta listing."""
        self._put_back()
        wanted = getattr(self, "_reveal", "")
        if wanted and not self.table.move_to(wanted) and not failed:  # read whole, and not there: gone since
            self.app.notify(
                f"What was found is not in {self.kind.title_in_text} any more: deleted since it was found?",
                severity="warning",
                timeout=8,
            )
        if wanted and not failed:
            self._reveal = ""
        self.last_attempt = self._wall()
        if not failed:
            self.last_refresh = self.last_attempt
        first = next(iter(failed.values()), None)
        if first is not None:
            if isinstance(first, AuthenticationError) and hasattr(self.app, "auth_failed"):
                self.app.auth_failed(first)
            where = ", ".join(sorted(failed)) if self.scope == ALL else self.scope
            doing = f"Listing {self.kind.title_in_text}" + ("" if self.kind.scope_type == "global" else f" in {where}")
            notify_error(self.app, first, doing)
        self.update_title()
        self.refresh_detail()
        self._then()
        self.post_message(self.Refreshed(self))
        self.refresher.done(first is None)

    @work(exclusive=True, group="list", exit_on_error=False)
    async def _delta(self) -> None:
        """A slow tick: ask each scope what changed since our rows' modification marks.

        One small request per scope when nothing changed; rows deleted elsewhere found by a search over
        positions; a full re-list only when that cannot tell, or too much changed (`list_delta`).
        """
        from ...products.list_delta import delta

        held = [r for r in self.table.resources() if not (self.changes is not None and r.id.startswith("+"))]
        try:
            found = await delta(self.service, self.scope, held)  # (staged rows are not listed)
        except ApiError as err:
            self._listed({self.scope: err})
            return
        if found is None:
            self._load()  # too much changed, or rows made deep in the list: list everything again
            return
        if found.fresh:  # one made elsewhere goes where the API lists it: first, where the newest come first
            fresh = found.fresh
            self.table.upsert(self.staged.shown(fresh) if self.changes else fresh, first=self.kind.reading.newest_first)
        if found.gone:
            self.table.remove(found.gone)
        self.totals.update(found.totals)
        self._listed({})

    def _wall(self) -> float:
        return float(getattr(self.app, "clock", time.time)())

    # ---- refresh scheduling -------------------------------------------------------------------
    def moving(self) -> list[Any]:
        table = self.table
        return [table.get(k) for k in table.watched]

    def paused(self) -> bool:
        return self.refresher.paused()

    def _tick(self) -> None:
        moving = self.moving()
        if not self.display:  # out of sight: only the rows moving (followed after an act) are polled
            self._poll(moving[: self.planner.policy.max_polls])
            return
        if self.planner.plan(bool(moving)) == "poll" and self.kind.reading.fetch_detail:
            self._poll(moving[: self.planner.policy.max_polls])
        elif moving and not self.kind.reading.fetch_detail:  # no GET by id: moving rows are seen by listing again
            self._load()
        elif self.kind.reading.probe is not None and not self.failed and not self.listing:
            self._delta()
        else:
            self._load()

    @work(exclusive=True, group="poll", exit_on_error=False)
    async def _poll(self, resources: list[Any]) -> None:
        from ...products.list_delta import polled

        staged = self.changes is not None
        found = await polled(self.service, self.scope, [r for r in resources if not (staged and r.id.startswith("+"))])
        for sc, gone in found.gone.items():
            self.table.remove(gone)
            if sc in self.totals:
                self.totals[sc] = max(0, self.totals[sc] - len(gone))
        if found.fresh:
            self.table.upsert(self.staged.shown(found.fresh) if self.changes else found.fresh)
        errors = found.errors
        if not errors:
            self.last_refresh = self._wall()
        self.last_attempt = self._wall()
        self.update_title()
        self.refresh_detail()
        self._then()
        self.post_message(self.Refreshed(self))
        self.refresher.done(not errors, full=False)

    # ---- what the action runner and flows use (`action_host.ActionHost`) -------------------------
    def create_scope(self) -> str:
        return self.writes.create_scope()

    def forget(self, resource: Any) -> None:
        self.writes.forget(resource)

    def run_when_settled(self, row: Any, spec: Any) -> None:
        """`spec` runs on `row` once a refresh sees it settled (`_then`)."""
        self.then[row.id] = spec

    def upsert_row(self, row: Any) -> None:
        """A fresh row from a flow: shown now, followed while it moves."""
        self.table.upsert([row])
        self.follow(row)

    def follow(self, resource: Any) -> None:
        """After a change we made: refresh it now and poll fast until it settles (a kind with no
        GET by id is listed again instead)."""
        now = time.monotonic()
        self._followed = {k: t for k, t in self._followed.items() if now - t < 300} | {resource.id: now}
        if self.table.get(resource.id) is not None:
            # Watched until a poll sees it settle: the next tick's poll (an exclusive worker) may cancel
            # this one before its answer is shown, and a row not watched was then never polled again.
            self.table.watched.add(resource.id)
        if not self.kind.reading.fetch_detail:
            self.reload()
            return
        self._following.append(resource)  # the rows followed at once (an act on marked rows) in one poll
        if len(self._following) == 1:
            self.call_later(self._follow_now)

    def _follow_now(self) -> None:
        rows, self._following = self._following, []
        self._poll(rows)
