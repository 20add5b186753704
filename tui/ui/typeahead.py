"""Keys typed ahead of a dialog: held until it can take them, then given to it in order.

A form or a typed confirmation is pushed at once, but its first field takes the focus only once it
is mounted (a form: once its choices are loaded). Textual gives a key to the focused widget, or to
the screen when none is: keys typed in that gap (`c` then a name, fast, or over a slow link) were
lost, or half of a name was ("ebx01" for "webx01"). Here they wait until the screen in front
focuses something, or is gone, or two seconds pass, and are then read again in the order typed.
A screen opts in with `TYPE_AHEAD = True`. A mixin of the App.
"""

from __future__ import annotations

from typing import Any

from textual import events

HOLD_AT_MOST = 2.0  # seconds: a dialog that never focuses anything does not keep the keys


class TypeAhead:
    screen: Any
    set_timer: Any
    post_message: Any

    def _init_type_ahead(self) -> None:
        self._held: list[events.Key] = []
        self._held_screen: Any = None
        self._hold_timer: Any = None
        self._replays = 0  # keys put back in the queue and not yet read again

    def _holds(self, event: events.Event) -> bool:
        """Whether a key read now waits: one is already waiting (the order is kept), or the screen
        in front takes typing and has nothing focused yet."""
        if not isinstance(event, events.Key) or event.is_forwarded:
            return False
        if self._held:
            return True
        try:
            screen = self.screen
        except Exception:  # no screen yet, or none any more: nothing to wait for
            return False
        return bool(getattr(screen, "TYPE_AHEAD", False)) and screen.focused is None

    def _hold(self, event: events.Key) -> None:
        if not self._held:
            self._held_screen = self.screen
            self._hold_timer = self.set_timer(HOLD_AT_MOST, self._release)
        self._held.append(event)

    def _replay(self, key: events.Key) -> None:
        again = events.Key(key.key, key.character)
        again.replayed = True  # type: ignore[attr-defined]
        if self.post_message(again):
            self._replays += 1

    def _release(self) -> None:
        held, self._held = self._held, []
        if self._hold_timer is not None:
            self._hold_timer.stop()
            self._hold_timer = None
        for key in held:  # read again, in order
            self._replay(key)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded:
            if getattr(event, "replayed", False):  # read again: delivered now, never held twice
                self._replays -= 1
                await super().on_event(event)  # type: ignore[misc]
                return
            if self._replays > 0:  # keys typed while the held ones are put back go behind them
                self._replay(event)
                return
        if self._holds(event):
            assert isinstance(event, events.Key)
            self._hold(event)
            if self.screen is not self._held_screen or self.screen.focused is not None:
                self._release()  # it can take them now (or it is gone): all of them, in order
            return
        await super().on_event(event)  # type: ignore[misc]

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        if self._held:
            self._release()
