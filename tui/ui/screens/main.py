"""The console: the manifest's views in a sidebar, one view per entry (made on first use), status bar.

The operator's current zone and current region are kept apart (`scopes`, one per scope type) and
follow them from view to view; `z` picks the scope of the view in front, worded by its type, and is
gone for global views.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Callable, cast

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import ContentSwitcher

from ...products import manifest
from ...products.kit.location import ALL, SCOPES, scope_label, scope_word
from ..widgets.detail_pane import DetailPane, PaneHost
from ..widgets.key_bar import KeyBar
from ..widgets.sidebar import Sidebar
from ..widgets.status_bar import StatusBar

if TYPE_CHECKING:
    from ...api.journal import Entry
    from ...products.kit.base import ResourceKind
    from ..app import CloudApp
    from ..widgets.panel_view import PanelView
    from ..widgets.resource_view import ResourceView

ROWS_KEPT = 10_000  # rows the views out of sight may keep between them, the most recently shown first


def view_id(entry_id: str) -> str:
    return "view-" + entry_id.replace(".", "-")


class MainScreen(PaneHost, Screen[None]):
    app: CloudApp
    # The view in front takes the focus as the screen shows (not the sidebar, first in the DOM, until
    # the next refresh): the first frame shows the table's keys, and a key typed as the rows appear
    # reaches the table. A panel's scroll is composed a refresh later: _focus_view focuses it then.
    AUTO_FOCUS = "#views ResourceTable, #views #panel-scroll"
    BINDINGS = [
        # One key, worded by the scope type of the view in front (only the matching one is active).
        Binding("z", "scope('zone')", "Zone", tooltip="Choose the zone of this view, or all zones", id="scope_zone"),
        Binding(
            "z",
            "scope('region')",
            "Region",
            tooltip="Choose the region of this view, or all regions",
            id="scope_region",
        ),
        Binding(
            "F",
            "fill_index",
            "Index all",
            show=False,
            tooltip="List every product once, for the palette's search",
            id="fill_index",
        ),
        Binding(
            "O",
            "overview",
            "Overview",
            show=False,
            tooltip="Every list read, by state, with costs, what is watched and the last failures",
            id="overview",
        ),
        Binding(
            "A",
            "advisor",
            "Advisor",
            show=False,
            tooltip="What needs attention across products: waste, open doors, what breaks soon",
            id="advisor",
        ),
        Binding(
            "p",
            "toggle_pane",
            "Pane",
            show=False,
            tooltip="The detail of the row under the cursor, beside the list",
            id="toggle_pane",
        ),
        Binding(
            "b",
            "toggle_sidebar",
            "Sidebar",
            show=False,
            tooltip="Hide the sidebar (the list takes the whole width), or show it",
            id="toggle_sidebar",
        ),
    ]

    def __init__(
        self, make_view: Callable[[manifest.Entry, str], ResourceView | PanelView], scopes: dict[str, str]
    ) -> None:
        super().__init__(id="main")
        self.make_view = make_view
        self.scopes = dict(scopes)  # scope type -> the operator's current scope of that type
        self.current_entry: manifest.Entry = manifest.start_entry()
        self._views: set[str] = set()  # the views made (mounted, or on their way): each entry's once
        self._recent: list[str] = []  # the views shown, the last first (`_keep_few`)

    @property
    def current_kind(self) -> ResourceKind | None:
        """The kind of the view in front (a list's or a panel's), or None for another screen."""
        view = self.view
        return getattr(view, "kind", None)

    def scope_for(self, entry: manifest.Entry, kind: ResourceKind | None = None) -> str:
        if entry.scope_type == "global":
            return "global"
        current = self.scopes.get(entry.scope_type, ALL)
        if kind is None:
            return current
        app = self.app
        return app.scope_for(kind, current)

    def compose(self) -> ComposeResult:
        entries: list[tuple[str | None, str]] = []
        sections: set[int] = set()
        section, group = None, None
        for entry in manifest.entries():
            if entry.section and entry.section != section:
                section, group = entry.section, None
                sections.add(len(entries))
                entries.append((None, section))
            if entry.group != group:
                group = entry.group
                entries.append((None, group))
            entries.append((entry.id, entry.label))
        first = self.current_entry
        with Horizontal(id="body"):
            yield Sidebar(entries, sections=sections, id="sidebar")
            with Horizontal(id="area"):  # the views, and the detail pane beside them (or below)
                # The first view is composed with the screen (not mounted after it): one layout pass
                # and a first frame that already shows its rows.
                with ContentSwitcher(id="views", initial=view_id(first.id)):
                    self._views.add(view_id(first.id))
                    yield self.make_view(first, self.scope_for(first, first.load()))
                yield DetailPane(id="pane")
        yield StatusBar(id="status")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(Sidebar).border_title = "Products"
        self.open_entry(self.current_entry.id)
        if self.app.pane_shown:  # on for the session (a console started again for a profile)
            self.call_after_refresh(self.pane_apply)
        self.app.journal.listeners.append(self._journal_changed)

    def on_unmount(self) -> None:
        if self._journal_changed in self.app.journal.listeners:
            self.app.journal.listeners.remove(self._journal_changed)

    def _journal_changed(self, entry: Entry) -> None:
        """The changes on their way, said in the status bar while they are (walk 22: a slow delete showed
        nothing for four seconds, and the same act was offered again meanwhile)."""
        waiting = self.app.journal.in_flight()
        more = f" and {len(waiting) - 1} more" if len(waiting) > 1 else ""
        self.query_one(StatusBar).sending = f"sending {waiting[0]}{more}…" if waiting else ""

    @property
    def view(self) -> ResourceView | PanelView | None:
        found = self.query(ContentSwitcher)
        if not found:  # not composed yet
            return None
        switcher = found.first()
        return cast(  # (what `make_view` made)
            "ResourceView | PanelView | None", switcher.get_child_by_id(switcher.current) if switcher.current else None
        )

    def go_to_entry(self, entry_id: str) -> None:
        """The palette's jump to an entry: from wherever the operator is (a child list, a detail)."""
        if self.bring_to_front():
            self.open_entry(entry_id)

    def bring_to_front(self) -> bool:
        """Bring this screen to the front (the palette may jump from a child list or a detail), unless
        a list above holds staged changes not sent: then say so, and stay (False)."""
        stack = self.app.screen_stack
        above = stack[stack.index(self) + 1 :] if self in stack else []
        if not above:
            return True
        from ..widgets.staged import SENDING, sending, unsent, unsent_words

        if sending(above):
            self.app.notify(SENDING, title="Sending", timeout=6)
            return False
        held = unsent(above)
        if held:
            self.app.notify(
                f"{unsent_words(held)[0].upper()}{unsent_words(held)[1:]}: send them (w) or drop them (esc) first.",
                severity="warning",
                timeout=8,
            )
            return False
        for _ in above:
            self.app.pop_screen()
        return True

    def open_kind(self, entry_id: str) -> None:  # the palette's and the tests' word for it
        self.open_entry(entry_id)

    def open_entry(self, entry_id: str) -> None:
        entry = manifest.by_id(entry_id)
        if entry is None:
            return
        if entry.opens == "screen":
            self.app.push_screen(entry.load()(self.app))
            return
        if entry.opens == "chat":  # one conversation per entry, kept for the session
            name = f"chat:{entry.id}"
            if not self.app.is_screen_installed(name):
                from .chat import ChatScreen

                spec = entry.load()
                self.app.install_screen(ChatScreen(spec, lambda: self.app.client_for(spec.endpoint)), name)
            self.app.push_screen(name)
            return
        self.current_entry = entry
        switcher = self.query_one(ContentSwitcher)
        vid = view_id(entry.id)
        if vid not in self._views:  # (not "not in the DOM": the first view, composed, may not be yet)
            self._views.add(vid)
            switcher.mount(self.make_view(entry, self.scope_for(entry, entry.load())))
        if not switcher.query(f"#{vid}"):
            # The view composed with the screen is attached by the switcher, after this screen's
            # mount: a second one made meanwhile broke the switcher (DuplicateIds), and every key
            # that passes through it waited there for good (the console deaf to esc, q, ?).
            self.call_after_refresh(self.open_entry, entry_id)
            return
        switcher.current = vid
        self._keep_few(switcher, vid)
        view = self.view
        if view is not None and entry.scope_type != "global":  # the scope followed the operator
            wanted = self.scope_for(entry, view.kind)
            if view.scope != wanted:
                view.set_scope(wanted)
        self.query_one(Sidebar).select(entry.id)
        self.call_after_refresh(self._focus_view)
        self.call_after_refresh(self._pane_follows, True)
        self.refresh_bindings()
        self.update_status()

    def _keep_few(self, switcher: ContentSwitcher, shown: str) -> None:
        """Memory stays near one large list's whatever was visited: out of sight, the views shown last
        keep their rows while they hold ROWS_KEPT between them; the others give them back (`release`),
        to be listed again when shown. Going back and forth between small lists stays instant."""
        self._recent = [shown, *(v for v in self._recent if v != shown)]
        held = 0
        for vid in self._recent[1:]:
            found = switcher.query(f"#{vid}")
            rows_held = getattr(found.first(), "rows_held", None) if found else None
            if rows_held is None:  # a panel: little to give back
                continue
            held += rows_held()
            if held > ROWS_KEPT:
                found.first().release()  # type: ignore[attr-defined]  # (a list: it has `rows_held`)

    def on_screen_resume(self) -> None:
        self.pane_apply()  # a child list's p may have switched it meanwhile
        if self.focused is None:  # e.g. a modal opened before the table took the focus
            self.call_after_refresh(self._focus_view)

    def _focus_view(self) -> None:
        if self.view is not None:
            self.view.focus_table()

    def on_sidebar_selected(self, event: Sidebar.Selected) -> None:
        self.open_entry(event.kind_id)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "scope":
            return bool(parameters) and self.current_entry.scope_type == parameters[0]
        return True

    def set_scope(self, scope: str, scope_type: str | None = None) -> None:
        """The operator's scope of a type (default: the type of the view in front) is now `scope`;
        the view in front follows when it is of that type."""
        scope_type = scope_type or self.current_entry.scope_type
        if scope_type == "global":
            return
        self.scopes[scope_type] = scope
        view = self.view
        if view is not None and self.current_entry.scope_type == scope_type:
            view.set_scope(self.scope_for(self.current_entry, view.kind))
        self.update_status()

    def action_toggle_sidebar(self) -> None:
        sidebar = self.query_one(Sidebar)
        sidebar.display = not sidebar.display
        if not sidebar.display:
            self._focus_view()

    def action_zone(self) -> None:
        self.action_scope(self.current_entry.scope_type)

    def action_scope(self, scope_type: str) -> None:
        from .picker import PickerScreen

        entry, kind = self.current_entry, self.current_kind
        if entry.scope_type != scope_type:
            return
        scopes = list(kind.all_scopes if kind is not None else SCOPES[entry.scope_type])
        choices: list[tuple[str, str]] = [(scope_label(ALL, entry.scope_type), ALL)] + [(s, s) for s in scopes]

        def picked(scope: str | None) -> None:
            if scope:
                self.set_scope(scope, entry.scope_type)

        current = self.view.scope if self.view is not None else self.scopes.get(entry.scope_type)
        self.app.push_screen(
            PickerScreen(scope_word(entry.scope_type), choices, current=current, id="zone-picker"), picked
        )

    def refresh_current(self) -> None:
        if self.view is not None:
            self.view.reload()

    def create_current(self) -> None:
        if self.view is not None and hasattr(self.view, "action_create"):
            self.view.action_create()

    def on_resource_view_refreshed(self, event: ResourceView.Refreshed) -> None:
        self.update_status()
        if event.view is self.view:
            self._pane_follows(now=True)  # the row read again: its new values

    # ---- the detail pane ------------------------------------------------------------------------
    def on_panel_view_refreshed(self, event: PanelView.Refreshed) -> None:
        self.update_status()

    def action_overview(self) -> None:
        from .overview import OverviewScreen

        self.app.push_screen(OverviewScreen())

    def action_advisor(self) -> None:
        from .advisor import AdvisorScreen

        self.app.push_screen(AdvisorScreen())

    def action_fill_index(self) -> None:
        self.app.finder.fill()

    def watching(self, text: str) -> None:
        """How many resources are watched, said in the status bar while any is."""
        self.query_one(StatusBar).watching = text

    def doing(self, text: str) -> None:
        """Work under way across the console, said in the status bar until it is over."""
        self.query_one(StatusBar).doing = text

    def update_status(self) -> None:
        bar = self.query_one(StatusBar)
        app = self.app
        bar.profile = app.settings.profile
        bar.project = app.settings.project_id
        bar.read_only = app.settings.read_only
        bar.production = app.settings.production
        bar.note = "⚠ no log kept (folder not writable)" if app.log_problem else ""
        view, entry = self.view, self.current_entry
        where = (
            ""
            if entry.scope_type == "global"
            else " · " + scope_label(view.scope if view else self.scopes.get(entry.scope_type, ALL), entry.scope_type)
        )
        bar.scope = f"{entry.group}{where}"
        refreshed = view.refreshed_at() if view is not None else None
        if refreshed is not None:
            bar.refreshed = datetime.fromtimestamp(refreshed).strftime("%H:%M:%S")
