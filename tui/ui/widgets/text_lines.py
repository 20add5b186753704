"""Read-only lines to scroll through (a diff to review, a result to copy): only the lines on screen
are drawn, so opening 2,000 lines costs what opening 20 does. A Static inside a VerticalScroll
renders and wraps every line up front — 37 ms for a 100-line review on this machine, over two
frames — which is the measured reason for this widget.

Each line is (text, style). The text is cleaned of control, bidirectional and zero-width
characters, never parsed as markup, and never wrapped: a long line scrolls sideways (left/right).
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ...api.safe import clean


class TextLines(ScrollView, can_focus=True):
    def __init__(self, lines: list[tuple[str, str]], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines = [(clean(text), Style.parse(style) if style else Style()) for text, style in lines]
        self.virtual_size = Size(max((cell_len(text) for text, _ in self.lines), default=0), len(self.lines))

    @property
    def plain(self) -> str:
        return "\n".join(text for text, _ in self.lines)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines) + (1 if self.virtual_size.width > width else 0)  # room for the sideways bar

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width, index, base = self.size.width, scroll_y + y, self.rich_style
        if index >= len(self.lines):
            return Strip.blank(width, base)
        text, style = self.lines[index]
        strip = Strip([Segment(text, base + style)], cell_len(text))
        return strip.crop_extend(scroll_x, scroll_x + width, base)
