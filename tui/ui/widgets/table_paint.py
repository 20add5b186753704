"""When the resource table repaints: a few rows changed on screen at once, a listing's pages together
a few times a second, rows out of sight only as a scrollbar move, with no layout pass. A mixin of
`ResourceTable`, which holds the rows (`_rows`), their order (`_dirty`) and draws them."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from textual.geometry import Size

if TYPE_CHECKING:
    from typing import Self

    from textual.css.styles import RenderStyles
    from textual.geometry import Region
    from textual.scrollbar import ScrollBar
    from textual.timer import Timer, TimerCallback

    from ...products.kit.base import Row

SIZE_EVERY = 0.25  # seconds between scrollbar updates while rows arrive out of sight
PAINT_EVERY = 0.1  # seconds between repaints caused by changed rows (a refresh, rows changed together)
# Seconds between repaints while a listing's pages arrive: each may reorder a sorted table and
# redraw every line on screen (~20 ms for 10,000 rows here); its first page and its last are drawn at once.
PAINT_WHILE_LISTING = 0.3


class TablePaint:
    """Repaint throttling for `ResourceTable`."""

    # The table's (`ResourceTable`, and its other parts; Textual's `ScrollView`):
    _rows: dict[str, Row]
    _dirty: bool
    is_mounted: bool
    container_size: Size
    styles: RenderStyles
    show_vertical_scrollbar: bool
    show_horizontal_scrollbar: bool

    if TYPE_CHECKING:

        @property
        def virtual_size(self) -> Size: ...

        @virtual_size.setter
        def virtual_size(self, size: Size) -> None: ...

        @property
        def vertical_scrollbar(self) -> ScrollBar: ...

        @property
        def horizontal_scrollbar(self) -> ScrollBar: ...

        def refresh(
            self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
        ) -> Self: ...

        def set_timer(
            self, delay: float, callback: TimerCallback | None = None, *, name: str | None = None, pause: bool = False
        ) -> Timer: ...

        def set_reactive(self, reactive: object, value: object) -> None: ...

        def _row_width(self) -> int: ...

    _size_pending = False
    _painted = 0.0  # when rows last changed what is on screen
    _paint_pending = False
    _listing = False

    @property
    def listing(self) -> bool:
        """Whether a listing's pages are arriving (set by the view around them)."""
        return self._listing

    @listing.setter
    def listing(self, on: bool) -> None:
        self._listing = on
        if on:
            self._painted = 0.0  # its first page is drawn at once
        elif self._paint_pending:
            self._deferred_paint()  # and its last, without waiting for the interval

    def _changed(self, order: bool, repaint: bool = True) -> None:
        """Rows changed. Lines are repainted only when something on screen may differ: rows
        appended below the view, or updated out of sight, only move the scrollbar. Changes that
        follow one another (the pages of a listing) repaint at most every PAINT_EVERY seconds
        (PAINT_WHILE_LISTING while a listing's pages arrive): the first at once, the others
        together at the end of that interval."""
        if order:
            self._dirty = True
        if repaint:
            now = time.monotonic()
            every = PAINT_WHILE_LISTING if self._listing else PAINT_EVERY
            if now - self._painted >= every or not self.is_mounted:
                self._painted = now
                self._apply_size()
                self.refresh()
            elif not self._paint_pending:
                self._paint_pending = True
                self.set_timer(self._painted + every - now, self._deferred_paint)
        elif not self._size_pending and self.is_mounted:
            # Only the scrollbar would change: moved a few times a second at most.
            self._size_pending = True
            self.set_timer(SIZE_EVERY, self._apply_size)

    def _deferred_paint(self) -> None:
        if not self._paint_pending:  # already painted (a listing's end)
            return
        self._paint_pending = False
        self._painted = time.monotonic()
        self._apply_size()
        self.refresh()

    def _apply_size(self) -> None:
        self._size_pending = False
        self._resize(Size(self._row_width(), len(self._rows) + 1))  # upper bound until laid out

    def _resize(self, size: Size) -> None:
        """Set the table's virtual size (rows × row width). A change Textual lays the whole screen out
        for (~10 ms at 120×40, several times as a listing's pages arrive), though a table's own size
        does not follow its rows: only its scrollbar moves. While no scrollbar comes or goes (each
        threshold Textual's scrollbars are decided by falls the same way), the size is set and the
        scrollbars told, with no layout pass."""
        old = self.virtual_size
        if size == old:
            return
        width, height = self.container_size
        gutter_v, gutter_h = self.styles.scrollbar_size_vertical, self.styles.scrollbar_size_horizontal
        same = (
            self.is_mounted
            and width > 0
            and height > 0
            and all((size.width > w) == (old.width > w) for w in (width, width - gutter_v))
            and all((size.height > h) == (old.height > h) for h in (height, height - gutter_h))
        )
        if not same:
            self.virtual_size = size  # a layout pass: a scrollbar shows or hides
            return
        self.set_reactive(type(self).virtual_size, size)
        if self.show_vertical_scrollbar:
            self.vertical_scrollbar.window_virtual_size = size.height
        if self.show_horizontal_scrollbar:
            self.horizontal_scrollbar.window_virtual_size = size.width
