"""A result to read and copy: an export's download URL, a configuration snippet, a diff to review.

Plain text (never markup), scrollable, `y` copies all of it, or `copy_text` alone when given (a
command shown with its explanation). With `confirm_label` it asks: the
answer is True for that button, False for Cancel or escape. With `unwrapped` (a snippet to paste)
no line is wrapped: a long one ends in `…` and the text scrolls sideways (← →), as a one-time
secret's configuration does (`widgets.sideways`), so a trailing comment never reads as a line of its own.
Prose with a line to use (`copy_text`, standing as a line of `text`): the prose wraps, that line does
not (a record or a command read across two lines is read wrong), and scrolls sideways.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Label, Static

from ...api.safe import clean
from .. import styles
from ..widgets.sideways import furthest, shifted


def scrolling(action: str, page: int) -> list[Binding]:
    """The keys that scroll a dialog's body whatever has the focus (a button has it): `action(lines)`."""
    steps: tuple[tuple[str, int, str], ...] = (
        ("down,j", 1, "down"),
        ("up,k", -1, "up"),
        ("pagedown", page, "page_down"),
        ("pageup", -page, "page_up"),
    )
    steps += (("end", 100000, "end"), ("home", -100000, "home"))
    return [Binding(keys, f"{action}({n})", show=False, id=f"scroll_{name}") for keys, n, name in steps]


class ResultScreen(ModalScreen[bool]):
    CSS_PATH = styles.DIALOGS
    BINDINGS = [
        Binding("escape", "close", "Close", id="close"),
        Binding("y", "copy", "Copy", id="copy"),
        *scrolling("scroll_body", 20),  # the text scrolls whatever has the focus (a review's Cancel has it)
        Binding("left,h", "sideways(-8)", show=False, id="left"),
        Binding("right,l", "sideways(8)", show=False, id="right"),
    ]

    def __init__(
        self,
        title: str,
        text: str,
        *,
        confirm_label: str | None = None,
        copy: bool = True,
        copy_text: str = "",
        unwrapped: bool = False,
    ) -> None:
        super().__init__(id="result-dialog")
        self.title_text = title
        self.text = clean(text, keep_newlines=True)
        self.copy_text = clean(copy_text)  # one line: a command pasted into a shell runs as shown
        self.confirm_label = confirm_label
        self.can_copy = copy
        self.unwrapped = unwrapped
        self.shift = 0  # columns scrolled sideways (← →), unwrapped only

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="result"):
            yield Label(self.title_text, id="dialog-title", markup=False)
            yield self.body()
            if self.confirm_label:
                with Horizontal(classes="buttons"):
                    yield Button("Cancel", id="cancel")
                    yield Button(self.confirm_label, id="confirm", variant="warning")
                yield Static("↑ ↓ PgUp PgDn scroll · y copy · esc cancel", classes="hint", markup=False)
            else:
                copy = "y copy the line to use · " if self.copy_text else "y copy · " if self.can_copy else ""
                sideways = self.unwrapped or (self.copy_text and self.copy_text in self.text.split("\n"))
                yield Static(("← → scroll · " if sideways else "") + copy + "esc close", classes="hint", markup=False)

    def body(self) -> Widget:
        """What the dialog shows (a subclass may draw it otherwise): the text, wrapped, scrollable,
        never parsed as markup; unwrapped, each line whole or ending in `…`."""
        if self.unwrapped:
            text = Static(shifted(self.text, self.shift), id="result-text", classes="unwrapped", markup=False)
            return VerticalScroll(text, id="result-scroll")
        lines = self.text.split("\n")
        if not self.copy_text or self.copy_text not in lines:
            return VerticalScroll(Static(self.text, id="result-text", markup=False), id="result-scroll")
        at = lines.index(self.copy_text)
        before, after = "\n".join(lines[:at]), "\n".join(lines[at + 1 :])
        parts = [
            Static(before, id="result-text", markup=False),
            Static(shifted(self.copy_text, self.shift), id="result-line", classes="unwrapped", markup=False),
            Static(after, id="result-after", markup=False),
        ]
        parts[0].display, parts[2].display = bool(before), bool(after)  # none drawn as a blank line
        return VerticalScroll(*parts, id="result-scroll")

    def on_mount(self) -> None:
        self._focus_first()

    def _focus_first(self) -> None:
        """Cancel, or the text. (Its widgets nest: with keys read while it was built, Textual ran this
        before they were all mounted — the soak's "No nodes match '#result-scroll'": once more then.)"""
        found = self.query("#cancel" if self.confirm_label else "#result-scroll")
        if found:
            found.first().focus()
        else:
            self.call_after_refresh(self._focus_first)

    def action_scroll_body(self, lines: int) -> None:
        for body in self.query("#result-scroll"):
            body.scroll_relative(y=lines, animate=False)

    def action_sideways(self, cells: int) -> None:
        found = self.query("#result-text.unwrapped, #result-line")
        if not found:
            return
        text, whole = found.first(Static), self.text if self.unwrapped else self.copy_text
        shift = min(max(self.shift + cells, 0), furthest(whole, text.content_size.width))
        if shift != self.shift:
            self.shift = shift
            text.update(shifted(whole, shift))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "confirm")

    def action_copy(self) -> None:
        if self.can_copy:
            self.app.copy_to_clipboard(self.copy_text or self.text)
            self.app.notify("Copied to the clipboard.", timeout=3)
        else:
            self.app.notify("Nothing here to copy.", timeout=3)

    def action_close(self) -> None:
        self.dismiss(False)
