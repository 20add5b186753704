"""Work-arounds for Textual defects the console would otherwise suffer, each named with its upstream
issue and removed once a pinned Textual has the fix: a test per defect checks Textual's own code still has
it (`ORIGINAL`, tests/ui/test_textual_fixes.py), and fails on the release that fixes it.

- Textualize/textual#6665 (open, textual 8.2.8): `StylesCache.get_inner_outer` is an instance method
  under `@lru_cache(1024)`, so the cache keys on the StylesCache and keeps up to 1,024 of them alive,
  each with every line its widget last drew. Every screen opened and closed (a detail, a form, help)
  leaves its widgets' caches there: a console open all day grew by tens of megabytes, steadily. The
  two styles depend on the two colours only; cached on those, nothing of a widget is kept.
- A screen closed while it is being built (textual 8.2.8, no upstream issue found): its widgets
  are pruned between a node's compose and its Mount, whose handler then asks for a child
  (`query_one`) and fails — Textual's Select asks for its drop-down, a menu for its list. The
  failure ends the node's message loop before it ever reads the request to close, so the screen is
  never removed: the next menu with its id could not open (DuplicateIds), for good. Found by the
  soak (a form, then the actions menu, closed by code as they opened). A node whose screen is no
  longer on the stack is being removed: its Mount is not dispatched.
- A `Strip` (a line of a frame) builds its seven caches as it is made (textual 8.2.8, no upstream issue
  found), though most strips are made, drawn once and dropped: ~7% of the CPU the UI tests spent (and
  of every frame the console draws) went to caches never used. Each is made on first use (2.3 µs a
  strip → 0.4; one used through every cache costs 3% more).
- A part of a line drawn again (`refresh(region)`) is written from the widget's left edge (textual 8.2.8,
  `ChopsUpdate.render_segments`, marked "TODO: crop to x extents" there): an age moving on in a list's
  Created column wrote each line from the table's edge to it, ~5 KB a minute idle at 120×40. It is
  written from where the change begins (a character two cells wide that the start would split is
  written whole). And its style codes are the fewest that draw the same (`terminal_codes`): Rich's,
  a whole style and a reset a run, were 40% of a scrolling key's bytes at 80×24.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Coroutine, Iterable

from textual.style import Style

from .terminal_codes import fewest_codes

if TYPE_CHECKING:
    from types import MemberDescriptorType

    from rich.console import Console
    from rich.segment import Segment
    from textual._compositor import ChopsUpdate, LayoutUpdate
    from textual.color import Color
    from textual.message import Message
    from textual.message_pump import MessagePump
    from textual.strip import Strip

    Dispatch = Callable[[MessagePump, Message], Coroutine[Any, Any, None]]  # `MessagePump._dispatch_message`
    Render = Callable[[LayoutUpdate, Console], str]  # a frame's `render_segments`

# What each fix replaced, as Textual has it: tests/ui/test_textual_fixes.py checks Textual still has each
# defect, and fails once it has not (the fix is then dropped).
ORIGINAL: dict[str, object] = {}


@lru_cache(1024)
def _inner_outer(base_background: Color, background: Color) -> tuple[Style, Style]:
    return Style(background=base_background + background), Style(background=base_background)


def _get_inner_outer(self: object, base_background: Color, background: Color) -> tuple[Style, Style]:
    return _inner_outer(base_background, background)


def _closing(node: Any) -> bool:  # (any message pump: the app, a screen, a widget, whatever has no screen)
    """Whether `node` belongs to a screen popped before it was built."""
    from textual.screen import Screen

    try:
        screen = node if isinstance(node, Screen) else node.screen
        return screen not in node.app.screen_stack
    except Exception:  # not on a screen yet, or no app: nothing is closing
        return False


def _mount_unless_closing(original: Dispatch) -> Dispatch:
    from textual.events import Mount

    async def _dispatch_message(self: MessagePump, message: Message) -> None:
        if type(message) is Mount and _closing(self):
            return None
        return await original(self, message)

    _dispatch_message.fixed = True  # type: ignore[attr-defined]
    return _dispatch_message


STRIP_CACHES = {
    "_divide_cache": 4,
    "_crop_cache": 16,
    "_style_cache": 16,
    "_filter_cache": 4,
    "_line_length_cache": 4,
    "_crop_extend_cache": 4,
    "_offsets_cache": 4,
}  # as Strip sizes them


def _strips_cache_on_first_use() -> None:
    from textual.cache import FIFOCache
    from textual.strip import Strip

    if getattr(Strip.__init__, "fixed", False):
        return
    for name, size in STRIP_CACHES.items():
        slot = Strip.__dict__[name]  # the slot's own descriptor: the cache is kept where Textual keeps it

        def get(strip: Strip, slot: MemberDescriptorType = slot, size: int = size) -> FIFOCache[Any, Any]:
            try:
                return slot.__get__(strip, Strip)
            except AttributeError:
                cache = FIFOCache(size)  # type: ignore[var-annotated]
                slot.__set__(strip, cache)
                return cache

        setattr(Strip, name, property(get, slot.__set__))

    def __init__(self: Strip, segments: Iterable[Segment], cell_length: int | None = None) -> None:
        self._segments = list(segments)
        self._cell_length = cell_length
        self._render_cache = None
        self._link_ids = None
        self._cell_count = None

    __init__.fixed = True  # type: ignore[attr-defined]
    Strip.__init__ = __init__  # type: ignore[method-assign]


def _render_segments(self: ChopsUpdate, console: Console) -> str:
    """`ChopsUpdate.render_segments`, each part of a line written from the start of its span."""
    from rich.cells import cell_len
    from rich.control import Control

    sequences: list[str] = []
    append = sequences.append
    move_to = Control.move_to
    last_y = self.spans[-1][0]
    for y, x1, x2 in self.spans:
        for end, (x, strip) in zip(self.chop_ends[y], self.chops[y].items()):
            if strip is None or x > x2 or end <= x1:
                continue
            start = max(x, x1)
            if start > x:  # the cell before the start may be the first half of a wide character
                at = 0
                for segment in strip:
                    width = cell_len(segment.text)
                    if at + width > start - x:  # the segment holding the start
                        for char in segment.text:
                            size = cell_len(char)
                            if at + size > start - x:
                                start = x + at  # the character holding the start, whole
                                break
                            at += size
                        break
                    at += width
            if start > x or end > x2:
                strip = strip.crop(start - x, min(end, x2) - x)
            append(move_to(start, y).segment.text)
            append(strip.render(console))
        if y != last_y:
            append("\n")
    return fewest_codes("".join(sequences))


def _fewest_codes_in(render: Render) -> Render:
    """A whole frame's `render_segments` (a screen opened, a resize) with the fewest style codes."""
    if getattr(render, "fixed", False):
        return render

    def render_segments(self: LayoutUpdate, console: Console) -> str:
        return fewest_codes(render(self, console))

    render_segments.fixed = True  # type: ignore[attr-defined]
    return render_segments


