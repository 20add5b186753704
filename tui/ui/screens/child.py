"""A child list on a screen of its own: a resource's users, backends, tags, records.

The view is an ordinary ResourceView of the child kind, its service bound to the parent; `esc`
goes back to the parent's list, which stops refreshing while this one is in front.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Label

from ...api.safe import clean
from .. import styles
from ..widgets.detail_pane import DetailPane, PaneHost
from ..widgets.key_bar import KeyBar
from ..widgets.status_bar import StatusBar

if TYPE_CHECKING:
    from ..app import CloudApp
    from ..widgets.resource_view import ResourceView


class ChildScreen(PaneHost, Screen[None]):
    app: CloudApp
    view: ResourceView  # the child list
    CSS_PATH = styles.DIALOGS
    BINDINGS = [
        Binding("escape", "back", "Back", id="back"),
        Binding(
            "p",
            "toggle_pane",
            "Pane",
            show=False,
            tooltip="The detail of the row under the cursor, beside it",
            id="toggle_pane",
        ),
        Binding(
            "F",
            "app.fill_index",
            "Index all",
            show=False,
            tooltip="List every product once, for the palette",
            id="fill_index",
        ),
    ]

    def __init__(self, view: ResourceView) -> None:
        super().__init__(classes="child-screen")
        self.view = view

    def compose(self) -> ComposeResult:
        parent, kind = self.view.service.parent, self.view.kind
        chain: list[str] = []  # the parents, outermost first: a tag list says its namespace and its image
        while parent is not None:
            chain.insert(0, clean(parent.name or parent.id))
            parent = parent.up
        if chain and chain[0].lower() == kind.product.lower():  # the product's own page (a singleton): said once
            chain.pop(0)
        yield Breadcrumb(kind.product, chain, kind.title, id="detail-title")
        with Horizontal(id="area"):  # the list, and the detail pane beside it (or below)
            yield self.view
            yield DetailPane(id="pane")
        yield StatusBar()  # the profile in use, PRODUCTION first (main's, on every screen)
        yield KeyBar()

    def on_mount(self) -> None:
        self.view.focus_table()
        self.call_after_refresh(self.pane_apply)

    def on_resource_view_refreshed(self, event: ResourceView.Refreshed) -> None:
        self._pane_follows(now=True)  # the row read again: its new values
        refreshed = self.view.refreshed_at()
        if refreshed is not None:  # the list's refresh, as on the main screen
            from datetime import datetime

            self.query_one(StatusBar).refreshed = datetime.fromtimestamp(refreshed).strftime("%H:%M:%S")

    def action_back(self) -> None:
        # esc first clears a filter being typed (the view's own binding); then it goes back, asking
        # first when the list holds staged changes not sent (they would be lost)
        from ..widgets.staged import SENDING, sending, unsent, unsent_words

        if sending([self]):  # leaving would hide the answer (and the changes it leaves staged)
            self.app.notify(SENDING, title="Sending", timeout=6)
            return
        if not unsent([self]):
            self.app.pop_screen()
            return
        from .confirm import ConfirmScreen

        def answered(drop: bool | None) -> None:
            if drop:
                self.app.pop_screen()

        self.app.push_screen(
            ConfirmScreen(
                "Drop the staged changes?",
                f"This list holds {unsent_words(unsent([self]))}: w reviews and sends them. "
                "Drop them, or go back to them.",
                "Drop",
            ),
            answered,
        )


class Breadcrumb(Label):
    """` Product › parent › list`, on one line: a parent's name too long for it is cut with `…` (the
    longest first), so the list's own title always shows."""

    SHORTEST = 8  # characters a parent's name keeps, `…` included

    def __init__(self, product: str, chain: list[str], title: str, **kw: Any) -> None:
        super().__init__(**kw)
        self.product, self.chain, self.title_text = product, chain, title

    def line(self, width: int) -> Text:
        chain = list(self.chain)

        def text() -> Text:
            parents = " › ".join(chain) + " › " if chain else ""
            return Text.assemble((f" {self.product} › ", "bold"), (parents, "bold"), self.title_text)

        while width > 0 and cell_len(text().plain) > width and any(len(c) > self.SHORTEST for c in chain):
            at = max(range(len(chain)), key=lambda i: len(chain[i]))
            keep = max(len(chain[at]) - (cell_len(text().plain) - width), self.SHORTEST)
            chain[at] = chain[at][: keep - 1] + "…"
        return text()

    def render(self) -> Text:
        return self.line(self.content_size.width)
