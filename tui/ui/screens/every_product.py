"""A screen over the console that works from what the index holds of every product (the overview, the
advisor): opened before every product was read, it has them read (`Finder.fill`, `F`'s bounded reads
through the limiter) and looks again once they are; `F` reads them again and looks again; `esc` closes.
What it looks at is its own (`look`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import OptionList

from .. import styles
from .option_keys import KEYS, OptionKeys

if TYPE_CHECKING:
    from ..app import CloudApp


class EveryProductScreen(OptionKeys, ModalScreen[None]):
    CSS_PATH = styles.DIALOGS
    BINDINGS = [
        Binding("escape", "close", "Close", id="close"),
        Binding("F", "read_again", "Read again", id="read_again"),
        *KEYS,
    ]

    @property
    def console(self) -> CloudApp:
        return self.app  # type: ignore[return-value]  # (pushed by the console only)

    def _production(self) -> str:
        """What its title adds on a production profile (its fixes ask for the name typed)."""
        return " · PRODUCTION" if self.console.settings.production else ""

    def look(self) -> None:
        """Work out what it shows from what the index holds now (in a worker)."""

    def on_mount(self) -> None:
        finder = self.console.finder
        if not finder.filled and not (finder.filling is not None and finder.filling.is_running):
            finder.fill(then=self.look, say=False)  # (what it read is said here)
        self.look()
        self.query_one(OptionList).focus()

    def action_read_again(self) -> None:
        self.console.finder.fill(then=self.look, say=False)  # (again while reading: stops)
        self.look()

    def action_close(self) -> None:
        self.dismiss(None)
