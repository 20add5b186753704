"""A multi-line text field that applies its own editing keys in the order they were typed (see
line_input.py for why). Its own module: TextArea costs ~90 ms to import, paid only by the forms and
screens that show one."""

from __future__ import annotations

from textual import events
from textual.widgets import TextArea

from .line_input import own_actions, run_in_order

_ACTIONS = own_actions(TextArea)


class LinesInput(TextArea):
    async def on_key(self, event: events.Key) -> None:
        await run_in_order(self, event, _ACTIONS)
