"""The key bar: the bindings that work now, on one line, like Textual's Footer but drawn as text.

Textual's Footer mounts a widget per key and restyles them all whenever focus moves (over 100 ms
at start-up here); this renders the same active bindings as one Text, so it costs one line. Its size never depends
on its text (one line, the screen's width), so a change redraws that line and never asks the
screen for a new layout (a Static's update does: at every focus move, most of a screen's layouts).
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.screen import Screen
from textual.widget import Widget

from .theme_style import theme_colour


class KeyBar(Widget):
    DEFAULT_CSS = """
    KeyBar { height: 1; background: $footer-background; color: $footer-foreground; }
    """

    _text: Text = Text()

    def render(self) -> Text:
        return self._text

    _source: Screen | None = None  # the screen whose keys are shown

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, self._theme_changed)  # its keys' colours
        self.app.screen_change_signal.subscribe(self, self._follow)
        self._follow(self.app.screen)

    def on_unmount(self) -> None:
        if self._source is not None:
            self._source.bindings_updated_signal.unsubscribe(self)
        self.app.screen_change_signal.unsubscribe(self)
        self.app.theme_changed_signal.unsubscribe(self)

    def _follow(self, front: Screen) -> None:
        """The keys in force: its own screen's, or those of a dialog in front of it (a form, a menu, a
        confirmation, help: drawn over the screen, this line still showing below them)."""
        own = self.screen
        over = front is not own and front.is_modal and own in self.app.screen_stack and not front.query(KeyBar)
        source = front if over else own
        if source is self._source:
            return
        if self._source is not None:
            self._source.bindings_updated_signal.unsubscribe(self)
        self._source = source
        source.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self._bindings_changed(source)

    def _theme_changed(self, _theme: object) -> None:
        self._bindings_changed(self._source)

    def on_resize(self) -> None:
        self._draw()

    def _bindings_changed(self, _screen: object) -> None:
        if self._source is None:
            return
        key_style = theme_colour(self.app.theme_variables.get("footer-key-foreground"))
        seen: set[str] = set()
        self._items: list[tuple[str, str, Style | str, str]] = []
        helps: list[tuple[str, str, Style | str, str]] = []
        for _node, binding, enabled, _tooltip in self._source.active_bindings.values():
            if not binding.show or binding.action in seen:
                continue
            seen.add(binding.action)
            (helps if binding.action.rsplit(".", 1)[-1] == "help" else self._items).append(
                (
                    f" {self.app.get_key_display(binding)} ",
                    f"{binding.description} ",
                    Style(bold=True) + key_style if enabled else "dim",
                    "" if enabled else "dim",
                )
            )
        self._help = helps  # Help lists every key: it is the one never left out when the line is too narrow for all
        self._draw()

    def _draw(self) -> None:
        """The keys that fit the line; when not all do, the last ones before Help give way to an
        ellipsis (Help lists them all), rather than Help itself being cut off the end."""
        items, tail = list(getattr(self, "_items", [])), getattr(self, "_help", [])
        width = self.size.width or 10_000

        def length(shown: list[tuple[str, str, Style | str, str]]) -> int:
            return sum(len(key) + len(desc) for key, desc, _, _ in shown)

        cut = False
        while items and length(items) + length(tail) + (2 if cut else 0) > width:
            items.pop()
            cut = True
        text = Text(no_wrap=True, overflow="ellipsis")
        for key, desc, key_style, desc_style in items:
            text.append(key, style=key_style)
            text.append(desc, style=desc_style)
        if cut:
            text.append("… ", style="dim")
        for key, desc, key_style, desc_style in tail:
            text.append(key, style=key_style)
            text.append(desc, style=desc_style)
        if text != self._text:
            self._text = text
            self.refresh()
