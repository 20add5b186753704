"""Monthly estimates (issue 36, item 7): where a kind declares a price list (`kind_options.Cost`: the
Instance types' monthly prices, the bare-metal offers'), `$` on a list says what each resource shown
costs a month, the list's total and the marked rows' total; in a detail, that resource's. Always said
as an estimate, with the price list it comes from. A price list is read once per zone or region (it is
a catalogue: kept an hour), in a worker; nothing here names a product.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ...api.safe import clean

if TYPE_CHECKING:
    from ...products.kit.base import ResourceKind, Row
    from ...products.kit.kind_options import Cost
    from ..action_host import ActionHost
    from ..app import CloudApp

    Prices = dict[str, tuple[float | None, str]]  # a catalogue entry's `match` value -> (monthly price, its name)
    PriceLists = dict[tuple[str, str], tuple[float, Prices]]  # (kind id, scope) -> (when read, its prices)
    Estimate = tuple[Row, str, float | None]  # a row, what it is priced as, its monthly estimate

KEEP = 3600.0  # seconds a price list is kept


async def price_list(app: CloudApp, cost: Cost, scope: str) -> Prices:
    """{the catalogue entry's `match` value: (its monthly price, its name)} in `scope`, read at most once
    an hour (the name says what an id matched: a bare-metal offer's, not its UUID)."""
    kind = cost.catalogue.get()
    where = "global" if kind.scope_type == "global" else scope
    kept = app.price_lists
    hit = kept.get((kind.id, where))
    if hit is not None and time.monotonic() - hit[0] < KEEP:
        return hit[1]
    rows = await app.service(kind).list_rows(where)
    prices: Prices = {}
    for row in rows:
        name = str(row.name or row.text(cost.match))
        try:
            value = cost.monthly(row)
            prices[row.text(cost.match)] = (float(value) if value is not None else None, name)
        except (TypeError, ValueError):
            prices[row.text(cost.match)] = (None, name)
    kept[(kind.id, where)] = (time.monotonic(), prices)
    return prices


async def estimates(app: CloudApp, kind: ResourceKind, rows: list[Row], scope: str) -> list[Estimate]:
    """(row, what it is priced as, its monthly estimate or None) for each row."""
    cost = kind.rows.cost
    lists: dict[str, Prices] = {}
    out = []
    for row in rows:
        assert cost is not None  # (`$` is offered only where the kind has a price list)
        where = kind.scope_of(row) or scope
        if where not in lists:
            lists[where] = await price_list(app, cost, where)
        entry = row.text(cost.key)
        price, name = lists[where].get(entry, (None, entry))
        out.append((row, name, price))
    return out


def euros(value: float) -> str:
    return f"€{value:,.2f}"


def said(kind: ResourceKind, found: list[Estimate], marked: list[Estimate], shown_as: str) -> str:
    """The estimate as read: a line per resource, the total, the marked rows' total (shown or not:
    a filter may hide some), and the source."""
    chosen = {r.id for r, _, _ in marked}
    assert kind.rows.cost is not None  # (`$` is offered only where the kind has a price list)
    idle = kind.rows.cost.idle
    width = min(28, max((len(clean(str(r.name or r.id))) for r, _, _ in found), default=4))
    lines = [
        f"{'● ' if r.id in chosen else '  '}{clean(str(r.name or r.id))[:width]:<{width}}  "
        f"{clean(entry)[:24]:<24}  {euros(v) if v is not None else 'no price'}"
        + (f"  ({clean(r.state)})" if r.state in idle else "")
        for r, entry, v in found
    ]
    priced = [v for _, _, v in found if v is not None]
    total = f"{shown_as}: {euros(sum(priced))} a month" + (
        f" ({len(found) - len(priced)} without a price)" if len(priced) < len(found) else ""
    )
    out = [*lines, "", total]
    resting = [v for r, _, v in found if r.state in idle and v is not None]
    if resting:
        which = "It is" if len(found) == 1 else f"Of which {len(resting)}"
        out.append(
            f"{which} {'/'.join(idle)} ({euros(sum(resting))}): counted at the full price, though what is billed "
            "while so may be less."
        )
    if marked:
        shown = {r.id for r, _, _ in found}
        hidden = sum(1 for r, _, _ in marked if r.id not in shown)
        out.append(
            f"The {len(marked)} marked (●){f', {hidden} of them not shown' if hidden else ''}: "
            f"{euros(sum(v for _, _, v in marked if v is not None))} a month"
        )
    out += ["", f"An estimate from {kind.rows.cost.source}: what is billed may differ."]
    return "\n".join(out)


async def show(host: ActionHost, rows: list[Row], title: str, shown_as: str, marked: list[Row] | None = None) -> None:
    """The estimate of `rows`, and of the `marked` ones, in a dialog (run in a worker: a price list
    may be read first)."""
    from ..screens.result import ResultScreen

    found = await estimates(host.app, host.kind, rows, host.scope)
    chosen = await estimates(host.app, host.kind, marked or [], host.scope)
    host.app.push_screen(ResultScreen(title, said(host.kind, found, chosen, shown_as)))
