"""Keys typed ahead of a dialog: held until it can take them, then given to it in order.

Two gaps lost keys typed fast (or arriving together over a slow link):
- Before the dialog exists. Textual hands a key to the focused widget's queue and goes on reading
  the next ones; the key's binding runs only once it has bubbled back up to the app. So in `c d e v 1`
  on a list, `d e v 1` were read while `c` was still on its way, and went to the list (or nowhere)
  instead of the form `c` opens. Here a key bound to an action is followed up the chain it bubbles
  along (a callback queued behind it at each step); keys read meanwhile wait until it has landed.
- Before the dialog focuses a field. A form or a typed confirmation is pushed at once, but its first
  field takes the focus only once it is mounted (a form: once its choices are loaded). A screen that
  opts in with `TYPE_AHEAD = True` holds keys until it focuses something, or is gone; any other
  holds them until it is mounted (its keys' actions would find none of its widgets).
Either way keys wait two seconds at most, and are then read again in the order typed. A mixin of
the App.
"""

from __future__ import annotations

from typing import Any

from textual import events

HOLD_AT_MOST = 2.0  # seconds: a dialog that never focuses anything does not keep the keys
AFTERMATH = 2  # passes up a bound key's chain: the key, then what its binding posted (a message, a focus)


class TypeAhead:
    screen: Any
    focused: Any
    set_timer: Any
    post_message: Any

    def _init_type_ahead(self) -> None:
        self._held: list[events.Key] = []
        self._held_screen: Any = None
        self._hold_timer: Any = None
        self._replays = 0  # keys put back in the queue and not yet read again
        self._in_flight = False  # a bound key on its way to its binding: the next keys wait for it

    def _holds(self) -> bool:
        """Whether a key read now waits: one is already waiting (the order is kept), a bound key
        before it has not reached its binding yet, or the screen in front takes typing and has
        nothing focused yet."""
        if self._held or self._in_flight:
            return True
        try:
            screen = self.screen
        except Exception:  # no screen yet, or none any more: nothing to wait for
            return False
        if not screen.is_mounted:  # pushed, not built yet: its keys would find none of its widgets
            return True
        return bool(getattr(screen, "TYPE_AHEAD", False)) and screen.focused is None

    def _hold(self, event: events.Key) -> None:
        if not self._held:
            self._held_screen = self.screen
            self._hold_timer = self.set_timer(HOLD_AT_MOST, self._give_up)
        self._held.append(event)

    def _replay(self, key: events.Key, waited: bool = False) -> None:
        again = events.Key(key.key, key.character)
        again.replayed = True  # type: ignore[attr-defined]
        again.waited = waited or getattr(key, "waited", False)  # type: ignore[attr-defined]
        if self.post_message(again):
            self._replays += 1

    def _release(self, waited: bool = False) -> None:
        held, self._held = self._held, []
        self._held_screen = None  # a closed screen kept here kept every screen it still pointed to
        if self._hold_timer is not None:
            self._hold_timer.stop()
            self._hold_timer = None
        for key in held:  # read again, in order
            self._replay(key, waited)

    def _give_up(self) -> None:
        """Waited long enough: the keys go where they are read now, each once (held again, esc
        on a form still loading its choices was held and read again every two seconds, for good)."""
        self._in_flight = False
        self._release(waited=True)

    async def on_event(self, event: events.Event) -> None:
        if not isinstance(event, events.Key) or event.is_forwarded:
            await super().on_event(event)  # type: ignore[misc]
            return
        if getattr(event, "replayed", False):
            self._replays -= 1
        elif self._replays > 0:  # keys typed while the held ones are put back go behind them
            self._replay(event)
            return
        if self._holds() and not getattr(event, "waited", False):
            self._hold(event)
            if not self._in_flight and (self.screen is not self._held_screen or self.screen.focused is not None):
                self._release()  # it can take them now (or it is gone): all of them, in order
            return
        await self._deliver(event)

    async def _deliver(self, key: events.Key) -> None:
        try:
            bound = key.key in self.screen.active_bindings
            target = self.focused or self.screen
        except Exception:
            bound, target = False, None
        await super().on_event(key)  # type: ignore[misc]
        if bound and target is not None:
            self._in_flight = True
            self._follow(target, target, AFTERMATH)

    def _follow(self, node: Any, start: Any, passes: int) -> None:
        """Queue a callback behind the key in `node`'s queue; when it runs the key has left `node`
        (bubbled to its parent, or taken): follow it there, until the app, where its binding ran.
        Then once more from where it started, behind what its binding posted on the way (a pick in
        an open drop-down is told to the drop-down by a message, which moves the focus back to it:
        a Tab read meanwhile went from the closing list)."""
        if node is self:
            def landed() -> None:
                self._follow(start, start, passes - 1) if passes > 1 else self._landed()
        else:
            parent = node.parent

            def landed() -> None:
                self._follow(parent if parent is not None else self, start, passes)

        if not node.call_later(landed):  # the widget is gone (its screen closed): the key with it
            self._landed()

    def _landed(self) -> None:
        self._in_flight = False
        if self._held:
            self._release()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        if self._held and not self._in_flight:
            self._release()
