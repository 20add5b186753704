"""A frame's text for the terminal with the fewest style codes that draw the same.

Rich writes each run of a style as `ESC[<style>m text ESC[0m`: a style from scratch, then a reset. Over
SSH those codes were most of what a scrolling key wrote (a table line's cells, its border, the
scrollbar: six styles a line). Here the style in force is followed through the frame and, before each
piece of text, only what differs is sent: the colours that changed, the attributes added, or a reset
and the whole style when an attribute is to be taken off. Cursor moves print nothing, so a style is
sent after them, where text follows. A frame begins and ends with the default style (as Rich leaves it).

A frame holding anything else (an SGR parameter not known here, a link, any other escape) is left as
it is: it draws exactly as before.
"""

from __future__ import annotations

import re

# An SGR code, a cursor move, or the start of any other escape; the text between them is what prints.
TOKEN = re.compile("\x1b\\[([0-9;]*)m|(\x1b\\[[0-9]+;[0-9]+H)|(\x1b)")
FOREGROUND = {*map(str, range(30, 38)), *map(str, range(90, 98))}
BACKGROUND = {*map(str, range(40, 48)), *map(str, range(100, 108))}
ATTRIBUTES = {"1", "2", "3", "4", "5", "7", "8", "9", "21", "51", "52", "53"}  # each taken off only by a reset here

Style = tuple[str, str, frozenset[str]]  # foreground ("" = default), background, attributes
DEFAULT: Style = ("", "", frozenset())


def applied(style: Style, params: str) -> Style | None:
    """`style` after an SGR code of `params`; None when a parameter is not one understood here."""
    fg, bg, attrs = style
    extra = set(attrs)
    parts = params.split(";") if params else ["0"]
    i = 0
    while i < len(parts):
        p = parts[i]
        if p in ("", "0"):
            fg, bg, extra = "", "", set()
        elif p in ("38", "48"):
            kind = parts[i + 1] if i + 1 < len(parts) else ""
            n = 3 if kind == "5" else 5 if kind == "2" else 0
            if not n or i + n > len(parts):
                return None
            value = ";".join(parts[i : i + n])
            fg, bg = (value, bg) if p == "38" else (fg, value)
            i += n
            continue
        elif p in FOREGROUND or p == "39":
            fg = "" if p == "39" else p
        elif p in BACKGROUND or p == "49":
            bg = "" if p == "49" else p
        elif p in ATTRIBUTES:
            extra.add(p)
        else:
            return None
        i += 1
    return fg, bg, frozenset(extra)


def transition(now: Style, to: Style) -> str:
    """The code that takes the terminal from style `now` to style `to` ("" when they are the same)."""
    if now == to:
        return ""
    if to == DEFAULT:
        return "\x1b[0m"
    fg, bg, attrs = to
    if not now[2] <= attrs:  # an attribute to take off: from a reset
        return f"\x1b[{';'.join(['0', *sorted(attrs), *(c for c in (fg, bg) if c)])}m"
    params = sorted(attrs - now[2])
    if fg != now[0]:
        params.append(fg or "39")
    if bg != now[1]:
        params.append(bg or "49")
    return f"\x1b[{';'.join(params)}m"


def fewest_codes(frame: str) -> str:
    """`frame` with the fewest style codes that draw the same."""
    out: list[str] = []
    append = out.append
    drawn = wanted = DEFAULT  # the style in force on the terminal, and the one the next text is to have
    at = 0
    for found in TOKEN.finditer(frame):
        text = frame[at : found.start()]
        if text:
            append(transition(drawn, wanted))
            drawn = wanted
            append(text)
        at = found.end()
        params, move = found.group(1), found.group(2)
        if move is not None:
            append(move)
            continue
        after = applied(wanted, params) if params is not None else None
        if after is None:  # not known here: the frame as it was
            return frame
        wanted = after
    text = frame[at:]
    if text:
        append(transition(drawn, wanted))
        drawn = wanted
        append(text)
    append(transition(drawn, DEFAULT))
    return "".join(out)
