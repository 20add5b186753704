"""The detail of one resource: its fields, and the raw JSON exactly as the API sent it.

The list holds light rows; the detail fetches the full object by id when opened and whenever the
list sees the row change, so what it shows is always the platform's latest answer.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Label, Static, TabbedContent, TabPane

from ...api.safe import clean
from .. import styles
from ..widgets.key_bar import KeyBar
from ..widgets.status_bar import StatusBar

if TYPE_CHECKING:
    from textual import events
    from textual.widget import Widget

    from ...products.kit.base import DetailPanel, Row
    from ...products.kit.models import Resource
    from ..app import CloudApp
    from ..widgets.resource_actions import ResourceActions


class DetailScreen(Screen[None]):
    """Opened from a ResourceView, which keeps the resource fresh and handles the actions."""

    app: CloudApp

    CSS_PATH = styles.DIALOGS

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back", id="back"),
        Binding("v", "toggle_view", "Next tab", id="toggle_view"),
        Binding("a", "resource('actions')", "Actions", id="actions"),
        Binding("e", "resource('edit')", "Edit", id="edit"),
        Binding("d", "resource('delete')", "Delete", id="delete"),
        Binding("y", "resource('copy_id')", "Copy ID", id="copy_id"),
        Binding("R", "resource('related')", "Related", show=False, id="related"),
        Binding("W", "resource('watch')", "Watch", show=False, tooltip="Be told when its state changes", id="watch"),
        Binding("r", "resource('refresh_one')", "Refresh", id="refresh"),
        Binding("x", "secrets", "Reveal secret", id="secrets"),
        Binding("dollar_sign", "resource('costs')", "Monthly estimate", show=False, id="costs"),
        Binding("E", "export", "Save JSON", show=False, tooltip="Its JSON, to a file", id="export"),
        Binding(
            "Y", "copy_json", "Copy JSON", show=False, tooltip="Its JSON, to the clipboard (OSC 52)", id="copy_json"
        ),
        Binding("j", "scroll(1)", show=False, id="down"),
        Binding("k", "scroll(-1)", show=False, id="up"),
    ]

    def __init__(self, view: ResourceActions, row: Row) -> None:
        super().__init__()
        self.view = view  # (the list's actions part: `ResourceView`)
        self.row = row
        self.resource: Resource | None = None
        self.is_gone = False  # the resource no longer exists: nothing is offered on it

    def compose(self) -> ComposeResult:
        yield Label("", id="detail-title")
        with TabbedContent(id="detail-tabs"):
            with TabPane("Fields", id="tab-fields"):
                with VerticalScroll():
                    yield Static(id="fields")
            with TabPane("JSON", id="tab-json"):
                with VerticalScroll():
                    yield Static(id="json")
            for i, panel in enumerate(self.view.kind.panels):  # the kind's extra tabs (events, metrics…)
                with TabPane(panel.title, id=f"tab-panel-{i}"):
                    yield self._panel(panel)
        yield StatusBar()  # the profile in use, PRODUCTION first (main's, on every screen)
        yield KeyBar()

    def _panel(self, panel: DetailPanel) -> Widget:
        from ...products.kit.base import Lazy, ParentRef

        scope = self.view.kind.scope_of(self.row) or self.view.scope
        if panel.kind is not None:  # a child list of this resource, refreshed like any list
            parent = ParentRef.of(self.row, scope, up=getattr(self.view.service, "parent", None))
            return self.app.list_view(Lazy[Any](panel.kind).get(), scope, parent)
        if panel.chart is not None:  # its metrics, drawn
            from ..widgets.metrics_chart import MetricsChart

            return MetricsChart(self.view.service, scope, self.row, panel.chart, policy=self.app.policy)
        if panel.tree is not None:  # its topology, drawn as a tree
            from ..widgets.tree_panel import TreePanel

            return TreePanel(self.view.service, scope, self.row, panel.tree, policy=self.app.policy)
        assert panel.widget is not None  # (a panel is exactly one of the four: `DetailPanel`)
        return Lazy[Any](panel.widget).get()(self.view.service, scope, self.row)

    def on_mount(self) -> None:
        self._title(f"loading {self.named}…")
        for scroll in self.query("#tab-fields VerticalScroll").results():  # none if closed while mounting
            scroll.focus()
        self.reload()

    @work(exclusive=True, group="detail", exit_on_error=False)
    async def reload(self) -> None:
        view = self.view
        try:
            if not view.kind.reading.item.fetch:
                resource = view.kind.reading.item.model.get().model_validate(self.row.data)
            else:
                resource = await view.service.get_detail(view.kind.scope_of(self.row) or view.scope, self.row.id)
        except Exception as err:
            from ...api.errors import NotFound
            from ..errors import notify_error

            if isinstance(err, NotFound):
                self.gone()
            else:
                notify_error(self.app, err, f"Loading {self.named}")
                self._not_loaded(err)
            return
        self.show(resource)

    def _not_loaded(self, err: BaseException) -> None:
        """The load failed: the title says so (never "loading…" for ever). Nothing is made up from
        the list's row (it may carry fewer fields than the object: "none" would be a wrong fact)."""
        from ...api.errors import as_api_error

        self._title(f"not loaded ({as_api_error(err).label}) · r retries")
        if self.resource is None:
            self.query_one("#fields", Static).update(
                Text("Not loaded: r tries again; esc goes back to the list.", style="dim")
            )

    @property
    def named(self) -> str:
        """What the operator calls it: the kind's label (a record unnamed at the zone's root is `@ A …`),
        else its name, else its id."""
        return self.view.kind.named(self.row)

    def _parent_named(self) -> str:
        parent = getattr(self.view.service, "parent", None)
        return f"{clean(parent.name or parent.id)} › " if parent is not None else ""

    def _title(self, note: str = "") -> None:
        kind = self.view.kind
        ident = f"  {self.row.id}  " if self.named != self.row.id else "  "  # an id said once
        self.query_one("#detail-title", Label).update(
            # a child's list names its parent (`example.com › Records`): its details do too
            Text.assemble(
                (f" {kind.product} › {self._parent_named()}{kind.title} › ", "bold"),
                (self.named, "bold"),
                ident,
                (note, "dim"),
            )
        )

    def _credentials(self) -> dict[str, str]:
        """Credentials inside URLs of the object (masked everywhere else), by field."""
        from ...api.safe import credentials

        return credentials(self.resource.raw if self.resource is not None else self.row.data)

    def action_secrets(self) -> None:
        """Secret fields the platform answered for this resource (shown once), and credentials
        inside its URLs: masked until v, copied with y."""
        from ..action_runner import reveal_once

        reveal_once(self.view, self.row, self._credentials())
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "secrets":
            return bool(self.view.service.secrets.get(self.row.id)) or bool(self._credentials())
        if action == "resource" and parameters and parameters[0] in ("actions", "edit", "delete"):
            return not self.is_gone and self.view.may(str(parameters[0]))
        return True

    def show(self, resource: Resource) -> None:
        self.resource = resource
        raw = getattr(resource, "raw", None)
        if isinstance(raw, dict):  # the header names what was read, not the list's older row (renamed since)
            fresh = self.view.kind.row_maker(self.view.kind.scope_of(self.row) or self.view.scope)(raw)
            if fresh.id == self.row.id:
                self.row = fresh
        if self.is_gone:
            self.is_gone = False
            self.refresh_bindings()
        kind = self.view.kind
        self._title()
        self.refresh_bindings()  # x: the object may hold a credential to reveal
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column(overflow="fold")  # a long address wraps whole
        for label, get in kind.detail_fields:
            try:
                value = get(resource)
            except Exception:  # a field of an unexpected shape must not hide the others
                value = "?"
            table.add_row(label, value if isinstance(value, Text) else Text(str(value)))
        self.query_one("#fields", Static).update(table)
        text = json.dumps(resource.raw, indent=2, sort_keys=True, ensure_ascii=False)
        self.query_one("#json", Static).update(
            Syntax(text, "json", theme="ansi_dark", word_wrap=True, background_color="default")
        )

    def gone(self) -> None:
        self.is_gone = True
        gone = f" {self.named} no longer exists: below, as it was last seen"
        self.query_one("#detail-title", Label).update(Text(gone, style="bold red"))
        self.add_class("-gone")
        self.refresh_bindings()

    def action_toggle_view(self) -> None:
        """Fields → JSON → the kind's extra tabs → fields."""
        tabs = self.query_one(TabbedContent)
        panes = [pane.id for pane in tabs.query(TabPane) if pane.id]
        tabs.active = panes[(panes.index(tabs.active) + 1) % len(panes)] if tabs.active in panes else panes[0]
        pane = self.query_one(f"#{tabs.active}")
        views = pane.query("ResourceView")
        drawn = pane.query("MetricsChart, TreePanel")
        if views:
            views.first().focus_table()  # type: ignore[attr-defined]  # (a ResourceView, found by its name)
        elif drawn:
            drawn.first().focus()
        else:
            pane.query("VerticalScroll").first().focus()

    def action_scroll(self, lines: int) -> None:
        tabs = self.query_one(TabbedContent)
        for scroll in self.query(f"#{tabs.active} VerticalScroll"):
            scroll.scroll_relative(y=lines, animate=False)

    def on_key(self, event: events.Key) -> None:
        if self.view.refuse_read_only(event.key):  # e / d in read-only mode: say why nothing happens
            event.stop()
        elif not self.is_gone and self.view.run_own_keyed(event.key, self.row, self.active_bindings):
            event.stop()  # a command of the operator's own, on this resource (as its key does in the list)

    def action_resource(self, what: str) -> None:
        if self.is_gone and what in ("actions", "edit", "delete"):
            return
        if what == "refresh_one":
            self.reload()
        self.view.act_on(what, self.row)

    def action_copy_json(self) -> None:
        from ...products.kit.export import resource_json

        self.app.copy_to_clipboard(resource_json(self.row).decode("utf-8"))
        self.notify("Copied its JSON.", timeout=3)

    def action_export(self) -> None:
        self.run_worker(self._export(), group="export", exclusive=True, exit_on_error=False)

    async def _export(self) -> None:
        from ...products.kit import export, files
        from ..flow_ui import ViewFlowUI

        named = str(self.row.name or self.row.id or "resource").replace("/", "-")
        content = export.resource_json(self.row)
        await files.save_bytes(
            ViewFlowUI(self.view, self.view.scope), f"Save {named} as JSON", content, f"{named}.json"
        )
