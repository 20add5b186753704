"""What a user does to the resources of a view: actions and flows, copy, filter and sort; create, edit
and delete through the view's `writes` part. A mixin of ResourceView (which owns the table, the service
and the refresh)."""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any, Awaitable, Callable, overload

if TYPE_CHECKING:
    from collections.abc import Iterable

    from textual.css.query import DOMQuery, QueryType
    from textual.screen import Screen
    from textual.widget import AwaitMount, Widget
    from textual.worker import ResultType, Worker, WorkType

    from ...products.kit.base import Context, ResourceKind, Row
    from ...products.kit.list_model import ListModel
    from ...products.kit.service import ResourceService
    from ..app import CloudApp
    from ..flow_ui import ViewFlowUI
    from ..screens.detail import DetailScreen
    from .marked import Marked
    from .resource_changes import Writes
    from .staged import Staging

    Flow = Callable[[ViewFlowUI, Any], Awaitable[object]]  # a kind's flow: (its dialogs, a row or rows) -> its end

from textual import work
from textual.widgets import Input

from ...products.kit.base import ActionSpec, Child, ParentRef
from ..errors import guarded
from .line_input import LineInput
from .resource_table import ResourceTable


class ResourceActions:
    # Provided by ResourceView.
    app: CloudApp
    kind: ResourceKind
    service: ResourceService
    scope: str
    read_only: bool
    context: Callable[[str], Context]
    table: ResourceTable
    _detail_ref: Callable[[], DetailScreen | None]
    is_mounted: bool
    _reveal: str  # a row to put the cursor on once listed (`reveal`)
    model: ListModel  # the list's model: rows, totals, what runs once settled
    writes: Writes  # the view's create, edit and delete
    marks: Marked  # what acts on the marked rows
    staged: Staging  # the view's staged edits

    if TYPE_CHECKING:  # ResourceView's (and its keys', `ResourceKeys`), and Textual's (`Widget`)

        def may(self, what: str) -> bool | None: ...

        def refuse_read_only(self, key: str) -> bool: ...

        def all_actions(self) -> tuple[ActionSpec, ...]: ...

        def reload(self) -> None: ...

        def columns_changed(self, kept_before: tuple[str, ...]) -> None: ...

        def own_columns_here(self) -> tuple[str, ...]: ...

        def run_own_keyed(self, key: str, row: Row | None, bound: Iterable[str] | None = None) -> bool: ...

        def follow(self, resource: Row) -> None: ...

        def forget(self, resource: Row) -> None: ...

        def upsert_row(self, row: Row) -> None: ...

        def run_when_settled(self, row: Row, spec: ActionSpec) -> None: ...

        def create_scope(self) -> str: ...

        def update_title(self) -> None: ...

        def refresh_bindings(self) -> None: ...

        def run_worker(
            self,
            work: WorkType[ResultType],
            name: str | None = "",
            group: str = "default",
            description: str = "",
            exit_on_error: bool = True,
            start: bool = True,
            exclusive: bool = False,
            thread: bool = False,
        ) -> Worker[ResultType]: ...

        def mount(
            self,
            *widgets: Widget,
            before: int | str | Widget | None = None,
            after: int | str | Widget | None = None,
        ) -> AwaitMount: ...

        @overload
        def query(self, selector: str | None = None) -> DOMQuery[Widget]: ...

        @overload
        def query(self, selector: type[QueryType]) -> DOMQuery[QueryType]: ...

        def query(self, selector: str | type[QueryType] | None = None) -> DOMQuery[Widget] | DOMQuery[QueryType]: ...

    # ---- the detail opened from this list -------------------------------------------------------
    @property
    def _detail(self) -> DetailScreen | None:
        """The detail opened from this list, while something else keeps it (the screen stack). Held
        weakly: a closed screen kept here kept, through callbacks Textual had queued on it, every
        screen opened after it — the console's memory grew all day."""
        return self._detail_ref()

    @_detail.setter
    def _detail(self, screen: DetailScreen | None) -> None:
        self._detail_ref = weakref.ref(screen) if screen is not None else (lambda: None)

    def _detail_on_top(self, screen: Screen[object]) -> bool:
        return self._detail is not None and screen is self._detail

    def refresh_detail(self) -> None:
        if self._detail is None or not self._detail.is_attached:
            self._detail = None
            return
        current = self.table.get(self._detail.row.id)
        if current is None:
            self._detail.gone()
        elif current is not self._detail.row:
            self._detail.row = current
            self._detail.reload()

    def reveal(self, row_id: str) -> None:
        """The cursor on a row (a resource found from the palette): now, or once the list is read."""
        self._reveal = "" if self.is_mounted and self.show_row(row_id) else row_id

    def show_row(self, row_id: str) -> bool:
        """The cursor on a row held; one the filter hides is shown by clearing the filter (said)."""
        if self.table.move_to(row_id):
            return True
        if self.table.get(row_id) is None or not getattr(self.table, "_filter", ""):
            return False
        self.action_clear_filter()
        self.app.notify("The filter was cleared: it hid what was asked for.", timeout=4)
        return self.table.move_to(row_id)

    def current(self) -> Row | None:
        key = self.table.cursor_key
        return self.table.get(key) if key else None

    @guarded("Action")
    def act_on(self, what: str, resource: Row) -> None:
        """Entry point shared with the detail screen."""
        {
            "actions": lambda r: self.open_actions(r, marks=False),  # the detail acts on its own row
            "edit": self.writes.open_edit,
            "delete": self.writes.confirm_delete,
            "copy_id": self.copy_id,
            "refresh_one": self.follow,
            "related": self.related,
            "watch": self.watch,
            "costs": lambda r: self._costs([r], f"Monthly estimate · {r.name or r.id}", "This one"),
        }[what](resource)

    def _with_current(self, fn: Callable[[Row], None]) -> None:
        resource = self.current()
        if resource is None:
            if getattr(self.table, "_filter", ""):  # rows there are, the filter hides them all
                self.app.notify(f"No {self.kind.singular} matches the filter: esc clears it.", severity="warning")
                return
            if self.model.listing:  # none yet: the list is on its way
                self.app.notify(
                    f"The {self.kind.title_in_text} are still being listed: try again when they show.",
                    severity="warning",
                )
                return
            creates = ": c creates one" if getattr(self, "may", lambda what: False)("create") else ""
            self.app.notify(f"No {self.kind.singular} here to act on{creates}.", severity="warning")
        else:
            fn(resource)

    @guarded("Refresh")
    def action_refresh(self) -> None:
        self.reload()

    def _unlocked(self) -> bool:
        """False, saying why, when the list's parent forbids changing it (`kind.writing.refuses.locked`)."""
        why = self.kind.writing.refuses.locked(self.service.parent)
        if why:
            self.app.notify(f"Not here: {why}.", severity="warning", timeout=8)
        return not why

    @guarded("Create")
    def action_create(self) -> None:
        if self.may("create") and self._unlocked():
            self.writes.open_create()

    @guarded("Edit")
    def action_edit(self) -> None:
        if self.may("edit") and self._unlocked():
            marked = self.table.marked_rows()
            if marked:  # the tags of all of them: the one edit that means the same for each
                self.marks.tags(marked)
            else:
                self._with_current(self.writes.open_edit)

    @guarded("Delete")
    def action_delete(self) -> None:
        if self.may("delete") and self._unlocked():
            marked = self.table.marked_rows()
            if marked:
                self.marks.delete(marked)
            else:
                self._with_current(self.writes.confirm_delete)

    @guarded("Actions")
    def action_actions(self) -> None:
        if self.may("actions"):
            self._with_current(self.open_actions)

    @guarded("Mark")
    def action_mark(self, where: str = "") -> None:
        """Mark the row under the cursor (or unmark it) and go to the next: the actions that take
        several rows then act on all the marked ones."""
        if not self.may("mark"):
            return
        key = self.table.cursor_key
        if key is not None:
            self.table.toggle_mark(key)
            self.table.action_cursor(1)
            self.update_title()
            self.refresh_bindings()

    @guarded("Mark all")
    def action_mark_all(self) -> None:
        if self.may("mark"):
            self.marks.mark_all()
            self.update_title()
            self.refresh_bindings()

    @guarded("Unmark")
    def action_clear_marks(self) -> None:
        self.table.clear_marks()
        self.update_title()
        self.refresh_bindings()

    @guarded("Copy")
    def action_copy_id(self) -> None:
        self._with_current(self.copy_id)

    @guarded("What points here")
    def action_related(self) -> None:
        self._with_current(self.related)

    @guarded("Watch")
    def action_watch(self) -> None:
        self._with_current(self.watch)

    def watch(self, resource: Row) -> None:
        self.app.watcher.toggle(self.kind, self.service, self.kind.scope_of(resource) or self.scope, resource)

    @guarded("Import")
    def action_import_file(self) -> None:
        from .file_import import import_file

        self.run_worker(import_file(self), group="import", exclusive=True, exit_on_error=False)

    @guarded("Monthly estimate")
    def action_costs(self) -> None:
        rows: list[Row] = [self.table.get(k) for k in self.table.shown_keys]  # type: ignore[misc]  # (each is held)
        n = self.kind.counted(len(rows))
        self._costs(rows, f"Monthly estimate · {n}", f"The {n} shown", self.table.marked_rows())

    def _costs(self, rows: list[Row], title: str, shown_as: str, marked: list[Row] | None = None) -> None:
        if self.kind.rows.cost is None:
            self.app.notify(f"No price list gives what {self.kind.title_in_text} cost.", timeout=5)
            return
        from ..across import costs

        work = costs.show(self, rows, title, shown_as, marked)
        self.run_worker(work, group="costs", exclusive=True, exit_on_error=False)

    @guarded("Columns")
    def action_columns(self) -> None:
        self.run_worker(self._choose_columns(), group="columns", exclusive=True, exit_on_error=False)

    async def _choose_columns(self) -> None:
        """The columns picker (`screens/columns.py`); the choice kept in config.toml, then shown."""
        import asyncio

        from ...config import ConfigNotSaved, save_columns
        from ...products.kit import own_columns
        from ...products.kit.changeset import STAGED
        from ...products.kit.own_columns import Chosen
        from ..screens.columns import ColumnsScreen

        settings = self.app.settings
        kind_id = self.kind.id
        rows: list[Row] = [self.table.get(k) for k in self.table.shown_keys[:8]]  # type: ignore[misc]  # (held)
        shown, own = self.table.columns, self.own_columns_here()  # (a column not the kind's, ±, is no choice)
        everyone = kind_id in settings.columns_all and settings.columns.get(kind_id) == settings.columns_all[kind_id]
        picker = ColumnsScreen(self.kind, rows, settings.profile, shown, own, for_profile=not everyone)
        answer = await self.app.push_screen_wait(picker)
        if answer is None:
            return
        chosen = answer.chosen
        if answer.for_profile and not chosen and kind_id in settings.columns_all:
            chosen = tuple(Chosen(k) for k in own)  # the list's own, over every profile's choice
        profile = settings.profile if answer.for_profile else None

        def save() -> None:
            save_columns(kind_id, chosen, profile)
            if profile is None:  # for every profile: this one's own entry would still win over it
                save_columns(kind_id, (), settings.profile)

        try:
            await asyncio.to_thread(save)
        except (ConfigNotSaved, OSError) as err:
            self.app.notify(f"{err} The columns are as they were.", title="Columns not kept", severity="error")
            return
        before = own_columns.kept(self.kind)
        in_force = {k: v for k, v in settings.columns.items() if k != kind_id}
        if profile is None:
            everyone_else = {k: v for k, v in settings.columns_all.items() if k != kind_id}
            settings.columns_all = {**everyone_else, kind_id: chosen} if chosen else everyone_else
        settings.columns = {**in_force, kind_id: chosen} if chosen else in_force
        own_columns.use(settings.columns)
        self.columns_changed(before)
        whom = f"profile {settings.profile}" if profile else "every profile"
        titles = [c.title for c in self.table.columns if c.key != STAGED]  # (not the staged changes' ±)
        said = ", ".join(titles) if answer.chosen else "its own columns again"
        self.app.notify(f"{self.kind.title}: {said} — kept for {whom}.", title="Columns", timeout=5)

    @guarded("Export")
    def action_export(self) -> None:
        self.run_worker(self._export(), group="export", exclusive=True, exit_on_error=False)

    async def _export(self) -> None:
        """The rows the list holds, as shown (filtered, sorted), to a CSV or JSON file the operator names."""
        import asyncio

        from ...products.kit import export, files
        from ..flow_ui import ViewFlowUI

        rows: list[Row] = [self.table.get(k) for k in self.table.shown_keys]  # type: ignore[misc]  # (each is held)
        ui = ViewFlowUI(self, self.scope)
        filtered = bool(self.table._filter)
        title = self.kind.counted(len(rows)) + (" (as filtered)" if filtered else "")
        own = self.kind.rows.file  # a standard file of its own (a zone file)
        ways = [("CSV (a spreadsheet)", "csv"), ("JSON", "json")] + ([(own.name.capitalize(), "own")] if own else [])
        how = await ui.pick(f"Export {title}", ways)
        if how is None:
            return
        parent = self.service.parent
        if how == "own":
            assert own is not None  # (offered only where the kind has one)
            dump = own.dump.get()
            content = (await asyncio.to_thread(dump, rows, parent)).encode("utf-8")
            name, how = f"{(parent.name if parent else self.kind.id).rstrip('.')}.{own.suffix}", own.name
        else:
            write = export.as_csv if how == "csv" else export.as_json
            content = await asyncio.to_thread(write, self.kind, rows)  # every row read once: off the UI thread
            # named for what it holds: some of a scope's rows are not "-all"
            name = f"{self.kind.id.replace('.', '-')}-{self.scope}{'-filtered' if filtered else ''}.{how}"
        await files.save_bytes(ui, f"Export {title} as {how.upper() if len(how) < 5 else how}", content, name)

    def related(self, resource: Row) -> None:
        self.app.finder.show_related(self.kind, resource)

    @guarded("Filter")
    def action_filter(self) -> None:
        found = self.query("#filter")
        if found:
            box = found.first(Input)
        else:  # mounted on first use: one widget less to style at start-up
            box = LineInput(placeholder="filter the columns shown (esc clears)", id="filter", compact=True)
            self.mount(box, before=self.table)
        box.display = True
        box.focus()
        self.refresh_bindings()

    def filter_to(self, text: str) -> None:
        """The list filtered to `text`, its filter box showing it (the overview's `state=stopped`)."""
        self.action_filter()
        box = self.query("#filter").first(Input)
        box.value = text
        self.table.set_filter(text)
        self.update_title()
        self.table.focus()
        self.refresh_bindings()

    @guarded("Clear filter")
    def action_clear_filter(self) -> None:
        for box in self.query("#filter").results(Input):
            box.value = ""
            box.display = False
        self.table.set_filter("")
        self.update_title()
        self.table.focus()
        self.refresh_bindings()

    @guarded("Filter")
    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "filter":
            self.table.set_filter(event.value)
            self.update_title()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "filter":
            self.table.focus()

    @guarded("Sort")
    def action_sort(self) -> None:
        # the columns shown, none hidden (a kind's columns are all Columns once it is made,
        # `ResourceKind.__post_init__`; `Column | str` as declared)
        keys = [c.key for c in self.table.columns or self.kind.columns]  # type: ignore[union-attr]
        state = self.table.sort_state
        nxt = (
            keys[0]
            if state is None
            else (keys[(keys.index(state[0]) + 1) % len(keys)] if state[0] in keys else keys[0])
        )
        self.table.sort_by(nxt)
        self.update_title()

    @guarded("Sort")
    def action_sort_reverse(self) -> None:
        state = self.table.sort_state or (self.kind.columns[0].key, False)  # type: ignore[union-attr]  # (as above)
        self.table.sort_by(state[0], not state[1])
        self.update_title()

    @guarded("Open")
    def on_resource_table_selected(self, event: ResourceTable.Selected) -> None:
        resource = self.table.get(event.key)
        if resource is not None:
            from ..screens.detail import DetailScreen

            self._detail = DetailScreen(self, resource)
            self.app.push_screen(self._detail)

    def copy_id(self, resource: Row) -> None:
        self.app.copy_to_clipboard(resource.id)
        self.app.notify(f"Copied {resource.id}", timeout=3)

    # actions ----------------------------------------------------------------------------------
    def open_actions(self, resource: Row, marks: bool = True) -> None:
        if not self.may("actions"):
            return
        marked = self.table.marked_rows() if marks else []
        if marked:
            self.marks.menu(marked)
            return
        from ..action_runner import open_menu

        open_menu(
            self,
            resource,
            self.all_actions(),
            list(self.kind.children),
            resource.name or resource.id,
            lambda spec: self.run_action(resource, spec),
            lambda child: self.open_child(child, resource),
        )

    def run_action(self, resource: Row, spec: ActionSpec, asked: bool = False) -> None:
        """`asked`: confirmed already, with what it follows (a create's power-on): not asked again."""
        self._act(spec, resource, asked)

    def _do_action(self, resource: Row, spec: ActionSpec) -> None:
        """An action run without asking (a create's follow-up: start the server it made)."""
        from ...records import replace

        self._act(replace(spec, confirm=False) if spec.confirm else spec, resource)

    @work(group="mutate", exit_on_error=False)
    async def _act(self, spec: ActionSpec, target: Row | list[Row], asked: bool = False) -> None:
        """The shared runner (`action_runner`); an action on marked rows clears the marks when it
        says it sent something."""
        from ..action_runner import run

        sent = await run(self, spec, target, asked)
        if sent and isinstance(target, list):
            self.marks.cleared()

    def _then(self) -> None:
        """After a refresh: the action an action declared to follow it (`ActionSpec.then`), on each
        of its rows now settled (one gone drops it)."""
        for rid, spec in list(self.model.then.items()):
            row = self.table.get(rid)
            if row is None or not self.kind.is_transitional(row):
                del self.model.then[rid]
                if row is not None and spec.available(row):
                    self.run_action(row, spec)

    # children ---------------------------------------------------------------------------------
    def open_child(self, child: Child, resource: Row) -> None:
        """The child kind's list for this resource, in a view of its own (same table, paging,
        filter and refresh as any list)."""
        scope = self.kind.scope_of(resource) or self.scope
        self.app.open_child(
            child.get(), ParentRef.of(resource, scope, up=self.service.parent), lambda: self.follow(resource)
        )

    # flows ------------------------------------------------------------------------------------
    def reveal_secrets(self, resource: Row) -> None:
        """Secret fields an answer carried (a password, a token) are shown once, on request."""
        from ..action_runner import reveal_once

        reveal_once(self, resource)

    def run_flow(self, flow: Flow, resource: Row, what: str, mutating: bool = True) -> None:
        """A flow that is not an action (a kind's delete flow), run like one."""
        self._act(ActionSpec(what.lower(), what, shape=_Flow(flow, mutating)), resource)


class _Flow:
    """A bare flow seen as a shape, for the runner."""

    def __init__(self, flow: Flow, mutating: bool) -> None:
        self.flow, self.mutating = flow, mutating
        self.confirms = getattr(flow, "confirms", False)  # it asks before it sends (`flows.confirms_first`)
        self.asks_at_send = getattr(flow, "asks_at_send", False)  # … or at each send (`flows.asks_at_send`)

    def __call__(self, ui: ViewFlowUI, target: Row | list[Row]) -> Awaitable[object]:
        return self.flow(ui, target)
