"""A kind's detail tabs beyond its fields and JSON: a child list (events), metric charts, a
topology tree, or a widget of the product's own. Declarations only (no Textual, no pydantic);
re-exported from `base`, where products import them."""

from __future__ import annotations

from ...records import record


@record(frozen=True, eq=False)
class Metric:
    name: str  # the API's metric name: "cpu_usage_percent"
    label: str  # "CPU"
    unit: str = "%"


@record(frozen=True, eq=False)
class Metrics:
    """A resource's metric time series (spec/4 "Time series"): `path` is relative to the item
    ("{id}/metrics"), the window is sent as `start`/`end` (RFC 3339) and one metric per request
    as `name_param`. The console draws them as charts over the windows offered."""

    path: str
    start: str
    end: str
    metrics: tuple[Metric, ...]
    name_param: str = "metric_name"
    windows: tuple[tuple[str, int], ...] = (("1 h", 3600), ("6 h", 6 * 3600), ("24 h", 86_400), ("7 d", 7 * 86_400))


@record(frozen=True, eq=False)
class DetailPanel:
    """An extra tab of a kind's detail view (events, metrics, topology). One of: `kind`, "module:ATTR"
    of a child ResourceKind listed there for the resource (an events timeline: the same table,
    paging and refresh as any list); `chart`, the resource's metrics drawn as charts; `tree`,
    "module:ATTR" of `async (service, scope, row) -> views.Node`, its topology drawn as a tree and
    read again with the view; or `widget`, "module:ATTR" of a callable (service, scope, row) -> a
    Textual widget of the product's own, which refreshes through a `Refresher`."""

    title: str
    kind: str | None = None
    widget: str | None = None
    chart: Metrics | None = None
    tree: str | None = None

    def __post_init__(self) -> None:
        if sum(x is not None for x in (self.kind, self.widget, self.chart, self.tree)) != 1:
            raise ValueError(f"detail panel {self.title!r}: give exactly one of kind, chart, tree and widget")
