"""A panel: one object shown with its fields (a singleton such as a product's page or settings),
its actions, and the same quiet refresh as a list (`Refresher`: fast while it moves, slow
otherwise, paused when hidden or under a modal, backing off after errors).

A panel's kind is `singleton`: its collection path answers one object. Its verbs are the kind's
actions and its child lists (`a`), run by the shared action runner; read-only mode keeps only
what changes nothing. A kind that may not exist yet (`absent`: monitoring before activation)
shows why on a 404 and offers its `absent_actions`, polled until it appears.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Static

from ...api.errors import ApiError, NotFound
from ...api.safe import clean
from ...products.kit.base import ActionSpec, Context, ParentRef, ResourceKind, Row
from ...products.kit.location import scope_label
from ...products.kit.refresh_plan import RefreshPolicy
from ...products.kit.service import ResourceService
from ..console_app import wall_time
from ..errors import guarded, notify_error
from ..refresher import Refresher

if TYPE_CHECKING:
    from pydantic import BaseModel

    from ..app import CloudApp


class PanelView(Vertical):
    app: CloudApp
    BINDINGS = [
        Binding("a", "actions", "Actions", id="actions"),
        Binding("r", "refresh", "Refresh", id="refresh"),
        Binding("v", "json", "JSON", id="json"),
        Binding("x", "secrets", "Reveal secret", show=False, id="secrets"),
    ]

    class Refreshed(Message):
        def __init__(self, view: "PanelView") -> None:
            super().__init__()
            self.view = view

    def __init__(
        self,
        kind: ResourceKind,
        service: ResourceService,
        scope: str,
        *,
        read_only: bool = False,
        policy: RefreshPolicy | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id, classes="panel-view")
        self.kind = kind
        self.service = service
        self.scope = scope
        self.read_only = read_only
        self.row: Row | None = None
        self.resource: BaseModel | None = None  # the object as the kind's model reads it
        self.error: ApiError | None = None
        self.absent = False  # the object does not exist (yet): `kind.singleton.absent` says so
        self.last_refresh: float | None = None
        self.last_attempt: float | None = None
        self.refresher = Refresher(self, self._load, policy=policy, moving=self._moving)

    def refreshed_at(self) -> float | None:
        """When it was last read well (wall time), for the status bar."""
        return self.last_refresh

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="panel-scroll"):  # framed and titled as a list is
            yield Static("loading…", id="panel-fields", markup=False)

    def on_mount(self) -> None:
        self._load()

    def on_unmount(self) -> None:
        self.refresher.cancel()

    def focus_table(self) -> None:
        found = self.query("#panel-scroll")
        if found:
            found.first().focus()
        elif self.is_attached:  # mounted a moment ago: composed on the next refresh
            self.call_after_refresh(self.focus_table)

    # ---- what the flows and the main screen use ---------------------------------------------------
    def context(self, scope: str) -> Context:
        return self.app.context(scope)

    def create_scope(self) -> str:
        return self.scope

    def set_scope(self, scope: str) -> None:
        if scope != self.scope:
            self.scope = scope
            self.reload()

    def reload(self) -> None:
        self.refresher.cancel()
        self._load()

    def upsert_row(self, row: Row) -> None:
        self._show_row(row)
        self.reload()

    def follow(self, row: Row) -> None:
        self.reload()

    def forget(self, row: Row) -> None:
        self.reload()

    def run_when_settled(self, row: Row, spec: ActionSpec) -> None:
        """A panel's actions declare nothing to run after them; were one to, it runs now."""
        self._run(spec, row)

    def actions(self) -> tuple[ActionSpec, ...]:
        """The actions of the object, or of its absence (Activate)."""
        return self.kind.singleton.absent_actions if self.absent and self.kind.singleton else self.kind.actions

    def may(self, what: str) -> bool:
        if what == "actions":
            from ..action_runner import offered

            return any(offered(a, self.read_only) for a in self.actions()) or bool(
                self.kind.children and not self.absent
            )
        return what in ("refresh", "json", "secrets")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "secrets":
            return bool(self.row is not None and self.service.secrets.get(self.row.id))
        if action == "json" and self.absent:
            return None  # the API has none: greyed, no JSON made up
        return self.may(action)

    def _wall(self) -> float:
        return wall_time(self)  # the console's wall clock (fixed in tests and snapshots)

    def _moving(self) -> bool:
        return self.row is not None and self.kind.is_transitional(self.row)

    # ---- loading -------------------------------------------------------------------------------------
    @work(exclusive=True, group="panel", exit_on_error=False)
    async def _load(self) -> None:
        try:
            data = await self.service.get_singleton(self.scope)
        except Exception as err:
            if isinstance(err, NotFound) and self.kind.singleton and self.kind.singleton.absent is not None:
                self._shown({}, absent=True)
                return
            self.error = err if isinstance(err, ApiError) else None
            self.last_attempt = self._wall()
            notify_error(self.app, err, f"Loading {self.kind.title_in_text}")
            self._title()
            self.refresher.done(False)
            return
        self._shown(data)

    def _shown(self, data: dict[str, Any], absent: bool = False) -> None:
        """The object as read, or its absence (a row of nothing, which the absent actions take)."""
        self.error, self.absent, self.resource = None, absent, None
        self._show_row(self.service.row_of(data, self.scope))
        if not absent:
            try:
                self.resource = self.kind.reading.item.model.get().model_validate(data)
            except Exception as err:  # a lenient model should not fail; if it does, the raw data stays
                notify_error(self.app, err, f"Reading {self.kind.title_in_text}")
        self._fields()
        self.last_attempt = self.last_refresh = self._wall()
        self.refresh_bindings()
        self.post_message(self.Refreshed(self))
        self.refresher.done(True)

    def _show_row(self, row: Row) -> None:
        self.row = row
        self._title()

    def _title(self) -> None:
        parts = [self.kind.title]
        if self.kind.scope_type != "global":
            parts.append(scope_label(self.scope, self.kind.scope_type))
        if self.absent:
            parts.append("not set up")
        elif self.row is not None and self.row.state:
            parts.append(self.row.state)
        if self.error is not None:
            parts.append(f"✖ {self.error.label}")
        self.query_one("#panel-scroll", VerticalScroll).border_title = Content(
            clean(" · ".join(parts))
        )  # plain text: never read as markup

    def _fields(self) -> None:
        if self.absent:
            from ..action_runner import offered as may_run

            offered = [a.label for a in self.actions() if a.available(self.row) and may_run(a, self.read_only)]
            hint = (
                f"\n\na: {', '.join(offered)}"
                if offered
                else "\n\n(read-only: nothing here can be changed)"
                if self.read_only
                else ""
            )
            self.query_one("#panel-fields", Static).update(
                Text(clean(str(self.kind.singleton.absent if self.kind.singleton else "")) + hint)
            )
            return
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column(overflow="fold")  # a long address wraps whole, never cut to the part all of them share
        source = self.resource if self.resource is not None else self.row
        for label, get in self.kind.detail_fields:
            try:
                value = get(source)
            except Exception:  # a field of an unexpected shape must not hide the others
                value = "?"
            table.add_row(label, value if isinstance(value, Text) else Text(clean(str(value))))
        if self.row is not None and self.service.secrets.get(self.row.id):
            table.add_row("Secret", Text("hidden: x shows it once", style="italic"))
        self.query_one("#panel-fields", Static).update(table)

    # ---- keys ----------------------------------------------------------------------------------------
    @guarded("Refresh")
    def action_refresh(self) -> None:
        self.reload()

    @guarded("JSON")
    def action_json(self) -> None:
        from ..dialogs import open_dialog

        if self.row is not None and not self.absent:  # absent: the API has none, no JSON is made up
            open_dialog(self.app, "json", title=f"{self.kind.title} (JSON)", value=self.row.raw)

    @guarded("Secret")
    def action_secrets(self) -> None:
        from ..action_runner import reveal_once

        if self.row is not None and reveal_once(self, self.row):
            self._fields()
            self.refresh_bindings()

    @guarded("Actions")
    def action_actions(self) -> None:
        if self.row is None or not self.may("actions"):
            return
        row = self.row
        from ..action_runner import open_menu

        open_menu(
            self,
            row,
            self.actions(),
            [] if self.absent else list(self.kind.children),
            self.kind.title,
            lambda spec: self._run(spec, row),
            lambda child: self.app.open_child(
                child.get(), ParentRef.of(row, self.scope, name=self.kind.title), self.reload
            ),
        )

    @work(group="mutate", exit_on_error=False)
    async def _run(self, spec: ActionSpec, row: Row) -> None:
        from ..action_runner import run

        await run(self, spec, row)
