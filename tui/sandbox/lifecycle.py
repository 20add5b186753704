"""States that advance with the clock, for any sandbox object: the one mechanism every product uses.

A product declares a `Timeline` for each kind of object that moves by itself (its clock, the field
stamped as a step applies, hooks for what a step means beyond copying fields) and plans steps on an
object: `timeline.plan(obj, (20, {"status": "initializing"}), (10, {"status": "ready"}))`. Steps are
applied when the object is next read (`settle`) or when the product reads many at once
(`settle_due`); with a ManualClock a test decides exactly when a step happens. `GONE` in a step's
changes removes the object. Plans live in the timeline, not in the objects, so rendering an object
never needs to leave them out.
"""

from __future__ import annotations

from typing import Any, Callable

from .clock import Clock

GONE = "_gone"

Obj = dict[str, Any]
Step = tuple[float, dict[str, Any]]  # (seconds after the previous step, changes)


class Timeline:
    """The timed states of one kind of object.

    `stamp` names the field set as each step applies: to the step's time, or with `stamp_read` to the
    time it is read (products whose objects were stamped by a callback run on the next request).
    `apply(obj, changes)` replaces the plain copy of a step's fields; `on_step(obj, changes)` runs
    after each step; `on_gone(obj)` removes an object whose step says `GONE`.
    """

    def __init__(
        self,
        clock: Clock,
        *,
        stamp: str | None = "updated_at",
        stamp_read: bool = False,
        apply: Callable[[Obj, dict[str, Any]], None] | None = None,
        on_step: Callable[[Obj, dict[str, Any]], None] | None = None,
        on_gone: Callable[[Obj], object] | None = None,  # (what it returns is not read)
    ) -> None:
        self.clock = clock
        self.stamp = stamp
        self.stamp_read = stamp_read
        self.apply = apply
        self.on_step = on_step
        self.on_gone = on_gone
        self._plans: dict[int, tuple[Obj, list[tuple[float, dict[str, Any]]]]] = {}  # id(obj) -> (obj, steps by time)
        self.applied = 0  # steps applied so far (what a listing kept between its pages is checked against)
        self.kept: dict[Any, tuple[Any, list[Obj]]] = {}  # `collection.between_pages`

    # ---- planning -------------------------------------------------------------------------------
    def plan(self, obj: Obj, *steps: Step, start: float | None = None, queue: bool = True) -> None:
        """Plan `steps`, each a delay after the one before, from `start` (default now). Queued after
        what the object already has planned, or with `queue=False` merged with it by time."""
        _, planned = self._plans.setdefault(id(obj), (obj, []))
        at = self.clock.now() if start is None else start
        if queue and planned:
            at = max(at, planned[-1][0])
        for delay, changes in steps:
            at += delay
            planned.append((at, changes))
        if not queue:
            planned.sort(key=lambda step: step[0])
        if not planned:
            del self._plans[id(obj)]

    def replan(self, obj: Obj, *steps: Step, start: float | None = None) -> None:
        """Forget what the object had planned and plan `steps` instead."""
        self.cancel(obj)
        self.plan(obj, *steps, start=start)

    def cancel(self, obj: Obj) -> None:
        self._plans.pop(id(obj), None)

    def planned(self, obj: Obj) -> bool:
        """Whether the object has steps still to come."""
        return id(obj) in self._plans

    def due_now(self) -> list[Obj]:
        """The objects with a step due (a walk of what is planned, not of every object held)."""
        now = self.clock.now()
        return [obj for obj, steps in self._plans.values() if steps[0][0] <= now]

    def due(self, obj: Obj) -> bool:
        entry = self._plans.get(id(obj))
        return entry is not None and entry[1][0][0] <= self.clock.now()

    # ---- applying -------------------------------------------------------------------------------
    def settle(self, obj: Obj) -> bool:
        """Apply the steps the clock has reached; True when the object is gone."""
        entry = self._plans.get(id(obj))
        if entry is None:
            return False
        now = self.clock.now()
        planned = entry[1]
        while planned and planned[0][0] <= now:
            at, changes = planned.pop(0)
            self.applied += 1
            if changes.get(GONE):
                del self._plans[id(obj)]
                if self.on_gone is not None:
                    self.on_gone(obj)
                return True
            if self.apply is not None:
                self.apply(obj, changes)
            else:
                obj.update(changes)
            if self.stamp is not None and self.stamp in obj:
                obj[self.stamp] = self.clock.iso(now if self.stamp_read else at)
            if self.on_step is not None:
                self.on_step(obj, changes)
        if not planned:
            self._plans.pop(id(obj), None)
        return False

    def settle_due(self) -> None:
        """Settle every object with a step due, earliest first (a listing settles what moved, not
        every object it holds)."""
        now = self.clock.now()
        due = sorted((steps[0][0], n, obj) for n, (obj, steps) in enumerate(self._plans.values()) if steps[0][0] <= now)
        for _, _, obj in due:
            self.settle(obj)