def apply() -> None:
    from textual._compositor import ChopsUpdate, LayoutUpdate
    from textual._styles_cache import StylesCache
    from textual.message_pump import MessagePump
    from textual.strip import Strip

    for name, found in (
        ("StylesCache.get_inner_outer", StylesCache.get_inner_outer),
        ("Strip.__init__", Strip.__init__),
        ("ChopsUpdate.render_segments", ChopsUpdate.render_segments),
        ("MessagePump._dispatch_message", MessagePump._dispatch_message),
    ):
        if not getattr(found, "fixed", False) and found is not _render_segments and found is not _get_inner_outer:
            ORIGINAL.setdefault(name, found)
    _strips_cache_on_first_use()
    ChopsUpdate.render_segments = _render_segments  # type: ignore[method-assign]
    fewest = _fewest_codes_in(LayoutUpdate.render_segments)
    LayoutUpdate.render_segments = fewest  # type: ignore[method-assign,assignment]

    StylesCache.get_inner_outer = _get_inner_outer  # type: ignore[method-assign,assignment]
    if not getattr(MessagePump._dispatch_message, "fixed", False):
        fixed = _mount_unless_closing(MessagePump._dispatch_message)
        MessagePump._dispatch_message = fixed  # type: ignore[method-assign,assignment]
