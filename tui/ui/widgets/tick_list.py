"""A multiple choice whose marks can be told apart without colour.

Textual's SelectionList draws the same X before every option and tells chosen from not by colour
alone: with NO_COLOR (or in a monochrome terminal) every scope of a token looked ticked. Here an
option not chosen shows a blank mark, as `Tick` (the form's checkbox) does. Imported only by the
forms that have a multiple choice (SelectionList costs start-up time).
"""

from __future__ import annotations

from typing import Any

from rich.segment import Segment
from textual.strip import Strip
from textual.widgets import Checkbox, SelectionList


class TickList(SelectionList[Any]):
    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        segments = list(strip)
        mark = segments[1] if len(segments) > 1 else None
        if mark is None or mark.text != Checkbox.BUTTON_INNER or mark.style is None:
            return strip
        index = mark.style.meta.get("option")  # the option this line's mark toggles
        if index is None or self.get_option_at_index(index).value in self.selected:
            return strip
        segments[1] = Segment(" " * len(mark.text), mark.style)
        return Strip(segments, strip.cell_length)
