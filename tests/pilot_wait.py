"""What a test waits for after a key: the console done with it, not the CPU idle.

After each simulated key Pilot waited for the app to go idle, sleeping in 20 ms steps until one
used almost no CPU (textual._wait): ~90 ms a key, up to a second while a refresh ran, and most of
the suite's time. Then each key waited for every node of the screen to call back (Pilot's own
`_wait_for_screen`): a message per widget per key, most of the suite's CPU on a form.

Now a key waits until the app and every node of the screen in front have nothing queued, are
reading nothing and have nothing left to call next, the type-ahead holds no key, and the screen has
nothing waiting for its next frame (`call_after_refresh`), seen so on two turns of the loop in a
row; `pilot.pause()` then draws what changed, as Textual's own pause ends with a frame. What the key
did is done; a worker's answer is not waited for: each test waits for what it means
(helpers.wait_for), never for time. CLOUDTUI_PILOT_WAIT=textual measures against Textual's.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from typing import Any, Iterator

import textual.app
from textual._context import active_app
from textual.message_pump import MessagePump
from textual.pilot import Pilot

AT_MOST = 5.0  # seconds, should something post for ever (the test's own wait then says what it lacked)


def nodes_of(app: Any) -> list[Any]:
    try:
        return [app, *app.screen.walk_children(with_self=True)]
    except Exception:  # no screen: it is closing
        return [app]


def doing(app: Any, nodes: list[Any], keys: bool = True) -> str:
    """What the console is still doing with what it was given: "" when nothing; "keys" while keys
    typed wait for the dialog they were typed for (tui/ui/typeahead.py); "frame" when all that is
    left waits for the screen's next frame: what was asked to run after it (`call_after_refresh`)."""
    if any(node._message_queue.values or node._next_callbacks or getattr(node, "_test_reading", 0) for node in nodes):
        return "messages"
    type_ahead = getattr(app, "type_ahead", None)  # (the console's; a test's bare app has none)
    if keys and type_ahead is not None and type_ahead.keys_waiting:  # held for a dialog still on its way
        return "keys"
    try:
        return "frame" if app.screen._callbacks else ""
    except Exception:
        return ""


async def settled(app: Any, keys: bool = True) -> None:
    for _ in range(3):  # a key the driver sent reaches the app's queue
        await asyncio.sleep(0)
    loop = asyncio.get_running_loop()
    quiet, end, nodes = 0, loop.time() + AT_MOST, None
    while quiet < 2 and loop.time() < end:
        # The nodes walked again only to call it quiet: while one is busy, a node it mounts meanwhile
        # keeps it busy (the walk is most of this wait's cost on a large screen).
        nodes = nodes or nodes_of(app)
        now = doing(app, nodes, keys)
        if now == "frame":  # drawn now, rather than waited for
            app.screen._on_timer_update()
        await asyncio.sleep(0.001 if now == "keys" else 0)  # (what they wait for may be a worker's answer)
        quiet, nodes = (0, nodes) if now else (quiet + 1, None)


def undrawn(app: Any) -> bool:
    """A resize not yet passed on (a timer does), or a layout or redraw the next frame would do."""
    try:
        screen = app.screen
    except Exception:
        return False
    return app._resize_event is not None or bool(
        screen._layout_required or screen._scroll_required or screen._repaint_required or screen._dirty_widgets
    )


async def drawn(app: Any, keys: bool = True) -> None:
    """Settled, and what changed laid out and drawn now (as Pilot's own pause ends: a frame)."""
    await settled(app, keys)
    for _ in range(4):  # a frame may ask for another (a size known once drawn)
        if not undrawn(app):
            return
        if app._resize_event is not None:
            app._check_resize()
        else:
            app.screen._on_timer_update()
        await settled(app, keys)


@contextlib.contextmanager
def installed() -> Iterator[None]:
    if os.environ.get("CLOUDTUI_PILOT_WAIT") == "textual":
        yield
        return
    dispatch, idle = MessagePump._dispatch_message, textual.app.wait_for_idle
    wait_for_screen, pause = Pilot._wait_for_screen, Pilot.pause

    async def counted(self: Any, message: Any) -> None:  # a node reading a message is busy with it
        self._test_reading = getattr(self, "_test_reading", 0) + 1
        try:
            await dispatch(self, message)
        finally:
            self._test_reading -= 1

    counted.fixed = getattr(dispatch, "fixed", False)  # type: ignore[attr-defined]  # (tui/ui/textual_fixes.py's, kept)

    async def handled(min_sleep: float = 0, max_sleep: float = 1) -> None:  # after a key
        await settled(active_app.get())

    async def screen_settled(self: Any, timeout: float = 30.0) -> bool:  # Pilot's, before each pause
        await settled(self.app)
        return True

    async def paused(self: Any, delay: float | None = None) -> None:  # what was asked is done and drawn
        if delay is not None:  # a test's wait_for polling: keys held on purpose (for what it waits for) wait on
            await settled(self.app, keys=False)
            await asyncio.sleep(delay)
        await drawn(self.app, keys=delay is None)

    MessagePump._dispatch_message, Pilot._wait_for_screen = counted, screen_settled  # type: ignore[method-assign]
    textual.app.wait_for_idle, Pilot.pause = handled, paused  # type: ignore[assignment, method-assign]
    try:
        yield
    finally:
        MessagePump._dispatch_message, Pilot._wait_for_screen = dispatch, wait_for_screen  # type: ignore[method-assign]
        textual.app.wait_for_idle, Pilot.pause = idle, pause  # type: ignore[assignment, method-assign]
