"""Text shown unwrapped and scrolled sideways (← →): a configuration, a key, a snippet to paste.

A line is never wrapped (its indentation and its line breaks are the ones pasted) and never cut
without a mark: the widget showing it is styled `text-wrap: nowrap; text-overflow: ellipsis`
(dialogs.tcss), so a line longer than the view ends in `…`, and `shifted` scrolls every line left by
some columns, a line cut on the left starting with `…`. What is copied is always the whole text.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text


def widest(text: "str | Text") -> int:
    plain = text.plain if isinstance(text, Text) else text
    return max((cell_len(line) for line in plain.split("\n")), default=0)


def furthest(text: "str | Text", width: int) -> int:
    """How far `text` may scroll left in a view `width` cells wide: to its widest line's end."""
    return max(widest(text) - max(width, 1), 0)


def shifted(text: "str | Text", cells: int) -> Text:
    """`text` scrolled `cells` columns left, line by line; a line cut on the left starts with `…`."""
    text = text.copy() if isinstance(text, Text) else Text(text)
    if cells <= 0:
        return text
    lines = []
    for line in text.split("\n", include_separator=False, allow_blank=True):
        chars, used = 0, 0
        while chars < len(line.plain) and used < cells:
            used += cell_len(line.plain[chars])
            chars += 1
        rest = line[chars:]
        if chars:
            rest = Text.assemble(("…", "dim"), rest[1:]) if rest.plain else Text("…", style="dim")
        lines.append(rest)
    out = Text("\n").join(lines)
    out.no_wrap = text.no_wrap
    return out
