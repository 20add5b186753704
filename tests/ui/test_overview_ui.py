"""The overview (issue 52, item 1): `O` reads every product through the index, counts each list by zone
and state with its monthly estimate, and Enter on a state's figure opens the list behind it, filtered to
exactly that state."""

from __future__ import annotations

import pytest

from helpers import loaded, make_app, screen_named, wait_for

pytestmark = pytest.mark.anyio


async def test_the_overview_counts_every_product_and_a_figure_opens_its_filtered_list(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await pilot.press("O")
        shown = await screen_named(pilot, app, "OverviewScreen")
        await wait_for(pilot, lambda: app.finder.filled, what="every product read", timeout=15)
        # (the count made once every product is read, and priced: the first count held the open list alone)
        await wait_for(pilot, lambda: "dns.zones" in {t.kind.id for t in shown.tallies}, what="counted again")
        await wait_for(pilot, lambda: ("instance.servers", "fr-par-1") in shown.costs, what="priced", timeout=10)
        kinds = {t.kind.id for t in shown.tallies}
        assert {"instance.servers", "dns.zones", "rdb.instances", "lb.lbs"} <= kinds
        assert "instance.types" not in kinds, "a catalogue is not what the account holds"
        servers = next(t for t in shown.tallies if t.kind.id == "instance.servers" and t.scope == "fr-par-1")
        listed = list(sandbox.instance.servers["fr-par-1"].values())
        assert servers.total == len(listed)
        stopped = sum(1 for r in listed if r["state"] == "stopped")
        assert ("stopped", stopped, "other") in servers.ordered()
        assert shown.costs[("instance.servers", "fr-par-1")][0] > 0
        # what needs someone comes first, each state in a bad tone once: the cursor starts on the first
        bad = [(t.kind.id, t.scope, s) for t in shown.tallies for s, _, tone in t.ordered() if tone in ("bad", "alarm")]
        ahead = [t[1:] for t in shown.targets[1 : len(bad) + 1]]
        assert bad and sorted(ahead) == sorted(bad) and shown.targets[0][0] == "none"
        assert shown.query_one("#overview-lines").highlighted == 1
        at = shown.targets.index(("list", "instance.servers", "fr-par-1", "stopped"))
        shown.query_one("#overview-lines").highlighted = at
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen.id == "main", what="the list")
        view = app.main.view
        await wait_for(pilot, lambda: view.table.shown_keys and not view.model.listing, what="filtered")
        rows = [view.table.get(k) for k in view.table.shown_keys]
        assert len(rows) == stopped and all(r.state == "stopped" for r in rows)  # not "stopped in place"
        assert view.kind.id == "instance.servers" and view.scope == "fr-par-1"


async def test_a_child_list_under_too_many_parents_is_not_read_in_a_pass_and_is_said(sandbox, monkeypatch):
    from tui.ui.across import finder

    monkeypatch.setattr(finder, "CHILD_PARENTS_MOST", 10)  # the demo has 25 servers, 7 DNS zones
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        app.finder.fill(say=False)
        await wait_for(pilot, lambda: app.finder.filled, what="every product read", timeout=15)
        assert not [p for _, p in sandbox.requests if p.endswith("/private_nics")], "no request under each server"
        assert "Private NICs of" in app.finder.unsearched() and "a request under each" in app.finder.unsearched()
        assert any(p.endswith("/records") for _, p in sandbox.requests), "a zone's records: few parents, read"
        # a list filtered by its parent is read under each only when not read whole: a zone's certificates
        # (no list of their own), not an instance's backups (the region's backups, read whole)
        assert sum(p.endswith("/ssl-certificates") for _, p in sandbox.requests) == len(sandbox.dns.zones)
        assert sorted(p for _, p in sandbox.requests if p.endswith("/backups")) == [
            f"/rdb/v1/regions/{r}/backups" for r in ("fr-par", "nl-ams", "pl-waw")
        ]


async def test_an_open_list_counts_its_zone_and_an_earlier_read_of_every_zone_the_others(sandbox):
    from tui.products.kit.location import ALL
    from tui.products.kit.overview import tally

    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        for scope in (ALL, "fr-par-2"):  # every zone read, then one zone's list in front
            app.main.set_scope(scope, "zone")
            await wait_for(
                pilot,
                lambda s=scope: any(h.kind.id == "instance.servers" and h.scope == s for h in app.finder.held()),
                what=f"{scope} listed and indexed",
            )
        counted = {t.scope: t.total for t in tally(app.finder.held()) if t.kind.id == "instance.servers"}
        held = {z: len(servers) for z, servers in sandbox.instance.servers.items() if servers}
        assert counted == held, "every zone counted (fr-par-2's from the list in front), each server once"


def test_what_was_not_read_is_said_in_a_line_however_many_failed():
    from tui.ui.across.finder import Finder

    finder = Finder(None)  # type: ignore[arg-type]  # (what it says needs no console)
    finder.filled = True
    finder.failed = [("dns.records", f"z{n}", f"Records of zone-{n}.example") for n in range(12)]
    said = finder.unsearched()
    assert said.count("Records of") == 8 and said.endswith("4 more (not read whole)")
    assert finder.unsearched({"instance.servers"}) == ""  # only what the screen reads


async def test_a_zone_not_read_by_a_pass_is_no_longer_said_once_its_list_is_read_whole(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        sandbox.inject(403, "/instance/v1/zones/fr-par-1/servers", method="GET", times=1)  # the pass's read
        app.finder.fill(say=False)
        await wait_for(pilot, lambda: app.finder.filled, what="every product read", timeout=15)
        assert "Instance › Servers in fr-par-1" in app.finder.unsearched()
        view.reload()
        await wait_for(pilot, lambda: "Servers in fr-par-1" not in app.finder.unsearched(), what="read since")
        assert "instance.servers" not in app.finder.unread_kinds()
