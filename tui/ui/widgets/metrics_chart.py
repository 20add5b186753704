"""A resource's metrics as a chart in the terminal (any kind declaring `base.Metrics`): one metric at a
time over a chosen window, one line per series (a node), refreshed with the view through a
`Refresher`. Drawing is textual-plotext's; this widget only fetches, parses leniently and labels.

Keys: `m` / `M` next / previous metric, `w` / `W` longer / shorter window, `r` refresh now.
"""

from __future__ import annotations

import math
import os
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static
from textual_plotext import PlotextPlot

from ...api.safe import clean
from ...products.kit import times
from ...products.kit.base import Metrics
from ...products.kit.refresh_plan import RefreshPolicy
from ..console_app import wall_time
from ..errors import describe
from ..refresher import Refresher

if TYPE_CHECKING:
    from ...products.kit.base import Metric, Row
    from ...products.kit.service import ResourceService


MARKERS = ("•", "+", "x", "o", "*", "#")
PLAUSIBLE = 1e15  # beyond this a value is a fault, not a measure: drawing it overflows the axis


def parse_points(series: dict[str, Any]) -> list[tuple[float, float]]:
    """[(epoch seconds, value)] of a series' points, skipping any that are not [time, number]: a
    NaN, an infinity or an out-of-range value ("1.7e308") is a gap, not a point."""
    out = []
    for point in series.get("points") or []:
        if not isinstance(point, (list, tuple)) or len(point) < 2:
            continue
        at, value = point[0], point[1]
        try:
            when = times.stamp(at)
            number = float(value)
        except (TypeError, ValueError, OverflowError):
            continue
        if when is None or not math.isfinite(number) or abs(number) > PLAUSIBLE or not math.isfinite(when):
            continue
        out.append((when, number))
    out.sort()
    return out


def series_label(series: dict[str, Any]) -> str:
    meta = series.get("metadata")
    if isinstance(meta, dict) and meta:
        return clean(str(meta.get("node") or next(iter(meta.values()))))
    return clean(str(series.get("name") or "series"))


class MetricsChart(Vertical):
    DEFAULT_CSS = """
    MetricsChart { height: 1fr; }
    MetricsChart #chart-head { height: auto; padding: 0 1; }
    MetricsChart PlotextPlot { height: 1fr; min-height: 8; }
    """
    BINDINGS = [
        Binding("m", "metric(1)", "Next metric", id="metric_on_1"),
        Binding("M", "metric(-1)", "Previous metric", show=False, id="metric_back_1"),
        Binding("w", "window(1)", "Longer window", id="window_on_1"),
        Binding("W", "window(-1)", "Shorter window", show=False, id="window_back_1"),
        Binding("r", "refresh_chart", "Refresh", id="refresh_chart"),
    ]
    can_focus = True

    def __init__(
        self, service: ResourceService, scope: str, row: Row, spec: Metrics, *, policy: RefreshPolicy | None = None
    ) -> None:
        super().__init__(classes="metrics-chart")
        self.service = service
        self.scope = scope
        self.row = row
        self.spec = spec
        self.metric = 0
        self.window = 0
        self.series: list[dict[str, Any]] = []
        self.error: str | None = None
        self.loaded = False
        self.refresher = Refresher(self, self._load, policy=policy or getattr(service, "policy", None))

    def compose(self) -> ComposeResult:
        yield Static("loading…", id="chart-head", markup=False)
        yield PlotextPlot(id="chart-plot")

    def on_mount(self) -> None:
        self._load()

    def on_unmount(self) -> None:
        self.refresher.cancel()

    # ---- what it shows ----------------------------------------------------------------------------
    @property
    def current(self) -> Metric:
        return self.spec.metrics[self.metric]

    def _now(self) -> float:
        return wall_time(self)

    @work(exclusive=True, group="metrics", exit_on_error=False)
    async def _load(self) -> None:
        metric, window = self.current, self.spec.windows[self.window]
        try:
            found = await self.service.metrics(self.scope, self.row, self.spec, metric.name, window[1], self._now())
        except Exception as err:
            summary, hint = describe(err)
            self.error = f"✖ {summary}. {hint}"
            self._draw()
            self.refresher.done(False)
            return
        if (metric, window) != (self.current, self.spec.windows[self.window]):
            return  # the operator moved on while this was loading
        self.series, self.error, self.loaded = found, None, True
        self._draw()
        self.refresher.done(True)

    def _draw(self) -> None:
        metric, (wlabel, seconds) = self.current, self.spec.windows[self.window]
        head = Text.assemble((f"{metric.label}", "bold"), f" · last {wlabel}  ")
        plot = self.query_one(PlotextPlot)
        plt = plot.plt
        plt.clear_data()
        plt.clear_figure()
        form = "d/m H:M" if seconds > 86_400 else "H:M"
        plt.date_form(form)
        plotted = 0
        # Without colour, lines differ by their marker, named in the head; with colour, braille is finer.
        markers = MARKERS if os.environ.get("NO_COLOR") else ("braille",)
        for s in self.series:
            points = parse_points(s)
            if not points:
                continue
            label = series_label(s)
            marker = markers[plotted % len(markers)]
            head.append(f"{'' if marker == 'braille' else marker + ' '}{label} {points[-1][1]:g}{metric.unit}  ")
            stamps = [
                datetime.fromtimestamp(t, timezone.utc).strftime("%d/%m %H:%M" if seconds > 86_400 else "%H:%M")
                for t, _ in points
            ]
            plt.plot(stamps, [v for _, v in points], label=label, marker=marker)
            plotted += 1
        if self.error:
            head = Text(self.error, style="red")
        elif self.loaded and not plotted:
            head.append("no data in this window", style="dim")
        head.append(
            f"\n{self.metric + 1}/{len(self.spec.metrics)} metrics · m next metric · w window "
            f"({', '.join(w for w, _ in self.spec.windows)})",
            style="dim",
        )
        self.query_one("#chart-head", Static).update(head)
        plot.refresh()

    # ---- keys ---------------------------------------------------------------------------------------
    def action_metric(self, step: int) -> None:
        self.metric = (self.metric + step) % len(self.spec.metrics)
        self.series, self.loaded = [], False
        self._draw()
        self._load()

    def action_window(self, step: int) -> None:
        self.window = (self.window + step) % len(self.spec.windows)
        self.series, self.loaded = [], False
        self._draw()
        self._load()

    def action_refresh_chart(self) -> None:
        self.refresher.cancel()
        self._load()
