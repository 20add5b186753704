"""Read-only lines to scroll through (a diff to review): only the lines on screen are drawn, so
opening 2,000 lines costs what opening 20 does. A Static inside a VerticalScroll renders every line
up front — 37 ms for a 100-line review on this machine, over two frames — which is the measured
reason for this widget.

Each line is (text, style). The text is cleaned of control, bidirectional and zero-width
characters and never parsed as markup. A line wider than the view is wrapped (its continuation
indented), so nothing of what is reviewed hides past the edge; the wrapping is redone when the
width changes, from the lines as given.
"""

from __future__ import annotations

from rich.cells import cell_len, chop_cells
from rich.segment import Segment
from rich.style import Style
from textual.events import Resize
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ...api.safe import clean

INDENT = "    "  # a wrapped line's continuation


class TextLines(ScrollView, can_focus=True):
    def __init__(self, lines: list[tuple[str, str]], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.source = [(clean(text), Style.parse(style) if style else Style()) for text, style in lines]
        self.lines = list(self.source)
        self._width = 0
        self.virtual_size = Size(0, len(self.lines))

    @property
    def plain(self) -> str:
        return "\n".join(text for text, _ in self.source)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        self._wrap(width)
        return len(self.lines)

    def on_resize(self, event: Resize) -> None:
        self._wrap(self.scrollable_content_region.width)

    def _wrap(self, width: int) -> None:
        if width <= len(INDENT) or width == self._width:
            return
        self._width = width
        out: list[tuple[str, Style]] = []
        for text, style in self.source:
            if cell_len(text) <= width:
                out.append((text, style))
                continue
            first, rest = _cut(text, width)
            out.append((first, style))
            while rest:
                piece, rest = _cut(rest, width - len(INDENT))
                out.append((INDENT + piece, style))
        self.lines = out
        self.virtual_size = Size(width, len(out))
        self.refresh()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width, index, base = self.size.width, scroll_y + y, self.rich_style
        if index >= len(self.lines):
            return Strip.blank(width, base)
        text, style = self.lines[index]
        strip = Strip([Segment(text, base + style)], cell_len(text))
        return strip.crop_extend(scroll_x, scroll_x + width, base)


def _cut(text: str, width: int) -> tuple[str, str]:
    """The part of `text` that fits `width` cells, and what is left: cut after the last space that
    fits (a word is not split), or mid-word only when one word alone is wider than the line."""
    if cell_len(text) <= width:
        return text, ""
    head = chop_cells(text, width)[0]
    space = head.rfind(" ")
    if space > 0 and head[:space].strip():
        return head[: space + 1].rstrip() or head, text[space + 1 :].lstrip(" ")
    return head, text[len(head) :]
