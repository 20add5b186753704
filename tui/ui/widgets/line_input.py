"""A one-line input that applies its own editing keys in the order they were typed.

Textual hands a printable key straight to the focused Input, but runs a binding (backspace, delete,
ctrl+w…) only once the key has bubbled up to the app. When two keys arrive in one read (fast typing,
or SSH and tmux coalescing them), the second key reaches the Input before the first one's binding
has run: "x", backspace, "y" becomes "abcxy" and then loses the "y" — a masked password changes
without a word. Here the Input's own bindings run as the key arrives, in order, and the key goes no
further (Textual would run the same action later). Upstream should resolve the focused widget's
bindings before it delivers the next key.
"""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.widgets import Input

_ACTIONS = {key.strip(): b.action for b in Input.BINDINGS if isinstance(b, Binding) for key in b.key.split(",")}


class LineInput(Input):
    async def on_key(self, event: events.Key) -> None:
        action = None if event.is_printable else _ACTIONS.get(event.key)
        if action is None:
            return
        event.stop()
        event.prevent_default()
        await self.run_action(action)
