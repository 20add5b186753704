"""The console: product sidebar, one ResourceView per kind (created on first use), status bar."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import ContentSwitcher

from ...products import KINDS, BY_ID
from ...products.base import ALL, ResourceKind
from ..widgets.key_bar import KeyBar
from ..widgets.resource_view import ResourceView, scope_label
from ..widgets.sidebar import Sidebar
from ..widgets.status_bar import StatusBar


def view_id(kind: ResourceKind) -> str:
    return "view-" + kind.id.replace(".", "-")


class MainScreen(Screen[None]):
    BINDINGS = [
        Binding("z", "zone", "Zone", tooltip="Choose a zone or all zones"),
    ]

    def __init__(self, make_view: Callable[[ResourceKind, str], ResourceView], zone: str) -> None:
        super().__init__(id="main")
        self.make_view = make_view
        self.zone = zone
        self.current_kind: ResourceKind = KINDS[0]

    def compose(self) -> ComposeResult:
        entries: list[tuple[str | None, str]] = []
        product = None
        for kind in KINDS:
            if kind.product != product:
                product = kind.product
                entries.append((None, product))
            entries.append((kind.id, kind.nav or kind.title))
        with Horizontal(id="body"):
            yield Sidebar(entries, id="sidebar")
            # The first view is composed with the screen (not mounted after it): one layout pass
            # and a first frame that already shows its rows.
            with ContentSwitcher(id="views", initial=view_id(self.current_kind)):
                yield self.make_view(self.current_kind, self.zone)
        yield StatusBar(id="status")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(Sidebar).border_title = "Products"
        self.open_kind(self.current_kind.id)

    @property
    def view(self) -> ResourceView | None:
        found = self.query(ContentSwitcher)
        if not found:  # not composed yet
            return None
        switcher = found.first()
        return switcher.get_child_by_id(switcher.current, ResourceView) if switcher.current else None

    def open_kind(self, kind_id: str) -> None:
        kind = BY_ID[kind_id]
        self.current_kind = kind
        switcher = self.query_one(ContentSwitcher)
        vid = view_id(kind)
        if not switcher.query(f"#{vid}"):
            switcher.mount(self.make_view(kind, self.zone))
        switcher.current = vid
        self.query_one(Sidebar).select(kind.id)
        self.call_after_refresh(self._focus_view)
        self.update_status()

    def on_screen_resume(self) -> None:
        if self.focused is None:  # e.g. a modal opened before the table took the focus
            self.call_after_refresh(self._focus_view)

    def _focus_view(self) -> None:
        if self.view is not None:
            self.view.focus_table()

    def on_sidebar_selected(self, event: Sidebar.Selected) -> None:
        if event.kind_id in BY_ID:
            self.open_kind(event.kind_id)

    def set_scope(self, scope: str) -> None:
        self.zone = scope
        if self.view is not None:
            self.view.set_scope(scope)
        self.update_status()

    def action_zone(self) -> None:
        from .picker import PickerScreen

        zones = list(self.current_kind.scopes)
        choices: list[tuple[str, Any]] = [("all zones", ALL)] + [(z, z) for z in zones]

        def picked(zone: str | None) -> None:
            if zone:
                self.set_scope(zone)

        self.app.push_screen(PickerScreen("Zone", choices, current=self.zone, id="zone-picker"), picked)

    def refresh_current(self) -> None:
        if self.view is not None:
            self.view.reload()

    def create_current(self) -> None:
        if self.view is not None:
            self.view.action_create()

    def on_resource_view_refreshed(self, event: ResourceView.Refreshed) -> None:
        self.update_status()

    def update_status(self) -> None:
        bar = self.query_one(StatusBar)
        app: Any = self.app
        bar.profile = app.settings.profile
        bar.project = app.settings.project_id
        bar.read_only = app.settings.read_only
        view = self.view
        bar.scope = f"{self.current_kind.product} · {scope_label(view.scope if view else self.zone)}"
        if view is not None and view.last_refresh is not None:
            bar.refreshed = datetime.fromtimestamp(view.last_refresh).strftime("%H:%M:%S")


