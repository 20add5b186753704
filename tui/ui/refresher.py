"""One refresh loop for every view that shows live data: lists, panels, detail tabs, charts, gauges.

A `Refresher` owns one one-shot timer on a widget, re-armed after every fetch with the planner's
delay (fast while something moves, slow otherwise, jittered after a failure). While the widget
is hidden or another screen is on top (a modal, a detail it does not feed) its ticks send nothing
and only re-check. The owner supplies `tick` (which starts a worker and reports back with `done`)
and `moving` (whether anything it shows is between states).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from textual.timer import Timer

from ..products.kit.refresh_plan import RefreshPlanner, RefreshPolicy
from .errors import guarded

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen
    from textual.widget import Widget


class Refresher:
    def __init__(
        self,
        widget: Widget,
        tick: Callable[[], object],  # (a worker's start: what it answers is not read)
        planner: RefreshPlanner | None = None,
        *,
        policy: RefreshPolicy | None = None,
        moving: Callable[[], bool] = lambda: False,
        also_on_top: Callable[[Screen[object]], bool] = lambda screen: False,
        out_of_sight: Callable[[], bool] = lambda: False,
    ) -> None:
        self.widget = widget
        self.planner = planner or RefreshPlanner(policy)  # a list's is its model's (`ListModel.planner`)
        self._tick_fn = tick
        self._moving = moving
        self._also_on_top = also_on_top  # a screen on top that this widget still feeds (its detail)
        self._out_of_sight = out_of_sight  # whether it still has work while hidden (rows followed after an act)
        self._timer: Timer | None = None

    @property
    def app(self) -> App[object]:
        """The widget's app: where a failing tick is said (`guarded`)."""
        return self.widget.app

    def moving(self) -> bool:
        return self._moving()

    def arm(self, delay: float | None = None) -> None:
        self.cancel()
        if delay is None:
            delay = self.planner.next_delay(self._moving())
        self._timer = self.widget.set_timer(delay, self._went_off)

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def paused(self) -> bool:
        """No requests while another screen (a modal) is on top, or while the widget is hidden unless
        it has work out of sight (`out_of_sight`: rows followed after an act are polled until they settle)."""
        w = self.widget
        if not w.is_attached or (not w.display and not self._out_of_sight()):
            return True
        top = w.app.screen
        return w.screen is not top and not self._also_on_top(top)

    def done(self, ok: bool, full: bool = True) -> None:
        """A fetch ended: arm the next tick (jittered after a failure)."""
        if full:
            self.planner.full_done()
        if ok:
            self.planner.succeeded()
        else:
            self.planner.failed()
        self.arm()

    def fire(self) -> None:
        """Tick now (a view shown again; tests, standing for the timer): the tick armed is dropped, so one
        chain of ticks goes on — a tick armed and forgotten went off too, and each `r` then added a chain."""
        self.cancel()
        self._went_off()

    @guarded("Scheduled refresh")
    def _went_off(self) -> None:
        """The timer went off: tick, or re-check later when paused."""
        self._timer = None
        if self.paused():
            self.arm(self.planner.policy.paused)
            return
        self._tick_fn()
