"""A frame's style codes made fewest (`tui/ui/terminal_codes.py`): it draws the same, in fewer bytes."""

from __future__ import annotations

import re

from hypothesis import given, settings, strategies as st
from rich.style import Style

from tui.ui.terminal_codes import fewest_codes

CSI = re.compile("\x1b\\[([0-9;]*)([mH])")


def screen(frame: str) -> dict[tuple[int, int], tuple[str, str, str, frozenset[str]]]:
    """What a terminal shows after `frame`: each cell written, its character and its style (a small
    interpreter of SGR and cursor moves, written apart from the module under test)."""
    cells: dict[tuple[int, int], tuple[str, str, str, frozenset[str]]] = {}
    fg, bg, attrs = "", "", frozenset()
    x = y = 0
    at = 0
    for found in [*CSI.finditer(frame), None]:
        for ch in frame[at : found.start() if found else len(frame)]:
            if ch == "\n":
                y, x = y + 1, 0
            else:
                cells[(x, y)] = (ch, fg, bg, attrs)
                x += 1
        if found is None:
            break
        at = found.end()
        params, final = found.group(1), found.group(2)
        if final == "H":
            row, col = params.split(";")
            y, x = int(row) - 1, int(col) - 1
            continue
        parts = params.split(";") if params else ["0"]
        i = 0
        while i < len(parts):
            p = parts[i]
            if p == "0":
                fg, bg, attrs = "", "", frozenset()
            elif p in ("38", "48"):
                n = 3 if parts[i + 1] == "5" else 5
                value = ";".join(parts[i : i + n])
                fg, bg = (value, bg) if p == "38" else (fg, value)
                i += n
                continue
            elif p == "39":
                fg = ""
            elif p == "49":
                bg = ""
            elif 30 <= int(p) <= 37 or 90 <= int(p) <= 97:
                fg = p
            elif 40 <= int(p) <= 47 or 100 <= int(p) <= 107:
                bg = p
            else:
                attrs = attrs | {p}
            i += 1
    return cells


STYLES = st.builds(
    Style,
    color=st.sampled_from([None, "red", "bright_white", "color(123)", "#102030"]),
    bgcolor=st.sampled_from([None, "black", "cyan", "color(240)", "#405060"]),
    bold=st.booleans(),
    reverse=st.booleans(),
    underline=st.booleans(),
)
PIECES = st.one_of(
    st.tuples(st.text("ab │●…", min_size=1, max_size=6), STYLES),  # a segment, as Rich renders it
    st.tuples(st.integers(1, 30), st.integers(1, 80)),  # a cursor move
    st.just("\n"),
)


def rendered(pieces: list) -> str:
    out = []
    for piece in pieces:
        if piece == "\n":
            out.append("\n")
        elif isinstance(piece[0], int):
            out.append(f"\x1b[{piece[0]};{piece[1]}H")
        else:
            out.append(piece[1].render(piece[0], color_system="truecolor"))
    return "".join(out)


@settings(max_examples=400, deadline=None)
@given(st.lists(PIECES, max_size=30))
def test_a_frame_draws_the_same_with_fewer_codes(pieces: list) -> None:
    frame = rendered(pieces)
    fewer = fewest_codes(frame)
    assert screen(fewer) == screen(frame)
    assert len(fewer) <= len(frame) + len("\x1b[0m")
    after = "\x1b[99;1Hx"  # what is written next starts from the default style, as after Rich's frame
    assert screen(fewer + after)[(0, 98)] == screen(frame + after)[(0, 98)] == ("x", "", "", frozenset())


def test_a_table_line_sends_only_the_colours_that_change():
    border, row, state = (
        Style(color="bright_red", bgcolor="black"),
        Style(color="bright_white", bgcolor="black"),
        Style(color="bright_green", bgcolor="black"),
    )
    frame = "\x1b[3;17H" + border.render("│") + row.render(" web-01 ") + state.render(" ● running ")
    assert fewest_codes(frame) == "\x1b[3;17H\x1b[91;40m│\x1b[97m web-01 \x1b[92m ● running \x1b[0m"


def test_a_frame_with_a_code_not_known_here_is_left_as_it_is():
    link = "\x1b]8;id=1;https://example.test\x1b\\link\x1b]8;;\x1b\\"
    assert fewest_codes(link) == link
    assert fewest_codes("\x1b[6mblink\x1b[0m") == "\x1b[6mblink\x1b[0m"
