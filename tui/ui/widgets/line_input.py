"""A one-line input that applies its own editing keys in the order they were typed.

Textual hands a printable key straight to the focused widget, but runs a binding (backspace, delete,
ctrl+w…) only once the key has bubbled up to the app. When keys arrive in one read (fast typing,
a burst sent by tmux, SSH coalescing them), later keys reach the widget before an earlier key's
binding has run: "x", backspace, "y" becomes "abcxy" and then loses the "y" — a masked password
changes without a word; eleven backspaces and an address typed into a text area come out
scrambled. Here the widget's own bindings run as the key arrives, in order, and the key goes no
further (Textual would run the same action later). Upstream should resolve the focused widget's
bindings before it delivers the next key. `LinesInput` (text_input.py) is the multi-line one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.reactive import Reactive
from textual.widgets import Input

if TYPE_CHECKING:
    from textual.widget import Widget


def own_actions(widget_class: type[Widget]) -> dict[str, str]:
    """Key → action of the bindings a widget class declares itself (not its screen's or app's)."""
    return {key.strip(): b.action for b in widget_class.BINDINGS if isinstance(b, Binding) for key in b.key.split(",")}


async def run_in_order(widget: Widget, event: events.Key, actions: dict[str, str]) -> None:
    action = None if event.is_printable else actions.get(event.key)
    if action is None:
        return
    event.stop()
    event.prevent_default()
    await widget.run_action(action)


_ACTIONS = own_actions(Input)


class LineInput(Input):
    # Input sets its virtual size (the width of its text) on every change, and a widget's virtual
    # size asks for a layout of the whole screen: each key typed in the chat cost a layout of every
    # widget on it, while an answer streamed in. A line of fixed size moves nothing else when its
    # text changes: here that change repaints the line only. (No LineInput is `width: auto`; one
    # that were would need the layout back.)
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), repaint=True)

    async def on_key(self, event: events.Key) -> None:
        await run_in_order(self, event, _ACTIONS)
