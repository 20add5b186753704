"""The resource table: a virtual table that renders only the rows on screen.

Rows are keyed by resource id. Updating one row costs one dict write and the repaint of the lines
on screen; no cell is measured (columns have fixed widths), so 50,000 rows cost what 40 do to draw.
Order (filter + sort) is recomputed only when membership, the sort, the filter, or a sorted/filtered
value changes. The interface is small — columns, replace/upsert/remove by key, filter, sort, cursor
key, two messages — so views never depend on how rows are drawn.

Cells come from the kind's columns: a `str`, or a Rich `Text` whose overall style is applied (its
spans are not, which keeps drawing cheap).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Sequence

from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Region
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ... import stages
from ...products.kit.base import Column
from .table_drawing import TableDrawing
from .table_order import TableOrder
from .table_paint import TablePaint

if TYPE_CHECKING:
    from ...products.kit.base import Row
    from ..app import CloudApp
    from .table_drawing import DrawnKey

FEW_ROWS = 4  # rows changed in place on screen that are repainted at once, line by line
SIDEWAYS = 8  # cells a ← or → scrolls the table (the first column stays in place)


class ResourceTable(TableOrder, TablePaint, TableDrawing, ScrollView, can_focus=True):
    """A table of resources (anything with an `id`). Cells come from `Column.value(row)`."""

    app: CloudApp

    COMPONENT_CLASSES = {
        "resource-table--header",
        "resource-table--cursor",
        "resource-table--cursor-blurred",
        "resource-table--marked",
    }
    DEFAULT_CSS = """
    /* no horizontal scrollbar: the header's ← → say what lies beyond (a bar showed as a stray cell) */
    ResourceTable { height: 1fr; background: $surface; scrollbar-size-horizontal: 0; }
    ResourceTable > .resource-table--header { text-style: bold; background: $panel; color: $text; }
    ResourceTable > .resource-table--cursor {
        background: $block-cursor-background; color: $block-cursor-foreground; text-style: bold;
    }
    ResourceTable > .resource-table--cursor-blurred { background: $block-cursor-blurred-background; }
    ResourceTable > .resource-table--marked { text-style: bold; color: $accent; }
    """
    BINDINGS = [
        Binding("up,k", "cursor(-1)", "Up", show=False, id="up"),
        Binding("down,j", "cursor(1)", "Down", show=False, id="down"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="page_up"),
        Binding("pagedown", "page(1)", "Page down", show=False, id="page_down"),
        Binding("home,g", "jump(0)", "Top", show=False, id="top"),
        Binding("end,G", "jump(-1)", "Bottom", show=False, id="bottom"),
        Binding("left", "sideways(-1)", show=False, id="left"),
        Binding("right", "sideways(1)", show=False, id="right"),
        Binding("ctrl+pageup", "page_left", "Page left", show=False, id="page_left"),  # Textual's, with an id
        Binding("ctrl+pagedown", "page_right", "Page right", show=False, id="page_right"),
        Binding("enter", "select", "Open", show=False, id="select"),
    ]

    class Highlighted(Message):
        def __init__(self, table: "ResourceTable", key: str | None) -> None:
            super().__init__()
            self.table = table
            self.key = key

    class Selected(Message):
        def __init__(self, table: "ResourceTable", key: str) -> None:
            super().__init__()
            self.table = table
            self.key = key

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._columns: tuple[Column, ...] = ()
        self._rows: dict[str, Row] = {}
        self._version: dict[str, int] = {}
        self._order: list[str] = []
        self._pos: dict[str, int] | None = None
        self._dirty = False
        self._filter = ""
        self._search: dict[str, str] = {}  # key -> lowercased text, built when filtering
        self._sorted_by: dict[str, tuple[int, float, str, str]] = {}  # key -> its sort value, built when sorting
        self._sort: tuple[str, bool] | None = None
        self._cursor = 0
        self._cursor_key: str | None = None
        self._strips: LRUCache[DrawnKey, tuple[Strip, tuple[str, ...]]] = LRUCache(512)  # a line, and its texts
        self._header: Strip | None = None
        self._styles: dict[str | Style, Style] = {}
        self._render_failed = False
        self._tick = 0  # ages ("47 s") move on: a line whose text changed is drawn again each AGES_EVERY seconds
        self._drawn: LRUCache[str, tuple[str, ...]] = LRUCache(1024)  # key -> the texts its line was drawn with
        self.marked: set[str] = set()  # rows marked to act on together (drawn with a ● before them)
        self.rows_changed = 0  # counts every change of the rows held (what an index of them compares)

    # ---- the interface ------------------------------------------------------------------------
    @property
    def columns(self) -> tuple[Column, ...]:
        """The columns shown (a kind's, less those its scope hides)."""
        return self._columns

    def set_columns(self, columns: Sequence[Column]) -> None:
        if self._columns and tuple(columns) != self._columns and self.scroll_x:
            self.scroll_to(x=0, animate=False)  # scrolled sideways over other columns: from the start again
        self._columns = tuple(columns)
        self._header = None
        self._strips.clear()
        self._search.clear()
        self._sorted_by.clear()
        self._changed(order=True)

    def replace(self, rows: Iterable[Row]) -> None:
        """Make the table hold exactly these rows (a keyed diff, not a rebuild)."""
        new = {r.id: r for r in rows}
        gone = [k for k in self._rows if k not in new]
        for key in gone:
            self._forget(key)
        stored = self._rows
        changed = [r for k, r in new.items() if stored.get(k) is not r]  # rows already held are skipped
        added = any(k not in stored for k in new)
        if changed or gone:
            self._store(changed, force_order=bool(gone))
        if added and list(self._rows) != list(new):  # a row created elsewhere sits where the API puts it, not last
            self._rows = {k: self._rows[k] for k in new}
            self._changed(order=True)

    def upsert(self, rows: Iterable[Row], *, first: bool = False) -> None:
        """Store these rows; new ones go last, or `first` (a list whose API shows the newest first)."""
        rows = list(rows)
        new = [r.id for r in rows if r.id not in self._rows] if first else []
        self._store(rows)
        if new:
            self._rows = {**{k: self._rows[k] for k in new}, **self._rows}
            self._changed(order=True)

    # (a `RowSink`'s remove: it hides Textual's `Widget.remove()`, which cannot take this table out)
    def remove_rows(self, keys: Iterable[str]) -> None:
        removed = False
        for key in keys:
            if key in self._rows:
                self._forget(key)
                removed = True
        if removed:
            self._changed(order=True)

    def clear(self) -> None:
        self.rows_changed += 1
        self.marked.clear()
        self._rows.clear()
        self._version.clear()
        self._search.clear()
        self._sorted_by.clear()
        self._strips.clear()
        self._changed(order=True)

    def set_filter(self, text: str) -> None:
        self._filter = text.strip().lower()
        self._changed(order=True)

    def sort_by(self, column_key: str | None, reverse: bool = False) -> None:
        if not self._sort or self._sort[0] != column_key:
            self._sorted_by.clear()
        self._sort = (column_key, reverse) if column_key else None
        self._changed(order=True)

    @property
    def sort_state(self) -> tuple[str, bool] | None:
        return self._sort

    @property
    def cursor_key(self) -> str | None:
        self._ensure_order()
        return self._cursor_key

    @property
    def cursor_row(self) -> int:
        """The cursor's position in the order shown (0 = the first row under the header)."""
        self._ensure_order()
        return self._cursor

    def move_to(self, key: str) -> bool:
        self._ensure_order()
        pos = self._positions().get(key)
        if pos is None:
            return False
        self._set_cursor(pos)
        return True

    def get(self, key: str) -> Row | None:
        return self._rows.get(key)

    def toggle_mark(self, key: str) -> bool:
        """Mark or unmark a row; whether it is marked now. Marks survive refreshes and re-sorts,
        and go with the row when it is gone."""
        if key in self.marked:
            self.marked.discard(key)
        elif key in self._rows:
            self.marked.add(key)
        self._bump(key)
        return key in self.marked

    def clear_marks(self) -> None:
        for key in list(self.marked):
            self.marked.discard(key)
            self._bump(key)

    def marked_rows(self) -> list[Row]:
        """The marked rows, in the order shown (filtered-out marked rows come last)."""
        self._ensure_order()
        shown = [self._rows[k] for k in self._order if k in self.marked]
        hidden = [self._rows[k] for k in self.marked if k in self._rows and k not in self._positions()]
        return shown + hidden

    def _bump(self, key: str) -> None:
        if key in self._version:
            self._version[key] += 1  # its cached line is drawn again
            self.refresh()

    def resources(self) -> list[Row]:
        return list(self._rows.values())

    @property
    def loaded_count(self) -> int:
        return len(self._rows)

    @property
    def visible_count(self) -> int:
        if not self._filter:  # every row is shown: no need to order them (a sorted list's title, per page)
            return len(self._rows)
        self._ensure_order()
        return len(self._order)

    @property
    def shown_keys(self) -> list[str]:
        self._ensure_order()
        return list(self._order)

    # ---- data ---------------------------------------------------------------------------------
    def _store(self, rows: Iterable[Row], force_order: bool = False) -> None:
        self.rows_changed += 1
        started = stages.clock()
        self._store_rows(rows, force_order)
        stages.SPENT["table"] += stages.clock() - started

    def _store_rows(self, rows: Iterable[Row], force_order: bool) -> None:
        # Runs for every row of every page of a listing: attributes are read once.
        reorder = force_order
        first_line = int(self.scroll_y)
        last_line = first_line + self._body_height() if self.is_mounted else 0
        visible = False  # did anything on screen change?
        lines: list[int] | None = []  # the screen lines of rows changed in place, while they are few
        stored, version, search, order = self._rows, self._version, self._search, self._order
        sorted_by = self._sorted_by
        ordered = bool(self._sort or self._filter)
        appendable = not ordered and not self._dirty  # new rows go at the end, no re-layout
        for row in rows:
            key = row.id
            old = stored.get(key)
            stored[key] = row
            version[key] = version.get(key, 0) + 1
            if search:
                search.pop(key, None)
            was = sorted_by.pop(key, None) if sorted_by else None  # its sort value as last ordered, if known
            if old is None:
                lines = None  # a new row: the table's size changes too
                if appendable and not reorder:
                    order.append(key)  # the common case while loading
                    n = len(order) - 1
                    if self._pos is not None:
                        self._pos[key] = n
                    if not visible and n <= last_line:
                        visible = True
                else:
                    reorder = True
            elif not reorder and ordered and self._affects_order(old, row, was):
                reorder = True
            elif not visible or lines is not None:
                pos = self._positions().get(key)
                if pos is not None and first_line <= pos <= last_line:
                    visible = True
                    if lines is not None:
                        lines.append(pos - first_line + 1)  # below the header
                        lines = lines if len(lines) <= FEW_ROWS else None
        if not reorder and self._cursor_key is None and self._order:
            self._sync_cursor_key()
        if lines and not reorder and self.is_mounted:
            # A few rows changed in place on screen (an operator's own act, a watched server): those
            # lines now, not the throttled repaint of a listing's pages (up to PAINT_EVERY late).
            width = self.scrollable_content_region.width
            self.refresh(*(Region(0, y, width, 1) for y in lines))
            return
        self._changed(order=reorder, repaint=reorder or visible)

    def _affects_order(self, old: Row, new: Row, was: tuple[int, float, str, str] | None = None) -> bool:
        """Whether a row changed in a way that moves it (`was`: its kept sort value, which spares
        working the old one out again: thousands of rows staged at once)."""
        if self._sort and (was[:-1] if was is not None else self._sort_value(old)) != self._sort_value(new):
            return True
        return bool(self._filter) and self._matches(old) != self._matches(new)

    def _forget(self, key: str) -> None:
        self.rows_changed += 1
        self.marked.discard(key)
        for kept in (self._rows, self._version, self._search, self._sorted_by):
            kept.pop(key, None)

    # ---- cursor -------------------------------------------------------------------------------
    def _sync_cursor_key(self) -> None:
        key = self._order[self._cursor] if self._order else None
        if key != self._cursor_key:
            self._cursor_key = key
            self.post_message(self.Highlighted(self, key))

    def _set_cursor(self, index: int) -> None:
        self._ensure_order()
        if not self._order:
            return
        was = self._cursor
        self._cursor = max(0, min(index, len(self._order) - 1))
        self._sync_cursor_key()
        if self._scroll_to_cursor() or not self.is_mounted:
            self.refresh()
        else:  # only the two rows whose look changed: the rest of the screen is not drawn again
            top, width = int(self.scroll_y), self.scrollable_content_region.width
            self.refresh(*(Region(0, i - top + 1, width, 1) for i in {was, self._cursor}))

    def _body_height(self) -> int:
        return max(1, self.scrollable_content_region.height - 1)

    def _scroll_to_cursor(self) -> bool:
        """Scroll so the cursor's row is shown; whether it scrolled."""
        top = int(self.scroll_y)
        height = self._body_height()
        if self._cursor < top:
            self.scroll_to(y=self._cursor, animate=False, immediate=True)
            return True
        if self._cursor >= top + height:
            self.scroll_to(y=self._cursor - height + 1, animate=False, immediate=True)
            return True
        return False

    def action_cursor(self, delta: int) -> None:
        self._set_cursor(self._cursor + delta)

    def action_page(self, direction: int) -> None:
        self._set_cursor(self._cursor + direction * self._body_height())

    def action_jump(self, where: int) -> None:
        self._set_cursor(0 if where == 0 else len(self._order) - 1)

    def action_sideways(self, direction: int) -> None:
        """← →: SIDEWAYS cells at a time, as the dialogs scroll (one cell a key took 40 keys to a far column)."""
        self.scroll_to(x=max(0, self.scroll_x + direction * SIDEWAYS), animate=False)

    def action_select(self) -> None:
        key = self.cursor_key
        if key is not None:
            self.post_message(self.Selected(self, key))

    def on_click(self, event: events.Click) -> None:
        if event.y >= 1:
            self._set_cursor(int(self.scroll_y) + event.y - 1)

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def on_resize(self) -> None:
        self._scroll_to_cursor()
