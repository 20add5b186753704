"""One resource kind in one scope, shown: its table, its list model read in workers, and what a user
does to it.

The rows, totals, failures, what moves and the staged changes are the model's (`products.kit.list_model`,
no Textual); the view gives the model its table to draw every change in, runs its reads in workers and
says what came of them. Listing streams pages into the table as they arrive; "all zones" keeps the
zones that answered and names the ones that failed. A single one-shot timer is re-armed after every
read: fast polls (GET by id) for transitional resources, what changed at the slow interval (a probe
where the kind has one, else a re-list), nothing while a modal is open or the view is hidden (but rows
followed after an act), the next at the normal interval after a failure (the client paces what the API
refused).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Callable

from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message

from ...api.errors import AuthenticationError
from ...products.kit import own_columns
from ...products.kit.base import ALL, Column, Context, ResourceKind, Row
from ...products.kit.list_model import Change, ListModel
from ...products.kit.refresh_plan import RefreshPlanner, RefreshPolicy
from ...products.kit.service import ResourceService
from .. import collector
from ..console_app import console_of, wall_time
from ..errors import notify_error
from ..refresher import Refresher
from .marked import Marked
from .resource_actions import ResourceActions
from .resource_changes import Writes
from .resource_keys import LIST_KEYS, ResourceKeys
from .resource_table import ResourceTable
from .staged import Staging
from .view_title import list_title

if TYPE_CHECKING:
    from ...products.kit.base import ActionSpec
    from ..app import CloudApp
    from ..screens.detail import DetailScreen

TITLE_EVERY = 0.5  # seconds between title updates while pages arrive (each repaints the table)
SHOWN_FRESH = 5.0  # seconds since its last read within which a list shown again is not read again


# (its `run_action` and `watch`, a row's action and a row watched, hide Textual's `Widget.run_action` and
# `DOMNode.watch`: Textual runs a binding's action through the app, and binds no data to a view)
class ResourceView(ResourceKeys, ResourceActions, Vertical):  # type: ignore[misc]
    BINDINGS = LIST_KEYS  # (resource_keys.py)
    app: CloudApp

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
        self.kind, self.service, self.scope = kind, service, scope  # (scope: the model's, shown; `set_scope`)
        self.context, self.read_only = context, read_only
        self.model = ListModel(kind, service, scope, planner=RefreshPlanner(policy), clock=self._wall)
        self.table = ResourceTable(id="table")
        self.model.shown = self.table  # every change to the model's rows is drawn
        # Its parts: staged edits (kinds with `batch`), create/edit/delete, what acts on the marked rows.
        self.staged = Staging(self, self.model)
        self.writes, self.marks = Writes(self, self.model), Marked(self)
        self.refresher = Refresher(
            self,
            self._tick,
            self.model.planner,
            moving=lambda: bool(self.model.moving),
            also_on_top=self._detail_on_top,
            out_of_sight=lambda: bool(self.kind.reading.item.fetch and self.model.moving),
        )
        self._detail_ref: Callable[[], DetailScreen | None] = lambda: None
        self._title = ""
        self._kept: tuple[set[str], str | None] | None = None  # marks and cursor through a change of scope

    def compose(self) -> ComposeResult:
        yield self.table

    def on_mount(self) -> None:
        self._set_columns()
        if self.kind.reading.order.by is not None:  # e.g. a timeline, newest first
            self.table.sort_by(*self.kind.reading.order.by)
        self.model.take_early()  # pages a prefetch already has go in now: the first frame shows them
        self.update_title()
        self.reload()

    def own_columns_here(self) -> tuple[str, ...]:
        """The keys of the kind's own columns as this list shows them (its scope left out in one zone)."""
        own: tuple[Column, ...] = self.kind.columns  # type: ignore[assignment]  # (all Columns once made)
        return tuple(c.key for c in self._placed(own, chosen=False))

    def _set_columns(self) -> None:
        """The list's columns: the operator's own (`[columns]`), else the kind's. Listing every zone or
        region at once, the zone or region comes right after the name unless placed (at the end, it was
        off screen in a wide list); listing one, the kind's own leave it out: the title names it, and
        every row would repeat it (the operator's keep it where they put it)."""
        columns = self._placed(own_columns.shown(self.kind), chosen=bool(own_columns.chosen_for(self.kind.id)))
        self.table.set_columns(self.staged.columns(columns))

    def _placed(self, columns: tuple[Column, ...], chosen: bool) -> tuple[Column, ...]:
        """`columns` with the scope's column placed as this list's scope needs (`chosen`: the operator's)."""
        scope_type = self.kind.scope_type
        where = [c for c in columns if c.key == scope_type]
        if not where and scope_type in ("zone", "region"):  # every row carries its scope: said when all are listed
            where = [Column(scope_type, scope_type.capitalize(), lambda r: r.text(scope_type), width=10)]
        rest = tuple(c for c in columns[1:] if c not in where)
        if self.scope == ALL and not (chosen and where and where[0] in columns):
            return (*columns[:1], *where, *rest)
        return columns if chosen else (*columns[:1], *rest)

    def columns_changed(self, kept_before: tuple[str, ...]) -> None:
        """The operator chose other columns (`screens/columns.py`): shown now; the list read again when
        they read what its rows did not keep (`kept_before`: what they kept for the columns before)."""
        self._set_columns()
        slim = self.kind.rows.row_fields  # (rows that keep every field have what any column reads)
        if slim and any(k not in slim and k not in kept_before for k in own_columns.kept(self.kind)):
            self.reload()

    def on_unmount(self) -> None:
        self.refresher.cancel()

    def focus_table(self) -> None:
        if self.table.is_attached:
            self.table.focus()
        elif self.is_attached:  # mounted a moment ago: its table is composed on the next refresh
            self.call_after_refresh(self.focus_table)

    def refreshed_at(self) -> float | None:
        """When its rows were last read well (a listing, a probe or a poll; wall time), for the status bar."""
        return self.model.last_refresh

    # ---- title --------------------------------------------------------------------------------
    def update_title(self) -> None:
        model = self.model
        staged = len(model.changes) if model.changes is not None else 0
        retrying = self.service.retrying(self.scope) if model.listing else ""
        title = list_title(
            self.kind,
            self.scope,
            self.service.parent,
            self.table,
            model.totals,
            model.failed,
            model.listing,
            staged,
            retrying,
        )
        if title != self._title:  # setting it repaints the whole table
            self._title = title
            self.table.border_title = Content(title)  # plain text: never read as markup

    # ---- memory -------------------------------------------------------------------------------
    def release(self) -> bool:
        """Give the rows back while out of sight (the main screen asks it of the views shown least
        lately, past a budget of rows: `MainScreen._keep_few`). What a return needs is kept (the rows
        marked, the cursor's row, the totals) and it lists again when shown. Not while it holds what
        would be lost or is still at work (`ListModel.releasable`)."""
        if not self.model.releasable():
            return False
        self.refresher.cancel()
        self.model.release(set(self.table.marked), self.table.cursor_key)
        return True

    def rows_held(self) -> int:
        return len(self.model.rows)

    def on_show(self) -> None:
        """Shown again: read again at once (its rows given back: listed; else what changed since, a
        probe of one row for a list of servers), unless it was read in the last SHOWN_FRESH seconds."""
        planner = self.model.planner
        if self.model.released is not None:
            self.reload()
        elif not self.model.listing and planner.now() - planner.last_full > SHOWN_FRESH:
            self.refresher.fire()

    def _put_back(self) -> None:
        """After the listing that follows a release or a change of scope: the marks and the cursor where
        they were, on the rows listed again."""
        kept, self._kept = self.model.released or self._kept, None
        self.model.released = None
        if kept is None:
            return
        marked, cursor = kept
        table = self.table
        dropped = 0
        for key in marked:
            if table.get(key) is not None:
                table.toggle_mark(key)
            else:
                dropped += 1
        if dropped:  # (walk: a scope without them cleared the marks without a word)
            where = f"in {self.scope}" if self.scope != ALL else "any more"
            self.app.notify(f"{dropped} marked not listed {where}: unmarked.", timeout=5)
            self.update_title()
        if cursor is not None:
            table.move_to(cursor)

    # ---- loading ------------------------------------------------------------------------------
    def set_scope(self, scope: str) -> None:
        if scope == self.scope:
            return
        self.scope = scope
        self._kept = (set(self.table.marked), self.table.cursor_key)  # where the rows are listed again too
        self.model.set_scope(scope)
        self._set_columns()
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

        try:  # (`reload` runs it only where the kind has its `about`)
            said = await self.kind.rows.about.get()(self.service, self.scope)  # type: ignore[union-attr]
        except Exception as err:
            from ..errors import log_shown

            log_shown(self.kind.title, f"its line about the list could not be read: {err}")
            said = ""
        self.table.border_subtitle = Content(clean(said)) if said else None

    @work(exclusive=True, group="list", exit_on_error=False)
    async def _load(self) -> None:
        titled = 0.0

        def page(change: Change) -> None:  # rows show as their page arrives; the count a few times a second
            nonlocal titled
            now = time.monotonic()
            if now - titled > TITLE_EVERY:
                self.update_title()
                titled = now

        said = self.set_interval(TITLE_EVERY * 2, self.update_title)  # a page retried says why while it waits
        self.table.listing = True
        try:
            self.update_title()
            with collector.paused():  # rows and pages hold no cycles; see collector.py
                change = await self.model.list_all(page)
        except Exception as err:  # a bug, not an API failure: say so, keep the rows, keep refreshing
            if not self.is_attached or not self.table.is_attached:  # the console closing: nothing to say
                return
            notify_error(self.app, err, f"Listing {self.kind.title_in_text}")
            self.update_title()
            self.refresher.arm()
            return
        finally:
            said.stop()
            self.table.listing = False
        self._listed(change)

    def _listed(self, change: Change, full: bool = True) -> None:
        """After a read: what it found said, the detail and the actions waiting on rows brought up to
        date, the next read armed."""
        failed = change.failed
        if full:
            self._put_back()
        wanted = getattr(self, "_reveal", "")
        if wanted and not self.show_row(wanted) and not failed and full:  # read whole, not there: gone since
            self.app.notify(
                f"What was found is not in {self.kind.title_in_text} any more: deleted since it was found?",
                severity="warning",
                timeout=8,
            )
        if wanted and not failed and full:
            self._reveal = ""
        first = next(iter(failed.values()), None)
        if first is not None:
            console = console_of(self)
            if isinstance(first, AuthenticationError) and console is not None:
                console.auth_failed(first)
            where = ", ".join(sorted(failed)) if self.scope == ALL else self.scope
            doing = f"Listing {self.kind.title_in_text}" + ("" if self.kind.scope_type == "global" else f" in {where}")
            notify_error(self.app, first, doing)
        self.update_title()
        self.refresh_detail()
        self._then()
        self.post_message(self.Refreshed(self))
        self.refresher.done(change.ok, full=full)

    @work(exclusive=True, group="list", exit_on_error=False)
    async def _delta(self) -> None:
        """A slow tick: what changed since the rows held were read (`ListModel.refresh`); everything
        listed again when only that can tell."""
        change = await self.model.refresh()
        if change is None:
            self._load()  # too much changed, or rows made deep in the list: list everything again
            return
        self._listed(change)

    def _wall(self) -> float:
        return wall_time(self)  # the console's wall clock (fixed in tests and snapshots)

    # ---- refresh scheduling -------------------------------------------------------------------
    def paused(self) -> bool:
        return self.refresher.paused()

    def _tick(self) -> None:
        read = self.model.plan(in_sight=bool(self.display))
        if read == "poll":
            self._poll(self.model.moving_rows())
        elif read == "refresh":
            self._delta()
        else:
            self._load()

    @work(exclusive=True, group="poll", exit_on_error=False)
    async def _poll(self, rows: list[Row]) -> None:
        self._listed(await self.model.poll(rows), full=False)

    # ---- what the action runner and flows use (`action_host.ActionHost`) -------------------------
    def create_scope(self) -> str:
        return self.writes.create_scope()

    def forget(self, resource: Row) -> None:
        self.writes.forget(resource)

    def run_when_settled(self, row: Row, spec: ActionSpec) -> None:
        """`spec` runs on `row` once a refresh sees it settled (`_then`)."""
        self.model.then[row.id] = spec

    def upsert_row(self, row: Row) -> None:
        """A fresh row from a flow: shown now, followed while it moves."""
        self.model.put([row])
        self.follow(row)

    def follow(self, resource: Row) -> None:
        """After a change we made: refresh it now and poll fast until it settles (a kind with no
        GET by id is listed again instead)."""
        read = self.model.follow(resource)
        if read == "list":
            self.reload()
        elif read == "poll":  # the rows followed at once (an act on marked rows) read in one poll
            self.call_later(lambda: self._poll(self.model.take_following()))
