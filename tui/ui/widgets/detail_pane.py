"""The detail of the row under the cursor, beside the list (below it on a narrow terminal): its kind's
declared detail fields that the row the list holds has, so moving down a list reads each row's details without
a request or a screen of its own. It follows the cursor a moment after it stops (a held key draws the
pane once), keeps what it drew by row (a row read again is a new object: drawn again), and `enter`
still opens the full detail. Nothing here names a product; values are shown as text, never markup."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, overload

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from ...api.safe import clean
from ..console_app import console_of

if TYPE_CHECKING:
    from textual import events
    from textual.app import ComposeResult
    from textual.css.query import DOMQuery, QueryType
    from textual.geometry import Size
    from textual.timer import Timer
    from textual.widget import Widget
    from textual.widgets import Input

    from ...products.kit.base import ResourceKind, Row
    from ...products.kit.declared import Field
    from ..app import CloudApp
    from .panel_view import PanelView
    from .resource_table import ResourceTable
    from .resource_view import ResourceView

FOLLOW = 0.08  # seconds the cursor rests before the pane follows it
KEPT = 256  # rows' texts kept (the most recent), so going back up costs nothing


class DetailPane(VerticalScroll, can_focus=False):
    DEFAULT_CSS = """
    DetailPane { width: 1fr; height: 1fr; border: round $primary-darken-2; padding: 0 1; display: none; }
    DetailPane.-shown { display: block; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._kept: dict[int, Text] = {}  # id(row) -> its text
        self._rows: dict[int, Row] = {}  # id(row) -> row: a row kept keeps its id from being reused
        self._due: Timer | None = None
        self.shown_row: Row | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="pane-body", markup=False)

    def follow(self, kind: ResourceKind, row: Row | None) -> None:
        """The row under the cursor: drawn a moment after the cursor rests."""
        if self._due is not None:
            self._due.stop()
        self._due = self.set_timer(FOLLOW, lambda: self.show(kind, row))

    def show(self, kind: ResourceKind, row: Row | None) -> None:
        self._due = None
        self.shown_row = row
        if row is None:
            self.border_title = ""
            self.query_one("#pane-body", Static).update("")
            return
        text = self._kept.get(id(row))
        if text is None or self._rows.get(id(row)) is not row:
            text = _text_of(kind, row)
            if len(self._kept) >= KEPT:
                oldest = next(iter(self._kept))
                self._kept.pop(oldest)
                self._rows.pop(oldest, None)
            self._kept[id(row)], self._rows[id(row)] = text, row
        self.border_title = clean(kind.named(row))
        self.query_one("#pane-body", Static).update(text)
        self.scroll_home(animate=False)


def _text_of(kind: ResourceKind, row: Row) -> Text:
    """The kind's declared fields the row holds, one per key and line: its title, then the value as the
    detail reads it, or as the list's column does when only the column's reading is in the row (a
    server's state, its address); a column reading what a detail field reads, or titled as one that says
    something, is left to it (a backend's "Sticky" beside its "Sticky sessions", a cache's endpoints as
    the column sums them up beside them all); what the list does not keep is the full detail's (`enter`)."""
    out, done = Text(), set()
    said = [g for g in kind.fields if g.detail and _line(g, row) is not None]
    read, titled = {g.path for g in said if g.path}, {g.title for g in said}  # (said once)
    for f in kind.fields:
        if f.key in done or (not f.detail and (f.path in read or f.title in titled)):
            continue
        for g in sorted((g for g in kind.fields if g.key == f.key), key=lambda g: not g.detail):
            line = _line(g, row)
            if line is not None:
                done.add(f.key)
                out.append(f"{clean(g.title)}: ", style="bold")
                out.append_text(line)
                out.append("\n")
                break
    return out


def _line(field: Field, row: Row) -> Text | None:
    """The field's line: as the detail reads it, else as its column does (a detail's own reading that
    needs the full object, or a field only a column shows); None when neither says anything."""
    if field.path and not field.values(row):
        # nothing there; a computed value of a key the row holds, empty, still says something (`@`: no name)
        computed = field.show is not None or callable(field.detail)
        if not computed or field.path.split(".")[0] not in row.data:
            return None
    # a reference only a column shows reads here as a detail does: its name, or its whole id (the column's
    # cut one is neither: walk 23)
    shown_here = field.detail or field.role == "ref"
    readings = ([field.shown] if shown_here else []) + ([field.cell] if field.width is not None else [])
    for read in readings or [field.cell]:
        try:
            value = read(row)
        except Exception:  # a computed value that needs the full object: the full detail shows it
            continue
        text = str(value if value is not None else "")
        line = value if isinstance(value, Text) else Text(clean(text, keep_newlines=True))  # lines stay lines
        if line.plain.strip():
            return line
    return None


PANE_BESIDE = 110  # columns from which the detail pane stands beside the list (below it, narrower)


class PaneHost:
    """A screen whose list has the detail pane (in `#area`, beside the list or below it): `p` shows or
    hides it for the session, on every list (the main screen's and a child list's alike), and it
    follows the cursor of the list in front. Mixed into the screen, which gives `view`."""

    app: CloudApp
    size: Size

    if TYPE_CHECKING:  # the screen's (`MainScreen`, `ChildScreen`; Textual's `Screen`)

        @property
        def view(self) -> ResourceView | PanelView | None: ...

        @overload
        def query(self, selector: str | None = None) -> DOMQuery[Widget]: ...

        @overload
        def query(self, selector: type[QueryType]) -> DOMQuery[QueryType]: ...

        def query(self, selector: str | type[QueryType] | None = None) -> DOMQuery[Widget] | DOMQuery[QueryType]: ...

    def action_toggle_pane(self) -> None:
        console = console_of(self)
        if console is not None:
            console.pane_shown = not console.pane_shown
        self.pane_apply()

    def pane_apply(self) -> None:
        """The pane as the session wants it (another screen may have switched it meanwhile)."""
        found = self.query(DetailPane)
        if found:
            console = console_of(self)
            found.first().set_class(console is not None and console.pane_shown, "-shown")
            self._pane_fits()
            self._pane_follows(now=True)

    def on_resource_table_highlighted(self, event: ResourceTable.Highlighted) -> None:
        self._pane_follows()

    def on_resize(self, event: events.Resize) -> None:
        self._pane_fits()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "filter":  # the cursor may now be on another row than the one shown
            self._pane_follows()

    def _pane_fits(self) -> None:
        """Beside the list on a wide terminal, below it on a narrow one."""
        for area in self.query("#area"):
            area.set_class(self.size.width < PANE_BESIDE, "-stacked")

    def _pane_follows(self, now: bool = False) -> None:
        found = self.query(DetailPane)
        view = self.view
        if not found or not found.first().has_class("-shown") or view is None or not view.is_mounted:
            return
        pane, table = found.first(), getattr(view, "table", None)
        row = table.get(table.cursor_key) if table is not None and table.cursor_key else None
        if now:
            pane.show(view.kind, row)
        else:
            pane.follow(view.kind, row)
