"""Keys typed ahead of a dialog: held until it can take them, then given to it in order.

Three gaps lost keys typed fast (or arriving together over a slow link):
- Before the dialog exists. Textual hands a key to the focused widget's queue and goes on reading
  the next ones; the key's binding runs only once it has bubbled back up to the app. So in `c d e v 1`
  on a list, `d e v 1` were read while `c` was still on its way, and went to the list (or nowhere)
  instead of the form `c` opens. Here a key bound to an action is followed up the chain it bubbles
  along (a callback queued behind it at each step); keys read meanwhile wait until it has landed.
- Before the dialog focuses a field. A form or a typed confirmation is pushed at once, but its first
  field takes the focus only once it is mounted (a form: once its choices are loaded). A screen that
  opts in with `TYPE_AHEAD = True` holds keys until it focuses something, or is gone; any other
  holds them until it is mounted (its keys' actions would find none of its widgets).
- Before the console is up, and before a screen has answered what was typed into it: keys read
  while only the app's default screen shows wait for the console's first screen; a screen with
  `holds_key(key)` holds that key until it says it is ready (`app.type_ahead.ready()`): the palette's
  Enter until the search typed before it has its matches.
Keys wait two seconds at most (ten while a screen says it is still answering), and are then read
again in the order typed.

An act refused (a warning while its key was on its way: `d` on a running server) or a question that
takes no typing ahead (the zone asked before a form) opens no dialog: the keys typed after it were meant
for that dialog. Those already read are dropped; so are those typed on at a person's pace, until a pause
(REFUSED_PAUSE: the time to read what was said), and that is said once. A part the app owns.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from textual import events

if TYPE_CHECKING:
    from textual.app import App
    from textual.dom import DOMNode
    from textual.screen import Screen
    from textual.timer import Timer

HOLD_AT_MOST = 2.0  # seconds: a dialog that never focuses anything does not keep the keys
BUSY_AT_MOST = 10.0  # seconds: a screen still answering what was typed before (the palette searching)
AFTERMATH = 2  # passes up a bound key's chain: the key, then what its binding posted (a message, a focus)
REFUSED_PAUSE = 1.0  # seconds without a key after a refused act: what is typed next is meant for the list
REFUSED_AT_MOST = 5.0  # seconds: keys typed on without a pause are dropped this long after a refusal at most
NEVER_DROPPED = frozenset({"ctrl+c", "ctrl+q"})
_now = time.monotonic  # (a test's clock)


class TypeAhead:
    """The app's type-ahead (`app.type_ahead`): the app hands it every key it reads (`read`), every
    screen it pushes (`pushed`) and every warning it says (`said`)."""

    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self._held: list[events.Key] = []
        self._held_screen: Screen[object] | None = None
        self._held_since = 0.0
        self._hold_timer: Timer | None = None
        self._replays = 0  # keys put back in the queue and not yet read again
        self._in_flight = False  # a bound key on its way to its binding: the next keys wait for it
        self.last_key_at = time.monotonic()  # when the operator last typed (idle work waits for a pause)
        self._expecting = False  # an action picked will open a dialog: keys wait for it (`expect_screen`)
        self._refused = False  # the key on its way (or the action expected) was refused: no dialog comes
        self._refused_at: float | None = None  # when it was: keys typed on without a pause are dropped
        self._refused_last = 0.0  # the last key dropped since (or the refusal)
        self._refused_said = False
        self._refused_why = ""

    @property
    def keys_waiting(self) -> bool:
        """Keys read and not yet handed on: held, put back, or behind a bound key still on its way."""
        return bool(self._held) or self._replays > 0 or self._in_flight or self._expecting

    def _holds(self, key: str) -> bool:
        """Whether a key read now waits: one is already waiting (the order is kept), a bound key
        before it has not reached its binding yet, or the screen in front cannot take it yet."""
        return bool(self._held) or self._in_flight or self._expecting or self._screen_waits(key)

    def expect_screen(self) -> None:
        """An action was picked whose dialog its worker opens later (after a read, say): keys typed
        meanwhile wait for that dialog instead of reaching the list behind it (`a ⏎ new-name`). Over
        once a screen is pushed (`pushed`) or the action ends without one (`expect_done`)."""
        self._expecting = True

    def pushed(self, screen: Screen[Any] | str) -> None:
        """A screen is pushed: what an action picked was expected to open, and the keys are its, unless it
        says they are not (`typed_ahead`: a zone asked before a form)."""
        self._expecting = self._refused = False
        if not getattr(screen, "typed_ahead", True):
            self._refused = True
            self._drop_refused("they were for what follows it: pick first")

    def expect_done(self) -> None:
        if self._expecting:
            self._expecting = False
            if not self._drop_refused():
                self.ready()

    def said(self, severity: str) -> None:
        """A warning or an error said while a key is on its way to its binding (or while the dialog an
        action was to open is awaited) is that act refused (`d` on a running server): what was typed after
        it was meant for the dialog that does not come, and is dropped rather than given to the list (walk
        22: `d web-01 ⏎` on a running server opened its edit form and typed `b-01` into its name)."""
        if severity != "information" and (self._in_flight or self._expecting):
            self._refused = True

    def refuse(self) -> None:
        """An act refused where its key is read (read-only mode refusing `d`), rather than by its binding:
        the keys typed after it are dropped as after any refused act."""
        self._refused = True
        if not self._in_flight and not self._expecting:
            self._drop_refused()

    def _drop_refused(self, why: str = "it was refused, and nothing else was done") -> bool:
        """The keys held behind a refused act dropped, and said so; whether there were any. The keys typed on
        after it are dropped too (`_typed_on`)."""
        refused, self._refused = self._refused, False
        if refused:
            self._refused_at = self._refused_last = _now()
            self._refused_why, self._refused_said = why, False
        if not refused or not self._held:
            return False
        self._refused_said = True
        dropped, self._held = len(self._held), []
        self._held_screen = None
        if self._hold_timer is not None:
            self._hold_timer.stop()
            self._hold_timer = None
        keys = "1 key" if dropped == 1 else f"{dropped} keys"
        self.app.notify(f"{keys} typed ahead not used: {why}.", timeout=5)
        return True

    def _typed_on(self, event: events.Key) -> bool:
        """Whether a key is typed on after a refusal, before a pause: meant for the dialog that did not come,
        it is dropped (the first one said)."""
        if self._refused_at is None or getattr(event, "replayed", False) or event.key in NEVER_DROPPED:
            return False
        now = _now()
        if now - self._refused_last >= REFUSED_PAUSE or now - self._refused_at >= REFUSED_AT_MOST:
            self._refused_at = None  # a pause: what comes now is meant for what is in front
            return False
        self._refused_last = now
        if not self._refused_said:
            self._refused_said = True
            self.app.notify(f"Keys typed after it not used, until a pause: {self._refused_why}.", timeout=5)
        return True

    def _screen_waits(self, key: str) -> bool:
        """The console has not put up its first screen (only the app's default one is there: `:` typed
        the instant it starts opened the palette below the console), the screen in front is not built
        yet (its keys would find none of its widgets), it takes typing and has nothing focused yet, or
        it says it cannot take this key yet (`holds_key`: the palette's Enter before its matches)."""
        try:
            screen = self.app.screen
        except Exception:  # no screen yet, or none any more: nothing to wait for
            return False
        if not screen.is_mounted or len(self.app.screen_stack) < 2:
            return True
        if getattr(screen, "TYPE_AHEAD", False) and screen.focused is None:
            return True
        holds_key = getattr(screen, "holds_key", None)
        return bool(holds_key is not None and holds_key(key))

    def ready(self) -> None:
        """Told by a screen whose `holds_key` may have changed its answer."""
        if self._held and not self._in_flight and not self._expecting and not self._screen_waits(self._held[0].key):
            self._release()

    def _hold(self, event: events.Key) -> None:
        if event.key == "ctrl+j" and len(self.app.screen_stack) < 2:
            # typed before the console took the terminal: the line discipline still turned Enter into a newline
            event = events.Key("enter", "\r")
        if not self._held:
            self._held_screen = self.app.screen
            self._held_since = time.monotonic()
            self._hold_timer = self.app.set_timer(HOLD_AT_MOST, self._give_up)
        self._held.append(event)

    def _replay(self, key: events.Key, waited: bool = False) -> None:
        again = events.Key(key.key, key.character)
        # (marks of the type-ahead's own on the key: read back with getattr)
        again.replayed = True  # type: ignore[attr-defined]
        again.waited = waited or getattr(key, "waited", False)  # type: ignore[attr-defined]
        if self.app.post_message(again):
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
        on a form still loading its choices was held and read again every two seconds, for good).
        A screen that says it is still busy with them (`holds_key`) keeps them up to BUSY_AT_MOST."""
        if self._held and (self.app.screen is self._held_screen or self._expecting) and not self._in_flight:
            holds_key = getattr(self.app.screen, "holds_key", None)
            busy = self._expecting or (holds_key is not None and holds_key(self._held[0].key))
            if busy and time.monotonic() - self._held_since < BUSY_AT_MOST:
                self._hold_timer = self.app.set_timer(HOLD_AT_MOST, self._give_up)
                return
        self._in_flight = self._expecting = False
        self._release(waited=True)

    async def read(self, event: events.Event, pass_on: Callable[[events.Event], Awaitable[None]]) -> None:
        """An event the app reads: a key given on to the app (`pass_on`, its own `on_event`) now, held, put
        back behind the held ones, or dropped after a refusal; any other event given on."""
        if not isinstance(event, events.Key) or event.is_forwarded:
            await pass_on(event)
            return
        self.last_key_at = time.monotonic()
        if self._typed_on(event):
            return
        if getattr(event, "replayed", False):
            self._replays -= 1
        elif self._replays > 0:  # keys typed while the held ones are put back go behind them
            self._replay(event)
            return
        if self._holds(event.key) and not getattr(event, "waited", False):
            self._hold(event)
            gone = self.app.screen is not self._held_screen
            if not self._in_flight and not self._expecting and (gone or not self._screen_waits(self._held[0].key)):
                self._release()  # it can take them now (or it is gone): all of them, in order
            return
        await self._deliver(event, pass_on)

    async def _deliver(self, key: events.Key, pass_on: Callable[[events.Event], Awaitable[None]]) -> None:
        if not self.app.screen_stack:  # the console is closing: nothing left to read a key held till now
            return
        try:  # a screen that judges keys by what came before (`holds_key`) sees each one land first
            bound = key.key in self.app.screen.active_bindings or hasattr(self.app.screen, "holds_key")
            target = self.app.focused or self.app.screen
        except Exception:
            bound, target = False, None
        await pass_on(key)
        if bound and target is not None:
            self._in_flight = True
            self._follow(target, target, AFTERMATH)

    def _follow(self, node: DOMNode, start: DOMNode, passes: int) -> None:
        """Queue a callback behind the key in `node`'s queue; when it runs the key has left `node`
        (bubbled to its parent, or taken): follow it there, until the app, where its binding ran.
        Then once more from where it started, behind what its binding posted on the way (a pick in
        an open drop-down is told to the drop-down by a message, which moves the focus back to it:
        a Tab read meanwhile went from the closing list)."""
        if node is self.app:

            def landed() -> None:
                self._follow(start, start, passes - 1) if passes > 1 else self._landed()
        else:
            parent = node.parent

            def landed() -> None:
                self._follow(parent if parent is not None else self.app, start, passes)

        if not node.call_later(landed):  # the widget is gone (its screen closed): the key with it
            self._landed()

    def _landed(self) -> None:
        self._in_flight = False
        if not self._expecting and not self._drop_refused() and self._held:
            self._release()

    def focused(self) -> None:
        """Something was focused (a dialog's first field): the keys held for it are its."""
        if self._held and not self._in_flight and not self._expecting:
            self._release()
