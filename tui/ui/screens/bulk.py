"""The one dialog of an act on marked rows (`ui.bulk`): it asks, then shows each row's outcome.

Asking, it lists the rows the act will be sent to and those it cannot be (with why), what else each
affects, and Cancel has the focus; when data is lost the count is typed instead (not each name).
Once confirmed it stays: each row goes from waiting (·) to sending (…) to done (✓), failed (✗) with
why, or may have been applied (?), the title counting; `x` stops what is not sent yet; `esc` closes
it, and what is left is still sent (its end is notified). Names and messages from the API are plain
text (never markup) and cleaned.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from ...api.safe import clean
from ...products.kit.rows import called
from .. import styles
from ..widgets.line_input import LineInput
from .result import scrolling

if TYPE_CHECKING:
    from ...products.kit.base import ResourceKind, Row
    from ..bulk import Bulk, Outcome

WAITING, SENDING, NOT_SENT = "·", "…", "–"
NAME_MAX = 28
TEXT_MAX = 300  # a message from the API may be any length: the line stays readable


def _short(text: str, most: int) -> str:
    text = clean(str(text))
    return text if len(text) <= most else text[: most - 1] + "…"


class BulkScreen(ModalScreen[None]):
    CSS_PATH = styles.DIALOGS
    TYPE_AHEAD = True
    BINDINGS = [
        Binding("escape", "close('cancel')", "Cancel", id="close"),  # before the answer
        Binding("escape", "close('close')", "Close", id="close_sent"),  # once confirmed: what came of it stays
        Binding("x", "stop", "Stop the rest", show=False, id="stop"),
        *scrolling("scroll_rows", 8),  # the list scrolls whatever has the focus (Cancel or Close has it)
    ]

    def __init__(self, bulk: Bulk, kind: ResourceKind) -> None:
        super().__init__(id="bulk-dialog")
        self.bulk = bulk
        self.kind = kind
        self.answer: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.index = {row.id: len(bulk.refused) + i for i, row in enumerate(bulk.rows)}  # those not sent come first
        self.outcomes: dict[str, Outcome] = {}
        self.tally = "none done yet"
        self.width = min(NAME_MAX, max(len(called(r)) for r in [*bulk.rows, *(r for r, _ in bulk.refused)]))

    # ---- what it shows -------------------------------------------------------------------------
    def _noun(self, n: int) -> str:
        return self.kind.singular if n == 1 else self.kind.title_in_text

    def _line(self, mark: str, row: Row, text: str) -> Text:
        said = _short(" — ".join(part.strip() for part in str(text).splitlines() if part.strip()), TEXT_MAX)
        return Text(f"{mark} {_short(called(row), NAME_MAX):<{self.width}}  {said}")

    def _message(self) -> str:
        n, refused = len(self.bulk.rows), len(self.bulk.refused)
        verb = self.bulk.what.lower()
        said = f"{verb.capitalize()}: {n} {self._noun(n)}"
        scopes = sorted({self.kind.scope_of(r) for r in self.bulk.rows} - {None, ""})
        if scopes and self.kind.scope_type != "global":
            said += f" in {', '.join(scopes)}"
        said += "."
        if refused:
            said += f" {refused} marked cannot be ({NOT_SENT}, first below, with why): nothing is sent to them."
        if self.bulk.said:
            said += f"\n{self.bulk.said}"
        return said

    def compose(self) -> ComposeResult:
        n = len(self.bulk.rows)
        lines = [Option(self._line(NOT_SENT, r, f"not sent: {why}")) for r, why in self.bulk.refused]
        lines += [Option(self._line(WAITING, r, self.bulk.notes.get(r.id, ""))) for r in self.bulk.rows]
        with Vertical(id="dialog", classes="confirm bulk"):
            yield Label(f"{self.bulk.what} {n} {self._noun(n)}?", id="dialog-title", markup=False)
            yield Static(self._message(), id="confirm-message", markup=False)
            yield OptionList(*lines, id="bulk-rows")
            if self.bulk.data_lost:
                yield Label(f"Type {n} (how many) to confirm:", markup=False)
                yield LineInput(placeholder=str(n), id="confirm-text", compact=True)
                yield Static("", id="confirm-hint", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="cancel")
                yield Button(f"{self.bulk.what} {n}", id="confirm", variant="error", disabled=self.bulk.data_lost)
                yield Button("Close", id="close")
            yield Static("↑ ↓ read the list · esc cancel", id="bulk-hint", classes="hint", markup=False)

    def on_mount(self) -> None:
        self.query_one("#close", Button).display = False
        if self.bulk.data_lost:
            self.query_one("#confirm-text", Input).focus()
        else:
            self.query_one("#cancel", Button).focus()

    # ---- asking --------------------------------------------------------------------------------
    def _typed(self, value: str) -> bool:
        return value.strip() == str(len(self.bulk.rows))

    def on_input_changed(self, event: Input.Changed) -> None:
        self.query_one("#confirm", Button).disabled = not self._typed(event.value)
        self.query_one("#confirm-hint", Static).update("")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self._typed(event.value):
            self._start()
            return
        self.query_one("#confirm-hint", Static).update(
            f"✖ Type {len(self.bulk.rows)}, the number of {self._noun(2)} that will be affected, or esc to cancel."
        )

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "confirm":
            self._start()
        else:
            self.action_close()

    def _start(self) -> None:
        if self.answer.done():
            return
        self.answer.set_result(True)
        for gone in ("#cancel", "#confirm", "#confirm-text", "#confirm-hint"):
            for widget in self.query(gone):
                widget.display = False
        for label in self.query(Label).exclude("#dialog-title"):
            label.display = False
        close = self.query_one("#close", Button)
        close.display = True
        self.refresh_bindings()  # esc reads Close now
        close.focus()
        self.query_one("#bulk-hint", Static).update(
            "x stops what is not sent yet · esc closes (the rest is still sent)"
        )
        self._count()

    # ---- sending -------------------------------------------------------------------------------
    def sending(self, row: Row) -> None:
        self._set(row, SENDING, "sending")

    def show(self, row: Row, outcome: Outcome, tally: str) -> None:
        """One row's outcome, and what came of all so far (`3 done, 1 failed`)."""
        self.outcomes[row.id] = outcome
        self.tally = tally
        self._set(row, outcome.mark, outcome.text)
        self._count()

    def _set(self, row: Row, mark: str, text: str) -> None:
        if self.is_attached:
            self.query_one("#bulk-rows", OptionList).replace_option_prompt_at_index(
                self.index[row.id], self._line(mark, row, text)
            )

    def _count(self) -> None:
        if not self.is_attached:
            return
        n = len(self.bulk.rows)
        left = n - len(self.outcomes)
        title = f"{self.bulk.what}: {self.tally}" + (f" — {left} of {n} to go" if left else "")
        self.query_one("#dialog-title", Label).update(title)

    def finished(self) -> None:
        """Everything answered: the title says the tally, and `esc` closes."""
        self._count()
        if self.is_attached:
            self.query_one("#bulk-hint", Static).update("↑ ↓ read the list · esc close")

    # ---- keys ----------------------------------------------------------------------------------
    def action_scroll_rows(self, lines: int) -> None:
        self.query_one("#bulk-rows", OptionList).scroll_relative(y=lines, animate=False)

    def action_stop(self) -> None:
        if self.answer.done() and not self.bulk.stopped and len(self.outcomes) < len(self.bulk.rows):
            self.bulk.stopped = True
            self.notify("What was not sent yet will not be; what is on its way is still said.", timeout=6)

    def on_unmount(self) -> None:
        if not self.answer.done():  # closed by anything else (the app quitting): nothing is sent
            self.answer.set_result(False)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """esc reads Cancel until the act is confirmed, Close after (the dialog's own button does)."""
        if action == "close" and parameters:
            return (parameters[0] == "close") == self.answer.done()
        return True

    def action_close(self, _when: str = "") -> None:
        if not self.answer.done():
            self.answer.set_result(False)
        self.dismiss(None)
