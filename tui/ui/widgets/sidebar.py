"""The product sidebar: product headings and their resource kinds, moved through with the keyboard.

Drawn as one Text (Textual's OptionList blends colours line by line, ~50 ms of the first frame for
a short menu); products are headings, kinds are the entries you can open.
"""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget


class Sidebar(Widget, can_focus=True):
    DEFAULT_CSS = """
    Sidebar { width: 16; height: 1fr; }
    """
    BINDINGS = [
        Binding("up,k", "move(-1)", "Up", show=False),
        Binding("down,j", "move(1)", "Down", show=False),
        Binding("enter", "open", "Open", show=False),
    ]

    highlighted: reactive[int] = reactive(0)

    class Selected(Message):
        def __init__(self, kind_id: str) -> None:
            super().__init__()
            self.kind_id = kind_id

    def __init__(self, entries: list[tuple[str | None, str]], *, id: str | None = None) -> None:
        """`entries`: (kind id, label) for openable entries, (None, label) for headings."""
        super().__init__(id=id)
        self.entries = entries
        openable = [i for i, (kid, _) in enumerate(entries) if kid]
        self.highlighted = openable[0] if openable else 0

    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        for i, (kind_id, label) in enumerate(self.entries):
            if i:
                text.append("\n")
            if kind_id is None:
                text.append(label, style="bold dim")
            elif i == self.highlighted:
                text.append(f"▸ {label}", style="reverse bold" if self.has_focus else "bold")
            else:
                text.append(f"  {label}")
        return text

    def select(self, kind_id: str) -> None:
        for i, (kid, _) in enumerate(self.entries):
            if kid == kind_id:
                self.highlighted = i

    def action_move(self, delta: int) -> None:
        i = self.highlighted
        while 0 <= i + delta < len(self.entries):
            i += delta
            if self.entries[i][0]:
                self.highlighted = i
                return

    def action_open(self) -> None:
        kind_id = self.entries[self.highlighted][0]
        if kind_id:
            self.post_message(self.Selected(kind_id))

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
