"""The product sidebar: product headings and their views, moved through with the keyboard.

Drawn as one Text (Textual's OptionList blends colours line by line, ~50 ms of the first frame for
a short menu); products are headings, views are the entries you can open. A heading folds its
entries away (enter on it, or ← on any of them) and unfolds them (enter or →), so thirteen products
fit at 80×24; a folded heading says how many views it holds.
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
        Binding("left,h", "fold(True)", "Fold", show=False),
        Binding("right,l", "fold(False)", "Unfold", show=False),
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
        self.folded: set[int] = set()  # indices of folded headings
        openable = [i for i, (kid, _) in enumerate(entries) if kid]
        self.highlighted = openable[0] if openable else 0

    def heading_of(self, index: int) -> int | None:
        for i in range(index, -1, -1):
            if self.entries[i][0] is None:
                return i
        return None

    def visible(self) -> list[int]:
        """Indices shown: every heading, and the entries of unfolded ones."""
        return [i for i, (kid, _) in enumerate(self.entries) if kid is None or self.heading_of(i) not in self.folded]

    def _count(self, heading: int) -> int:
        n = 0
        for kid, _ in self.entries[heading + 1:]:
            if kid is None:
                break
            n += 1
        return n

    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        for n, i in enumerate(self.visible()):
            kind_id, label = self.entries[i]
            if n:
                text.append("\n")
            if kind_id is None:
                shown = f"+ {label} ({self._count(i)})" if i in self.folded else label
                style = "bold dim reverse" if i == self.highlighted and self.has_focus else "bold dim"
                text.append(shown, style=style)
            elif i == self.highlighted:
                text.append(f"▸ {label}", style="reverse bold" if self.has_focus else "bold")
            else:
                text.append(f"  {label}")
        return text

    def select(self, kind_id: str) -> None:
        for i, (kid, _) in enumerate(self.entries):
            if kid == kind_id:
                self.folded.discard(self.heading_of(i))  # type: ignore[arg-type]
                self.highlighted = i
                self.refresh()

    def action_move(self, delta: int) -> None:
        """To the next visible line: an entry, or a folded heading (to unfold it)."""
        shown = self.visible()
        at = shown.index(self.highlighted) if self.highlighted in shown else 0
        n = at
        while 0 <= n + delta < len(shown):
            n += delta
            i = shown[n]
            if self.entries[i][0] or i in self.folded:
                self.highlighted = i
                return

    def action_fold(self, fold: bool) -> None:
        heading = self.heading_of(self.highlighted)
        if heading is None:
            return
        if fold:
            self.folded.add(heading)
            self.highlighted = heading
        else:
            self.folded.discard(heading)
            if self.highlighted == heading and heading + 1 < len(self.entries) and self.entries[heading + 1][0]:
                self.highlighted = heading + 1
        self.refresh()

    def action_open(self) -> None:
        kind_id = self.entries[self.highlighted][0]
        if kind_id:
            self.post_message(self.Selected(kind_id))
        else:  # a heading: fold or unfold it
            self.action_fold(self.highlighted not in self.folded)

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
