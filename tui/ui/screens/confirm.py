"""Confirmation before anything destructive: Cancel has the focus; some deletes need the name typed,
and then the name field has it instead (enter confirms only once the name matches exactly)."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from .. import styles
from ..widgets.dialog_title import DialogTitle
from ..widgets.line_input import LineInput


class ConfirmScreen(ModalScreen[bool]):
    CSS_PATH = styles.DIALOGS
    TYPE_AHEAD = True  # keys typed before it focuses a field wait for it (ui/typeahead.py)
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="cancel")]

    def __init__(
        self, title: str, message: str, confirm_label: str = "Delete", require_text: str | None = None
    ) -> None:
        super().__init__()
        self.title_text = title
        self.message = message
        self.confirm_label = confirm_label
        self.require_text = require_text

    def compose(self) -> ComposeResult:
        settings = getattr(self.app, "settings", None)  # (the console's: a production profile says so on top)
        production = " · PRODUCTION" if getattr(settings, "production", False) else ""
        with Vertical(id="dialog", classes="confirm"):
            yield DialogTitle(self.title_text + production)
            with VerticalScroll(id="confirm-body"):  # a long message (a hostile name) scrolls: the field and
                yield Static(self.message, id="confirm-message", markup=False)  # the buttons stay in view
            if self.require_text:
                shown = self.require_text if len(self.require_text) <= 40 else self.require_text[:39] + "…"
                more = "" if shown == self.require_text else f" ({len(self.require_text):,} characters)"
                yield Label(f"Type {shown!r}{more} to confirm:", markup=False)
                yield LineInput(placeholder=self.require_text, id="confirm-text", compact=True)
                yield Static("", id="confirm-hint", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="cancel")
                yield Button(self.confirm_label, id="confirm", variant="error", disabled=bool(self.require_text))

    def on_mount(self) -> None:
        if self.require_text:
            self.query_one("#confirm-text", Input).focus()
        else:
            self.query_one("#cancel", Button).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        self.query_one("#confirm", Button).disabled = event.value != self.require_text
        self.query_one("#confirm-hint", Static).update("")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value == self.require_text:
            self.dismiss(True)
            return
        typed = "Nothing typed" if not event.value else "That is not the name"
        self.query_one("#confirm-hint", Static).update(
            f"✖ {typed}: type {self.require_text!r} exactly (case counts), or esc to cancel."
        )

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "confirm")

    def action_cancel(self) -> None:
        self.dismiss(False)


def close_or_ask(screen: ModalScreen[Any], unsent: bool, title: str, message: str) -> None:
    """A dialog's esc: close it at once when it holds nothing unsent, else ask first (Cancel goes
    back to it, Drop closes it)."""
    if not unsent:
        screen.dismiss(None)
        return

    def answered(drop: bool | None) -> None:
        if drop:
            screen.dismiss(None)

    screen.app.push_screen(ConfirmScreen(title, message, "Drop"), answered)
