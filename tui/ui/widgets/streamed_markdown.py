"""An answer in Markdown, drawn as lines in one widget, while it arrives and once it is over.

Textual's Markdown widget makes a widget per block (and more per list, table or code block), and
Textual lays out every widget of the screen whenever an Input's text changes: after one 2,000-token
answer of 44 paragraphs each key typed cost a 27 ms layout, more with each answer, and making the
answer Markdown at its end took ~60 ms of the UI thread in one go. Here an answer is one widget whose
lines are drawn by Rich's Markdown renderer and kept: its height is the number of its lines, so a
layout costs the same however long the conversation grows.

While the answer arrives each finished block (ended by a blank line outside a code fence) is drawn
as soon as it is finished (~0.6 ms a paragraph); the block still arriving is plain text, its end
only (what the view can show), and the lines it is given grow by `STEP` at once and never shrink
while it arrives, so most pieces repaint the widget without a layout. The lines are drawn again when
the widget's width or the theme changes. Links are shown with their address, never as terminal
hyperlinks (the text is the model's, untrusted). Markdown decodes entities (`&#x202e;`, `&#x1b;`)
into the characters `clean` keeps from the terminal: `SafeMarkdown` cleans the parsed text itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from rich.markdown import Markdown
from rich.segment import Segment
from rich.style import Style
from rich.theme import Theme
from textual.content import Content
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from ...api.safe import clean
from .theme_style import theme_colour

if TYPE_CHECKING:
    from markdown_it.token import Token
    from textual.geometry import Size

FENCES = ("```", "~~~")


def finished(text: str) -> int:
    """Where the finished blocks of `text` end: after its last blank line outside a code fence
    (0 when no block is finished yet)."""
    cut, fenced, at = 0, False, 0
    for line in text.splitlines(keepends=True):
        at += len(line)
        if not line.endswith("\n"):
            break  # a line still arriving
        bare = line.strip()
        if len(line) - len(line.lstrip(" ")) <= 3 and bare.startswith(FENCES):
            fenced = not fenced
        elif not bare and not fenced:
            cut = at
    return cut


class SafeMarkdown(Markdown):
    """Rich's Markdown with what it parsed cleaned: an answer cleaned before it is parsed still holds
    entities, which the parser decodes into bidirectional, zero-width and control characters. Every
    token's text, its children's, and its attributes (a link's address, an image's) are cleaned."""

    def __init__(self, markup: str, **kwargs: Any) -> None:
        super().__init__(markup, **kwargs)
        self._clean(self.parsed)

    def _clean(self, tokens: Iterable[Token]) -> None:
        for token in tokens:
            token.content = clean(token.content, keep_newlines=True)
            token.info = clean(token.info)
            for name, value in list(token.attrs.items()):
                if isinstance(value, str):
                    token.attrs[name] = clean(value)
            if token.children:
                self._clean(token.children)


class StreamedMarkdown(Widget):
    DEFAULT_CSS = "StreamedMarkdown { height: auto; }"
    STEP = 4  # lines added to its height at once while the answer arrives
    _themes: dict[str, Theme] = {}  # Rich styles of Markdown, per Textual theme

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.text = ""
        self.blocks: list[str] = []  # the finished blocks
        self.made = 0  # characters of `text` in them
        self.lines: list[list[Segment]] = []  # theirs, drawn at `drawn_at` (width, theme)
        self.drawn_at: tuple[int, str] = (0, "")
        self.drawn_blocks = 0
        self.live: list[str] = []  # the block arriving, wrapped (its end only)
        self.most = 1  # the view's height: no more of the block arriving is wrapped
        self.rows = 0  # its height, only growing while the answer arrives
        self.base: Style | None = None  # the widget's own style, under every line
        self.strips: dict[int, Strip] = {}  # finished lines as drawn, by line (a scroll repaints them all)

    def on_mount(self) -> None:
        # (a signal left on unmount: a watch of the app's theme kept every closed answer alive until
        # the theme next changed, as Textual prunes its watchers only then)
        self.app.theme_changed_signal.subscribe(self, self._retheme)

    def on_unmount(self) -> None:
        self.app.theme_changed_signal.unsubscribe(self)

    def _retheme(self, _theme: object) -> None:
        self.base = None
        self.strips = {}
        self.refresh(layout=True)

    # ---- what arrives ------------------------------------------------------------------------
    def draw(self, text: str, most: int) -> bool:
        """Show `text` (the answer so far, safe plain text); `most`: the view's height. True when
        the widget's height changed, so the view holding it should scroll to its end."""
        self.text, self.most = text, max(most, 1)
        width = self._width()
        changed_from = len(self.lines)
        cut = self.made + finished(text[self.made :])
        if cut > self.made:
            self._add_block(text[self.made : cut])
            self.made = cut
        self._draw(width)
        self._wrap_live(width)
        want = len(self.lines) + self._gap() + len(self.live)
        if want > self.rows:
            self.rows = -(-want // self.STEP) * self.STEP
            self.refresh(layout=True)
            return True
        self.refresh(Region(0, changed_from, self.size.width, self.rows - changed_from))  # no layout: the same height
        return False

    def finish(self, text: str) -> None:
        """The answer is over, all of it `text`."""
        self.text = text
        self._add_block(text[self.made :])
        self.made, self.live = len(text), []
        self._draw(self._width())
        self.rows = len(self.lines)
        self.refresh(layout=True)

    def _add_block(self, block: str) -> None:
        if block.strip():
            self.blocks.append(block.strip("\n"))

    def _width(self) -> int:
        return max(self.content_region.width or getattr(self.parent, "scrollable_content_region", self.region).width, 1)

    def _wrap_live(self, width: int) -> None:
        arriving = self.text[self.made :]
        live = [line.plain for line in Content(arriving[-self.most * width :]).wrap(width)] if arriving.strip() else []
        self.live = live[-self.most :]

    def _gap(self) -> int:
        return 1 if self.lines and self.live else 0

    # ---- drawing ------------------------------------------------------------------------------
    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if (width, self.app.theme) != self.drawn_at:  # drawn again: as long as it is now
            self._draw(width)
            self._wrap_live(width)
            self.rows = len(self.lines) + self._gap() + len(self.live)
        return self.rows

    def _draw(self, width: int) -> None:
        """The finished blocks' lines, at `width` and in the theme (all again when either changed)."""
        at = (width, self.app.theme)
        if at != self.drawn_at:
            self.lines, self.drawn_at, self.drawn_blocks, self.strips = [], at, 0, {}
        done = self.drawn_blocks
        if done == len(self.blocks):
            return
        console = self.app.console
        options = console.options.update_width(width)
        code_theme = "ansi_dark" if self.app.current_theme.dark else "ansi_light"
        with console.use_theme(self._theme()):
            for block in self.blocks[done:]:
                if self.lines:
                    self.lines.append([])  # a blank line between blocks
                self.lines += console.render_lines(
                    SafeMarkdown(block, code_theme=code_theme, hyperlinks=False), options, pad=False
                )
        self.drawn_blocks = len(self.blocks)

    def _theme(self) -> Theme:
        found = self._themes.get(self.app.theme)
        if found is None:
            v = self.app.theme_variables
            accent, muted, primary = (theme_colour(v.get(name)) for name in ("accent", "text-muted", "primary"))
            bold = Style(bold=True)
            found = self._themes[self.app.theme] = Theme(
                {
                    "markdown.code": bold + accent,
                    "markdown.block_quote": muted,
                    "markdown.hr": muted,
                    "markdown.item.bullet": bold + accent,
                    "markdown.item.number": accent,
                    "markdown.link": accent,
                    "markdown.link_url": Style(underline=True) + muted,
                    "markdown.h1": bold + primary,
                    "markdown.h1.border": primary,
                    "markdown.h2": bold + Style(underline=True) + primary,
                    "markdown.h3": bold + primary,
                    "markdown.h4": bold,
                    "markdown.h5": Style(italic=True),
                    "markdown.h6": Style(italic=True),
                }
            )
        return found

    def render_line(self, y: int) -> Strip:
        if self.base is None:
            self.base, self.strips = self.rich_style, {}
        width, base = self.content_region.width, self.base
        if y < len(self.lines):
            strip = self.strips.get(y)
            if strip is None or strip.cell_length != width:
                strip = self.strips[y] = Strip(list(Segment.apply_style(self.lines[y], base))).crop_extend(
                    0, width, base
                )
            return strip
        live_at = len(self.lines) + self._gap()
        room = max(self.rows - live_at, 0)
        live = self.live[-room:] if room else []
        if live_at <= y < live_at + len(live):
            segments = [Segment(live[y - live_at], base)]
        else:
            segments = []
        return Strip(segments).crop_extend(0, width, base)
