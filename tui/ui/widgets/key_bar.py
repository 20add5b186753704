"""The key bar: the bindings that work now, on one line, like Textual's Footer but drawn as text.

Textual's Footer mounts a widget per key and restyles them all whenever focus moves (over 100 ms
at start-up here); this renders the same active bindings as one Text, so it costs one line.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from .theme_style import theme_colour


class KeyBar(Static):
    DEFAULT_CSS = """
    KeyBar { height: 1; background: $footer-background; color: $footer-foreground; }
    """

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self._bindings_changed(self.screen)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: object) -> None:
        text = Text(no_wrap=True, overflow="ellipsis")
        key_style = theme_colour(self.app.theme_variables.get("footer-key-foreground"))
        seen: set[str] = set()
        for _node, binding, enabled, _tooltip in self.screen.active_bindings.values():
            if not binding.show or binding.action in seen:
                continue
            seen.add(binding.action)
            text.append(f" {self.app.get_key_display(binding)} ", style=Style(bold=True) + key_style if enabled else "dim")
            text.append(f"{binding.description} ", style="" if enabled else "dim")
        self.update(text)
