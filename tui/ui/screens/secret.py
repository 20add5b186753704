"""A one-time secret (a password, a token, a TSIG key): hidden until asked, copyable, shown once.

The values never reach a log, a row or the JSON view (the service keeps them aside); here they are
masked until `v`, and `y` copies the highlighted one to the clipboard (OSC 52, so it works over
SSH and in tmux with `set-clipboard on`). Closing forgets them: the platform will not give them again.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from ...api.safe import clean

MASK = "•" * 12


class SecretScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("v", "toggle", "Reveal/hide"),
        Binding("y", "copy", "Copy"),
    ]

    def __init__(self, title: str, secrets: dict[str, Any], note: str = "") -> None:
        super().__init__(id="secret-dialog")
        self.title_text = title
        self._secrets = {k: "" if v is None else str(v) for k, v in secrets.items()}
        self.note = note or "Shown once: the platform will not give it again. Copy it now (y)."
        self.revealed = False

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="secret"):
            yield Label(self.title_text, id="dialog-title", markup=False)
            yield Static(self.note, id="secret-note", markup=False)
            yield OptionList(*self._options(), id="secret-list")
            yield Static("v reveal/hide · y copy · esc close", classes="hint", markup=False)

    def _options(self) -> list[Option]:
        return [
            Option(Text.assemble((f"{name}: ", "bold"), clean(value) if self.revealed else MASK), id=name)
            for name, value in self._secrets.items()
        ]

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def action_toggle(self) -> None:
        self.revealed = not self.revealed
        box = self.query_one(OptionList)
        at = box.highlighted
        box.clear_options()
        box.add_options(self._options())
        box.highlighted = at

    def _current(self) -> str | None:
        box = self.query_one(OptionList)
        if box.highlighted is None:
            return next(iter(self._secrets), None)
        return box.get_option_at_index(box.highlighted).id

    def action_copy(self) -> None:
        name = self._current()
        if name is None:
            return
        self.app.copy_to_clipboard(self._secrets[name])
        self.app.notify(f"Copied {name} to the clipboard.", timeout=4)

    def action_close(self) -> None:
        self._secrets = {}
        self.dismiss(None)
