"""How the resource table draws a line: cells of fixed width, the row's style (cursor, marked),
a cell's own colour mapped to the theme, and a cache of drawn rows keyed by the row's version.
A mixin of `ResourceTable`, which holds the rows, their order and the cursor."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.color import Color as TextualColor
from textual.geometry import Region
from textual.strip import Strip

from ... import stages

if TYPE_CHECKING:
    from typing import Self

    from textual.cache import LRUCache
    from textual.geometry import Offset, Size
    from textual.timer import Timer, TimerCallback

    from ...products.kit.base import Column, Row
    from ..app import CloudApp

    Cell = str | Text  # what a column's value is
    DrawnKey = tuple[str, int, bool, bool, int]  # a line drawn: its row's key and version, cursor, focus, tick

PAD = 1  # blank cells on each side of a column
MARK = "●"  # drawn in the first column's pad of a marked row (one cell, like PAD)
CURSOR_ALARM = Style(reverse=False, underline=True, bold=True)


class TableDrawing:
    """Drawing for `ResourceTable` (its `_columns`, `_order`, `_rows`, `_cursor`, `marked`, the
    caches `_strips`, `_styles`, `_header`, `_version`)."""

    # The table's (`ResourceTable`; Textual's `ScrollView`):
    app: CloudApp
    _columns: tuple[Column, ...]
    _order: list[str]
    _rows: dict[str, Row]
    _cursor: int
    marked: set[str]
    _version: dict[str, int]
    _strips: LRUCache[DrawnKey, tuple[Strip, tuple[str, ...]]]
    _drawn: LRUCache[str, tuple[str, ...]]
    _styles: dict[str | Style, Style]
    _header: Strip | None
    _tick: int
    _render_failed: bool
    scroll_offset: Offset
    scrollable_content_region: Region
    size: Size
    rich_style: Style
    has_focus: bool

    if TYPE_CHECKING:

        def refresh(
            self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
        ) -> Self: ...

        def set_interval(
            self,
            interval: float,
            callback: TimerCallback | None = None,
            *,
            name: str | None = None,
            repeat: int = 0,
            pause: bool = False,
        ) -> Timer: ...

        def get_component_rich_style(
            self, *names: str, partial: bool = False, default: Style | None = None
        ) -> Style: ...

        def _ensure_order(self) -> None: ...

    _base_style: Style | None = None
    AGES_EVERY = 5.0  # seconds between drawings of the ages and times left a row shows ("47 s", "in 3 d")

    def on_mount(self) -> None:  # Textual calls each class's own handler along the MRO
        self.set_interval(self.AGES_EVERY, self._ages_move_on)

    def _ages_move_on(self) -> None:
        """The cells on screen whose text moved on with the time (an age, a time left) are drawn again,
        all at once, so rows drawn at different moments do not disagree; only those cells are written
        (`textual_fixes`: Textual wrote a line from the table's edge), and a line whose text is as drawn
        is left alone: nothing is written to the terminal while nothing visible changes."""
        if not self._order:
            return
        top, height = int(self.scroll_offset.y), self.scrollable_content_region.height
        width, sideways = self.size.width, bool(self.scroll_offset.x)
        moved = []
        for y in range(1, height):
            index = top + y - 1
            if index >= len(self._order):
                break
            key = self._order[index]
            row = self._rows.get(key)
            drawn = self._drawn.get(key)
            if row is None or drawn == (now := _texts([c.value(row) for c in self._columns])):
                continue
            start, stop = (0, width) if sideways or drawn is None else self._span_of(drawn, now)
            moved.append(Region(start, y, min(stop, width) - start, 1))
        if moved:
            self._tick += 1  # (a line's drawing is cached by it: those drawn again are drawn with the time now)
            self.refresh(*moved)

    def _span_of(self, drawn: tuple[str, ...], now: tuple[str, ...]) -> tuple[int, int]:
        """The cells [start, stop) of a row (not scrolled sideways) from its first column whose text
        differs to its last."""
        edges, x = [], 0
        for col, a, b in zip(self._columns, drawn, now):
            stop = x + (col.width or 12) + 2 * PAD
            if a != b:
                edges.append((x, stop))
            x = stop
        return (edges[0][0], edges[-1][1]) if edges else (0, x)

    def _row_width(self) -> int:
        return sum((c.width or 12) + 2 * PAD for c in self._columns)

    def _cell_style(self, style: str | Style) -> Style:
        """A cell's Text style with named colours mapped to the theme's (green → $success, …):
        named ANSI colours would be resolved through the theme on every draw."""
        found = self._styles.get(style)
        if found is None:
            parsed = Style.parse(style) if isinstance(style, str) else style
            theme = self.app.theme_variables
            name = parsed.color.name if parsed.color is not None else None
            mapped = {"green": theme.get("success"), "yellow": theme.get("warning"), "red": theme.get("error")}.get(
                name or ""
            )
            found = parsed
            if mapped:
                try:  # theme colours may be Textual names ("ansi_green") that Rich does not parse
                    found = parsed + Style(color=TextualColor.parse(mapped).rich_color)
                except Exception:
                    found = parsed
            self._styles[style] = found
        return found

    def _cells_strip(self, cells: Sequence[Cell], base: Style, marked: bool = False, cursor: bool = False) -> Strip:
        segments: list[Segment] = []
        for i, (col, cell) in enumerate(zip(self._columns, cells)):
            width = col.width or 12
            if isinstance(cell, Text):
                own = self._cell_style(cell.style) if cell.style else None
                if own is not None and cursor and own.reverse:
                    # A cell that stands out by reverse video (an alarm) would vanish into the cursor's
                    # own (grey on grey without colour): on the cursor row it is underlined instead.
                    own = own + CURSOR_ALARM
                style = base + own if own is not None else base
                text = cell.plain
            else:
                style, text = base, str(cell)
            lead = MARK if marked and i == 0 else " " * PAD  # a mark takes the first column's left pad
            segments.append(Segment(lead + fit(text, width) + " " * PAD, style))
        # cells of one style joined: the terminal is sent a style's codes once a run, not once a cell (a
        # line's escapes were most of the bytes a scrolling key wrote)
        return Strip(segments, self._row_width()).simplify()

    def _sticky_width(self) -> int:
        """The cells that stay in place when the table scrolls sideways: the first column, with a
        narrow mark column before it (a staged change's) kept too."""
        width = 0
        for col in self._columns:
            width += (col.width or 12) + 2 * PAD
            if (col.width or 12) >= 6:
                break
        return width

    def _header_strip(self) -> Strip:
        if self._header is None:
            style = self.get_component_rich_style("resource-table--header")
            self._header = self._cells_strip([c.title for c in self._columns], style)
        return self._header

    def render_lines(self, crop: Region) -> list[Strip]:
        # The widget's base style walks its ancestors (0.1 ms): once per repaint, not once per line.
        started = stages.clock()
        self._base_style = self.rich_style
        try:
            return super().render_lines(crop)  # type: ignore[misc]  # (a mixin: ScrollView's own, after it)
        finally:
            self._base_style = None
            stages.SPENT["table"] += stages.clock() - started

    def render_line(self, y: int) -> Strip:
        """A line of the table; a failure here (a bug, an odd value) draws a blank line and says so
        once, instead of stopping the widget (Textual ends a widget whose render raises)."""
        try:
            return self._render_line(y)
        except Exception as err:
            if not self._render_failed:
                self._render_failed = True
                from ..errors import report_bug

                report_bug(self.app, err, "Drawing the table")
            return Strip.blank(self.scrollable_content_region.width, self.rich_style)

    def _render_line(self, y: int) -> Strip:
        self._ensure_order()
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        base = self._base_style or self.rich_style
        if y == 0:
            strip = self._header_strip()
        else:
            index = scroll_y + y - 1
            if index >= len(self._order):
                return Strip.blank(width, base)
            key = self._order[index]
            is_cursor = index == self._cursor
            focused = self.has_focus
            cache_key = (key, self._version.get(key, 0), is_cursor, focused, self._tick)
            kept = self._strips.get(cache_key)
            if kept is not None:  # drawn before, with the texts it was drawn with: what the line shows again
                strip, texts = kept
                if self._drawn.get(key) != texts:
                    self._drawn.discard(key)
                    self._drawn[key] = texts
            else:
                marked = key in self.marked
                if is_cursor:
                    style = base + self.get_component_rich_style(
                        "resource-table--cursor" if focused else "resource-table--cursor-blurred"
                    )
                elif marked:
                    style = base + self.get_component_rich_style("resource-table--marked")
                else:
                    style = base
                row = self._rows[key]
                cells = [c.value(row) for c in self._columns]
                texts = _texts(cells)
                self._drawn.discard(key)  # (Textual's LRUCache keeps the first value set for a key)
                self._drawn[key] = texts
                strip = self._cells_strip(cells, style, marked, is_cursor)
                self._strips[cache_key] = (strip, texts)
        return self._in_view(strip, scroll_x, width, base, header=y == 0)

    def _in_view(self, strip: Strip, scroll_x: int, width: int, base: Style, header: bool) -> Strip:
        """The part of a drawn row on screen. Scrolled sideways, the first column (the name) stays in
        place and the others move under it. A row cut by an edge says so: a value cut mid-text shows
        "…" at that edge, and the header shows "←" / "→" while columns lie beyond it."""
        sticky = self._sticky_width()
        end = scroll_x + width
        left = sticky if scroll_x and width > sticky * 2 else 0  # where the scrolled part starts on screen
        if left:
            line = Strip.join([strip.crop(0, sticky), strip.crop_extend(sticky + scroll_x, end, base)])
        else:
            line = strip.crop_extend(scroll_x, end, base)
        if width < 2:
            return line
        if left and left < width:
            line = self._edge(line, strip, left, sticky + scroll_x, "←", header, base)
        if end < strip.cell_length:
            line = self._edge(line, strip, width - 1, end - 1, "→", header, base)
        return line

    def _cell_bounds(self, x: int) -> tuple[int, int]:
        """The cells [start, end) of the column drawn at cell `x` of a row."""
        start = 0
        for col in self._columns:
            stop = start + (col.width or 12) + 2 * PAD
            if x < stop:
                return start, stop
            start = stop
        return start, start

    def _edge(self, line: Strip, strip: Strip, at: int, x: int, arrow: str, header: bool, base: Style) -> Strip:
        """`line` with the cell at `at` (the row's cell `x`, the last one shown before an edge) marked:
        an arrow in the header, "…" in a row whose value there runs on past the edge."""
        style: Style | None  # (a segment's may be None)
        if header:
            mark, style = arrow, base
        else:
            start, stop = self._cell_bounds(x)
            hidden = strip.crop(start, x) if arrow == "←" else strip.crop(x + 1, stop)
            if not hidden.text.strip():
                return line  # the edge falls between values
            mark, style = "…", next(iter(line.crop(at, at + 1)), Segment(" ", base)).style
        marked = Strip.join([line.crop(0, at), Strip([Segment(mark, style)]), line.crop(at + 1, line.cell_length)])
        return marked.simplify()  # the mark joins the run of its style (its own codes were a tenth of a narrow line)

    def notify_style_update(self) -> None:
        super().notify_style_update()  # type: ignore[misc]  # (a mixin: ScrollView's own, after it)
        self._header = None
        self._styles.clear()
        self._strips.clear()
        self._render_failed = False


def _texts(cells: Sequence[Cell]) -> tuple[str, ...]:
    return tuple(c.plain if isinstance(c, Text) else str(c) for c in cells)


def fit(text: str, width: int) -> str:
    """`text` in exactly `width` cells: padded, or cut with an ellipsis so that a cut value (an
    address, a name) is never read as whole."""
    if len(text) <= width and cell_len(text) <= width:
        return text + " " * (width - cell_len(text))
    return set_cell_size(text, width - 1) + "…" if width > 1 else set_cell_size(text, width)
