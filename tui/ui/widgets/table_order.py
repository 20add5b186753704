"""How the resource table orders its rows: the filter (a row's text, kept per row), the sort (a
value per row, kept until the row changes; numbers before text, ties by key), and the positions
of the ordered keys. A mixin of `ResourceTable`, which calls `_ensure_order` before it reads the
order; ordering runs only when rows, the sort or the filter changed since."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from rich.text import Text
from textual.geometry import Size

from ... import stages
from ...products.kit.base import Column

if TYPE_CHECKING:
    from rich.style import Style

    from ...products.kit.base import Row

    SortValue = tuple[int, float, str]  # (0 a number, 1 a text, EMPTY nothing; the number; the text)


def _plain(cell: str | Text) -> str:
    return cell.plain if isinstance(cell, Text) else str(cell)


EMPTY = 2  # a sort value's rank when the cell holds nothing: after numbers (0) and text (1)


class TableOrder:
    """Ordering for `ResourceTable` (its `_rows`, `_columns`, `_sort`, `_filter`, `_order`, `_pos`,
    `_dirty`, the caches `_search` and `_sorted_by`, and the cursor it keeps on its row)."""

    # The table's (`ResourceTable`, and its other parts):
    _rows: dict[str, Row]
    _columns: tuple[Column, ...]
    _sort: tuple[str, bool] | None
    _filter: str
    _order: list[str]
    _pos: dict[str, int] | None
    _dirty: bool
    _search: dict[str, str]  # key -> lowercased text, built when filtering
    _sorted_by: dict[str, tuple[int, float, str, str]]  # key -> its sort value and the key, built when sorting
    _cursor: int
    _cursor_key: str | None
    _base_style: Style | None

    if TYPE_CHECKING:

        def _resize(self, size: Size) -> None: ...

        def _row_width(self) -> int: ...

        def _sync_cursor_key(self) -> None: ...

    def _sort_column(self) -> tuple[int, Column] | None:
        if not self._sort:
            return None
        for i, col in enumerate(self._columns):
            if col.key == self._sort[0]:
                return i, col
        return None

    def _sort_value(self, row: Row, col: Column | None = None) -> SortValue:
        """The row's value in the sorted column (`col`, when the caller found it once for many rows)."""
        if col is None:
            found = self._sort_column()
            if found is None:
                return (1, 0.0, "")
            _, col = found
        if col.sort_key is not None:
            value = col.sort_key(row)
            # Numbers in numeric order (9 before 10), before any text; all keys compare, whatever their types.
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value == value:
                return (0, float(value), "")
            text = "" if value is None else str(value).lower()
        else:
            text = _plain(col.value(row)).lower()
        return (1, 0.0, text) if text else (EMPTY, 0.0, "")  # what holds nothing sorts last

    def _row_text(self, row: Row) -> str:
        return " ".join(_plain(c.value(row)) for c in self._columns).lower() + " " + row.id

    def _text_of(self, key: str) -> str:
        text = self._search.get(key)
        if text is None:
            text = self._search[key] = self._row_text(self._rows[key])
        return text

    def _matches(self, row: Row) -> bool:
        exact = self._exact()
        return exact(row) if exact is not None else self._filter in self._row_text(row)

    def _exact(self) -> Callable[[Row], bool] | None:
        """`state=stopped`, or `KEY=value` for a column shown: the rows whose state, or that column's text,
        is exactly that (what the overview opens a list with); None for a filter that is text to find."""
        key, eq, want = self._filter.partition("=")
        if not eq or not key or " " in key:
            return None
        if key == "state":
            return lambda row: str(row.state or "").lower() == want
        column = next((c for c in self._columns if c.key.lower() == key), None)
        if column is None:
            return None
        return lambda row: _plain(column.value(row)).lower() == want

    def _ensure_order(self) -> None:
        if not self._dirty:
            return
        if self._base_style is not None:  # while drawing: counted there
            self._order_rows()
            return
        started = stages.clock()
        self._order_rows()
        stages.SPENT["table"] += stages.clock() - started

    def _order_rows(self) -> None:
        self._dirty = False
        rows = self._rows
        found = self._sort_column()
        sorting = found is not None
        if sorting and self._order:
            # The last order first, then the rows it lacks: the sort below then merges one long
            # sorted run with a few new rows (linear), instead of sorting every row again each
            # time a page arrives. Correct whatever the last order was (another column, a filter).
            had = set(self._order)
            keys = [k for k in self._order if k in rows]
            keys.extend(k for k in rows if k not in had)
        else:
            keys = list(rows)
        exact = self._exact() if self._filter else None
        if exact is not None:
            keys = [k for k in keys if exact(rows[k])]
        elif self._filter:
            needle = self._filter
            keys = [k for k in keys if needle in self._text_of(k)]
        if sorting:
            # Sort values, with the key for ties, are kept between orderings (a row's is dropped
            # when it changes): while a sorted list loads, each ordering computes only the new rows'.
            assert found is not None  # (`sorting`)
            values, col = self._sorted_by, found[1]
            for k in keys:
                if k not in values:
                    values[k] = (*self._sort_value(rows[k], col), k)
            reverse = self._sort[1] if self._sort else False
            keys.sort(key=values.__getitem__, reverse=reverse)
            if reverse:  # what holds nothing last in either direction (linear: one pass)
                keys = [k for k in keys if values[k][0] != EMPTY] + [k for k in keys if values[k][0] == EMPTY]
        self._order = keys
        self._pos = None
        self._resize(Size(self._row_width(), len(keys) + 1))
        # Keep the cursor on the same resource when it is still shown.
        if self._cursor_key is not None and self._cursor_key in self._positions():
            self._cursor = self._positions()[self._cursor_key]
        else:
            self._cursor = min(self._cursor, max(len(keys) - 1, 0))
        self._sync_cursor_key()

    def _positions(self) -> dict[str, int]:
        if self._pos is None:
            self._pos = {k: i for i, k in enumerate(self._order)}
        return self._pos
