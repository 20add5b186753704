"""Monthly estimates from the published price lists: `$` on a list (each resource, the list's total, the
marked rows' total) and in a detail, said as an estimate with its source."""

from __future__ import annotations

import pytest

from helpers import loaded, make_app, open_view, screen_named, wait_for
from tui.sandbox import Sandbox

pytestmark = pytest.mark.anyio


async def test_a_lists_monthly_estimate_its_marked_rows_and_a_details():
    sandbox = Sandbox()
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        prices = {
            name: t["monthly_price"]
            for name, t in (await view.service.client.get_json("/instance/v1/zones/fr-par-1/products/servers"))[
                "servers"
            ].items()
        }
        rows = view.table.resources()
        view.table.toggle_mark(rows[0].id)
        view.focus_table()
        await pilot.press("$")
        shown = await screen_named(pilot, app, "ResultScreen")
        total = sum(prices[r.text("commercial_type")] for r in rows)
        assert f"The {len(rows)} servers shown: €{total:,.2f} a month" in shown.text
        assert f"The 1 marked (●): €{prices[rows[0].text('commercial_type')]:,.2f} a month" in shown.text
        assert "An estimate from the Instance price list" in shown.text
        stopped = [r for r in rows if r.state == "stopped"]
        resting = sum(prices[r.text("commercial_type")] for r in stopped)
        assert stopped and f"Of which {len(stopped)} stopped (€{resting:,.2f}): counted at the full price" in shown.text
        await pilot.press("escape")
        view.table.set_filter(rows[-1].name)  # the marked row hidden: still counted, and said so
        await pilot.press("$")
        filtered = await screen_named(pilot, app, "ResultScreen")
        assert "The 1 marked (●), 1 of them not shown: €" in filtered.text
        await pilot.press("escape")
        view.table.set_filter("")
        await pilot.press("escape", "enter")
        await screen_named(pilot, app, "DetailScreen")
        await pilot.press("$")
        one = await screen_named(pilot, app, "ResultScreen")
        assert "marked" not in one.text  # a detail is about its resource alone
        price = prices[view.table.get(view.table.cursor_key).text("commercial_type")]
        assert f"This one: €{price:,.2f} a month" in one.text


async def test_bare_metal_servers_are_priced_from_their_offers_and_a_kind_without_a_price_list_says_so():
    from tui.ui.across.costs import estimates

    app = make_app(Sandbox())
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        metal = await open_view(pilot, app, "baremetal.servers")
        await wait_for(pilot, lambda: metal.table.loaded_count and not metal.model.listing, what="bare metal")
        found = await estimates(app, metal.kind, metal.table.resources(), metal.scope)
        assert found and all(v is not None and v > 0 for _, _, v in found)
        offers = {o["id"]: o["name"] for z in Sandbox().baremetal.offers.values() for o in z.values()}
        assert all(named in offers.values() for _, named, _ in found), "each priced as its offer, named"
        volumes = await open_view(pilot, app, "instance.volumes")
        volumes.focus_table()
        assert volumes.may("costs") is False
