"""The resource table: rows keyed by resource id, a keyed diff on every update, cursor kept.

Its interface is deliberately small (columns, replace/upsert/remove by key, filter, sort, cursor
key, two messages) so that its internals can be swapped for a faster renderer without touching
the views. Today it wraps Textual's DataTable with fixed column widths.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget
from textual.widgets import DataTable

from ...products.base import Column


class _Grid(DataTable):
    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
        Binding("g", "scroll_top", "Top", show=False),
        Binding("G", "scroll_bottom", "Bottom", show=False),
    ]


def _plain(cell: Any) -> str:
    return cell.plain if isinstance(cell, Text) else str(cell)


class ResourceTable(Widget):
    """A table of resources. Keys are resource ids; cells come from the kind's columns."""

    DEFAULT_CSS = """
    ResourceTable { height: 1fr; }
    ResourceTable > DataTable { height: 1fr; }
    """

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
        self._all: dict[str, Any] = {}
        self._cells: dict[str, tuple[Any, ...]] = {}
        self._text: dict[str, str] = {}
        self._shown: list[str] = []
        self._filter = ""
        self._sort: tuple[str, bool] | None = None

    def compose(self) -> ComposeResult:
        yield _Grid(cursor_type="row", zebra_stripes=False, id="grid")

    @property
    def grid(self) -> DataTable:
        return self.query_one(_Grid)

    def focus(self, scroll_visible: bool = True) -> "ResourceTable":
        self.grid.focus(scroll_visible)
        return self

    # ---- the interface ------------------------------------------------------------------------
    def set_columns(self, columns: Sequence[Column]) -> None:
        self._columns = tuple(columns)
        grid = self.grid
        grid.clear(columns=True)
        for col in self._columns:
            grid.add_column(col.title, key=col.key, width=col.width)
        self._shown = []
        self._cells = {k: self._render_row(r) for k, r in self._all.items()}
        self._apply()

    def replace(self, resources: Iterable[Any]) -> None:
        """Make the table hold exactly these resources (a keyed diff, not a rebuild)."""
        new = {r.id: r for r in resources}
        for key in list(self._all):
            if key not in new:
                self._forget(key)
        self._store(new.values())
        self._apply()

    def upsert(self, resources: Iterable[Any]) -> None:
        self._store(resources)
        self._apply()

    def remove(self, keys: Iterable[str]) -> None:
        for key in keys:
            self._forget(key)
        self._apply()

    def clear(self) -> None:
        self._all.clear()
        self._cells.clear()
        self._text.clear()
        self._apply()

    def set_filter(self, text: str) -> None:
        self._filter = text.strip().lower()
        self._apply()

    def sort_by(self, column_key: str | None, reverse: bool = False) -> None:
        self._sort = (column_key, reverse) if column_key else None
        self._apply()

    @property
    def sort_state(self) -> tuple[str, bool] | None:
        return self._sort

    @property
    def cursor_key(self) -> str | None:
        grid = self.grid
        if not self._shown or grid.cursor_row < 0 or grid.cursor_row >= len(self._shown):
            return None
        return self._shown[grid.cursor_row]

    def move_to(self, key: str) -> bool:
        if key in self._shown:
            self.grid.move_cursor(row=self._shown.index(key))
            return True
        return False

    def get(self, key: str) -> Any | None:
        return self._all.get(key)

    def resources(self) -> list[Any]:
        return list(self._all.values())

    @property
    def loaded_count(self) -> int:
        return len(self._all)

    @property
    def visible_count(self) -> int:
        return len(self._shown)

    @property
    def shown_keys(self) -> list[str]:
        return list(self._shown)

    # ---- internals ----------------------------------------------------------------------------
    def _render_row(self, resource: Any) -> tuple[Any, ...]:
        return tuple(col.value(resource) for col in self._columns)

    def _store(self, resources: Iterable[Any]) -> None:
        for r in resources:
            self._all[r.id] = r
            cells = self._render_row(r)
            self._cells[r.id] = cells
            self._text[r.id] = " ".join(_plain(c) for c in cells).lower() + " " + r.id

    def _forget(self, key: str) -> None:
        self._all.pop(key, None)
        self._cells.pop(key, None)
        self._text.pop(key, None)

    def _desired(self) -> list[str]:
        keys = [k for k in self._all if not self._filter or self._filter in self._text[k]]
        if self._sort:
            col_key, reverse = self._sort
            col = next((c for c in self._columns if c.key == col_key), None)
            if col is not None:
                idx = self._columns.index(col)
                if col.sort_key is not None:
                    keys.sort(key=lambda k: (str(col.sort_key(self._all[k])), k), reverse=reverse)
                else:
                    keys.sort(key=lambda k: (_plain(self._cells[k][idx]).lower(), k), reverse=reverse)
        return keys

    def _apply(self) -> None:
        if not self.is_mounted:
            return
        grid = self.grid
        desired = self._desired()
        old_key = self.cursor_key
        old_row = grid.cursor_row
        with self.app.batch_update():
            keep = set(desired)
            if [k for k in self._shown if k in keep] != desired:
                # Rows were added or reordered: lay them out again.
                grid.clear()
                for key in desired:
                    grid.add_row(*self._cells[key], key=key)
            else:  # only removals and cell changes: touch just those
                for key in self._shown:
                    if key not in keep:
                        grid.remove_row(key)
                for key in desired:
                    for col, value in zip(self._columns, self._cells[key]):
                        if grid.get_cell(key, col.key) != value:
                            grid.update_cell(key, col.key, value)
            self._shown = desired
            if old_key is not None and old_key in desired:
                grid.move_cursor(row=desired.index(old_key), animate=False)
            elif desired:
                grid.move_cursor(row=min(max(old_row, 0), len(desired) - 1), animate=False)

    # ---- events -------------------------------------------------------------------------------
    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self.post_message(self.Highlighted(self, event.row_key.value if event.row_key else None))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if event.row_key and event.row_key.value:
            self.post_message(self.Selected(self, event.row_key.value))
