"""A small modal list to pick one value: an action, a zone. Enter picks, Esc cancels."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ...api.safe import cut
from .. import styles
from ..widgets.dialog_title import DialogTitle
from .option_keys import KEYS, OptionKeys

if TYPE_CHECKING:
    from textual import events

LABEL_MAX = 60  # a label from API data may be any length (a 5,000-character name): the list stays a list


def _option(i: int, choice: tuple[Any, ...], current: bool = False, most: int = LABEL_MAX) -> Option:
    """(label, value) is a choice; (label, value, why not) a greyed one that says why it cannot work.
    The current value is marked in words, so it reads without colour."""
    why = choice[2] if len(choice) > 2 else None
    mark = "  (current)" if current else ""
    if why:
        return Option(
            Text.assemble(cut(str(choice[0]), most) + mark, (f"  — {cut(str(why), 120)}", "italic")),
            id=str(i),
            disabled=True,
        )
    return Option(cut(str(choice[0]), most) + mark, id=str(i))


class PickerScreen(OptionKeys, ModalScreen[Any]):
    CSS_PATH = styles.DIALOGS
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="cancel"),
        *KEYS,  # j k, and the first choice, the last (g G): as in every list
    ]

    def __init__(
        self,
        title: str,
        choices: Sequence[tuple[Any, ...]],
        current: object = None,
        id: str | None = None,
        keys: Mapping[str, object] | None = None,
        most: int = LABEL_MAX,
        typed_ahead: bool = True,
    ) -> None:
        super().__init__(id=id)
        # False: keys typed before it opened were meant for what follows it (a name for the form a create
        # opens once its zone is picked), not for picking: they are dropped, never taken as moves (walk 22)
        self.typed_ahead = typed_ahead
        self.title_text = title
        self.choices = choices
        self.current = current
        self.keys = keys or {}  # a key that picks a value at once (the related dialog's F: index every product)
        self.most = most  # characters of a label shown (a wide dialog of long lines shows more)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="picker"):
            yield DialogTitle(self.title_text)  # a huge name: the choices show
            marked = self.current is not None and sum(c[1] == self.current for c in self.choices) == 1
            yield OptionList(
                *[_option(i, c, marked and c[1] == self.current, self.most) for i, c in enumerate(self.choices)],
                id="choices",
                markup=False,
            )

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        values = [c[1] for c in self.choices]
        if self.current in values and not (
            len(self.choices[values.index(self.current)]) > 2 and self.choices[values.index(self.current)][2]
        ):
            options.highlighted = values.index(self.current)
        options.focus()

    def on_key(self, event: events.Key) -> None:
        if event.key in self.keys:
            event.stop()
            self.dismiss(self.keys[event.key])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.choices[int(event.option.id or 0)][1])

    def action_cancel(self) -> None:
        self.dismiss(None)
