"""The product sidebar: sections, product headings and their views, moved through with the keyboard.

Drawn as one Text (Textual's OptionList blends colours line by line, ~50 ms of the first frame for
a short menu). Sections (Compute, Network, Data…) hold products, products hold the views you can
open. A heading folds what it holds away (enter on it, or ← on anything inside; ← again folds the
section) and unfolds it (enter or →), so thirteen products fit at 80×24; a folded heading says how
many views it holds.
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
        Binding("up,k", "move(-1)", "Up", show=False, id="up"),
        Binding("down,j", "move(1)", "Down", show=False, id="down"),
        Binding("enter", "open", "Open", show=False, id="open"),
        Binding("home,g", "jump(1)", "Top", show=False, id="top"),  # the first line, the last: as in every list
        Binding("end,G", "jump(-1)", "Bottom", show=False, id="bottom"),
        Binding("left,h", "fold(True)", "Fold", show=False, id="fold"),
        Binding("right,l", "fold(False)", "Unfold", show=False, id="unfold"),
    ]

    highlighted: reactive[int] = reactive(0)

    class Selected(Message):
        def __init__(self, kind_id: str) -> None:
            super().__init__()
            self.kind_id = kind_id

    def __init__(
        self, entries: list[tuple[str | None, str]], *, sections: set[int] | None = None, id: str | None = None
    ) -> None:
        """`entries`: (kind id, label) for openable entries, (None, label) for headings; the
        headings at the indices in `sections` are sections, holding the product headings after them."""
        super().__init__(id=id)
        self.entries = entries
        self.sections = sections or set()
        self.folded: set[int] = set()  # indices of folded headings
        self.top = 0  # the first visible line drawn (scrolled to keep the highlighted one in view)
        openable = [i for i, (kid, _) in enumerate(entries) if kid]
        self.highlighted = openable[0] if openable else 0

    def level(self, index: int) -> int:
        """0 a section, 1 a product heading, 2 a view."""
        return 0 if index in self.sections else 1 if self.entries[index][0] is None else 2

    def parents(self, index: int) -> list[int]:
        """The headings holding `index`: its product heading, then its section."""
        found, level = [], self.level(index)
        for i in range(index - 1, -1, -1):
            if self.level(i) < level:
                found.append(i)
                level = self.level(i)
                if level == 0:
                    break
        return found

    def heading_of(self, index: int) -> int | None:
        """The heading ← folds from here: the product of a view, the section of a product."""
        if self.entries[index][0] is None and (index in self.folded or index in self.sections):
            found = self.parents(index)
            return found[0] if found else (index if index in self.sections else None)
        if self.entries[index][0] is None:
            return index
        found = self.parents(index)
        return found[0] if found else None

    def unfolded(self) -> list[int]:
        """Indices shown: those no folded heading holds."""
        return [i for i in range(len(self.entries)) if not any(p in self.folded for p in self.parents(i))]

    def _count(self, heading: int) -> int:
        n = 0
        for i in range(heading + 1, len(self.entries)):
            if self.level(i) <= self.level(heading):
                break
            n += self.entries[i][0] is not None
        return n

    def window(self) -> list[int]:
        """The visible lines that fit, scrolled so the highlighted one is among them (at 80×24 the
        sidebar holds more lines than the screen)."""
        shown = self.unfolded()
        height = max(1, self.content_size.height)
        if len(shown) <= height:
            self.top = 0
            self.border_subtitle = ""
            return shown
        at = shown.index(self.highlighted) if self.highlighted in shown else 0
        top = min(self.top, at)
        if at >= top + height:
            top = at - height + 1
        self.top = max(0, min(top, len(shown) - height))
        self.border_subtitle = ("▲ " if self.top else "") + ("▼" if self.top + height < len(shown) else "")
        return shown[self.top : self.top + height]

    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        for n, i in enumerate(self.window()):
            kind_id, label = self.entries[i]
            if n:
                text.append("\n")
            if kind_id is None:
                section = i in self.sections
                name = label.upper() if section else label
                shown = f"+ {name} ({self._count(i)})" if i in self.folded else name
                style = "bold underline" if section else "bold dim"
                style += " reverse" if i == self.highlighted and self.has_focus else ""
                text.append(shown, style=style)
            elif i == self.highlighted:
                text.append(f"▸ {label}", style="reverse bold" if self.has_focus else "bold")
            else:
                text.append(f"  {label}")
        return text

    def select(self, kind_id: str) -> None:
        for i, (kid, _) in enumerate(self.entries):
            if kid == kind_id:
                self.folded.difference_update(self.parents(i))
                self.highlighted = i
                if self.content_size.height:  # (laid out: scrolled, its ▲ ▼ said now, not a frame late)
                    self.window()
                self.refresh()

    def action_move(self, delta: int) -> None:
        """To the next visible line: an entry, or a folded heading (to unfold it)."""
        shown = self.unfolded()
        at = shown.index(self.highlighted) if self.highlighted in shown else 0
        n = at
        while 0 <= n + delta < len(shown):
            n += delta
            i = shown[n]
            if self.entries[i][0] or i in self.folded:
                self.highlighted = i
                return

    def action_jump(self, toward: int) -> None:
        """To the first line one can stand on (`toward` 1), or the last (-1)."""
        shown = self.unfolded()
        lines = shown if toward > 0 else list(reversed(shown))
        self.highlighted = next((i for i in lines if self.entries[i][0] or i in self.folded), self.highlighted)

    def action_fold(self, fold: bool) -> None:
        heading = self.heading_of(self.highlighted)
        if heading is None:
            return
        if fold:
            self.folded.add(heading)
            self.highlighted = heading
        elif self.entries[self.highlighted][0] is None:
            heading = self.highlighted
            self.folded.discard(heading)
            # Onto the first view inside, unfolding a folded product on the way.
            for i in range(heading + 1, len(self.entries)):
                if self.level(i) <= self.level(heading):
                    break
                if self.entries[i][0]:
                    self.folded.difference_update(self.parents(i))
                    self.highlighted = i
                    break
        self.refresh()

    def action_open(self) -> None:
        kind_id = self.entries[self.highlighted][0]
        if kind_id:
            self.post_message(self.Selected(kind_id))
        else:  # a heading: fold or unfold it
            self.action_fold(self.highlighted not in self.folded)

    def on_resize(self) -> None:
        # The ▲/▼ of the border follow the window; worked out here too, not only while drawing: a
        # subtitle set in render() shows only from the next frame, and nothing may draw it again.
        self.window()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
