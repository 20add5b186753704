"""The keys of a screen whose body is one list of choices (`OptionList`): j and k move, g and G go to the
first and the last, as in every list of the console. Mixed into the screen; its `BINDINGS` add `KEYS`."""

from __future__ import annotations

from typing import cast

from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import OptionList

KEYS: list[BindingType] = [
    Binding("j", "down", show=False, id="down"),
    Binding("k", "up", show=False, id="up"),
    Binding("g", "first", show=False, id="first"),
    Binding("G", "last", show=False, id="last"),
]


class OptionKeys:
    def _choices(self) -> OptionList:
        return cast(Widget, self).query_one(OptionList)  # (mixed into a screen)

    def action_down(self) -> None:
        self._choices().action_cursor_down()

    def action_up(self) -> None:
        self._choices().action_cursor_up()

    def action_first(self) -> None:
        self._choices().action_first()

    def action_last(self) -> None:
        self._choices().action_last()
