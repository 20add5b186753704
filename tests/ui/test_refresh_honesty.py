"""Refreshing tells the truth: moving parts are polled, a failed refresh does not look fresh, a
listing that breaks keeps its rows and says why, a detail of something gone offers nothing."""

from __future__ import annotations

import pytest

from helpers import loaded, make_app, wait_for
from tui.products.kit.refresh_plan import RefreshPolicy

pytestmark = pytest.mark.anyio
Z = "/instance/v1/zones/fr-par-1"


async def test_a_syncing_nic_is_polled_until_it_settles_without_a_key(sandbox, clock, http):
    app = make_app(sandbox, policy=RefreshPolicy(fast=0.05, slow=3600))
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        row = next(r for r in view.table.resources() if r.name == "bastion")
        resp = await http.post(
            f"{Z}/servers/{row.id}/private_nics", json={"private_network_id": "0b8e3a8e-8f3e-4c8a-9a53-0a6c1a7c2b11"}
        )
        assert resp.json()["private_nic"]["state"] == "syncing"
        view.follow(row)  # what the NIC flow does after adding one
        await wait_for(pilot, lambda: view.table.get(row.id).data.get("_moving") is True, what="seen moving")
        assert row.id in view.model.moving, "the running server is polled while its NIC syncs"
        clock.advance(60)
        await wait_for(pilot, lambda: row.id not in view.model.moving, what="settled without r")
        nics = sandbox.instance.nics["fr-par-1"].values()
        assert all(n["state"] == "available" for n in nics if n["server_id"] == row.id)


async def test_a_failed_refresh_does_not_advance_the_refreshed_time(sandbox):
    times = iter(float(t) for t in range(1_768_478_400, 1_768_478_400 + 1000, 60))
    app = make_app(sandbox)
    app.clock = lambda: next(times)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        before = view.model.last_refresh
        shown = app.main.query_one("#status").refreshed
        sandbox.inject(503, "/servers", method="GET")
        view.reload()
        await wait_for(pilot, lambda: view.model.failed and not view.model.listing, what="refresh failed")
        assert view.model.last_refresh == before and view.model.last_attempt > before
        assert app.main.query_one("#status").refreshed == shown
        assert view.table.loaded_count == 8, "the rows already shown stay"


@pytest.mark.parametrize(
    "body, reason",
    [
        (b'{"servers":["DEV1-S"]}', "servers[0] is a str"),
        (b'{"items":[]}', "no 'servers' list"),
        (b'{"servers":{"a":1}}', "servers[0] is a int"),
    ],
)
async def test_an_unexpected_body_keeps_the_rows_and_marks_the_scope_failed(sandbox, body, reason):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        sandbox.inject(200, "/servers", method="GET")
        sandbox.faults[-1].raw = body
        view.reload()
        await wait_for(pilot, lambda: bool(view.model.failed) and not view.model.listing, what="marked failed")
        assert view.table.loaded_count == 8
        assert "✖ fr-par-1" in view.table.border_title
        assert any(reason in n.message for n in app.notes), [n.message for n in app.notes]


async def test_an_unexpected_exception_while_listing_says_it_is_a_bug(sandbox, monkeypatch):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)

        def broken(data):
            raise KeyError("surprise")

        monkeypatch.setattr(type(view.kind), "row_maker", lambda self, scope=None: broken)
        view.reload()
        await wait_for(pilot, lambda: bool(view.model.failed) and not view.model.listing, what="marked failed")
        assert view.table.loaded_count == 8
        assert any("This is a bug" in n.message and "KeyError" in n.message for n in app.notes)


async def test_a_detail_of_a_resource_that_is_gone_says_so_dims_what_it_was_and_offers_no_actions(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        row = next(r for r in view.table.resources() if r.state == "stopped")
        view.table.move_to(row.id)
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: app.screen.__class__.__name__ == "DetailScreen" and app.screen.resource is not None,
            what="detail",
        )
        detail = app.screen
        assert detail.check_action("resource", ("delete",))
        del sandbox.instance.servers["fr-par-1"][row.id]
        await pilot.press("r")
        await wait_for(pilot, lambda: detail.is_gone, what="gone")
        assert "no longer exists: below, as it was last seen" in str(detail.query_one("#detail-title").render())
        assert detail.query_one("#detail-tabs").styles.text_style.dim  # its fields are not read as current
        for what in ("actions", "edit", "delete"):
            assert not detail.check_action("resource", (what,))
        await pilot.press("d")
        await pilot.pause()
        assert app.screen is detail


async def test_a_detail_that_cannot_be_loaded_says_so_and_makes_nothing_up(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        row = next(iter(view.table.resources()))
        view.table.move_to(row.id)
        fault = sandbox.inject(503, f"/servers/{row.id}", method="GET")
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: (
                app.screen.__class__.__name__ == "DetailScreen"
                and "not loaded" in str(app.screen.query_one("#detail-title").render())
            ),
            what="the failure in the title",
        )
        detail = app.screen
        assert "not loaded (503) · r retries" in str(detail.query_one("#detail-title").render())
        # no fields made from the list's row (it may lack some: "none" would be a wrong fact)
        assert detail.resource is None and "Not loaded: r tries again" in str(detail.query_one("#fields").render())
        sandbox.faults.remove(fault)
        await pilot.press("r")
        await wait_for(
            pilot, lambda: "not loaded" not in str(detail.query_one("#detail-title").render()), what="loaded"
        )


async def test_a_detail_names_what_it_read_not_the_lists_older_row(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        row = next(iter(view.table.resources()))
        view.table.move_to(row.id)
        sandbox.instance.servers["fr-par-1"][row.id]["name"] = "renamed-since"  # the list has not seen it yet
        await pilot.press("enter")
        await wait_for(pilot, lambda: getattr(app.screen, "resource", None) is not None, what="the detail, read")
        title = str(app.screen.query_one("#detail-title").render())
        assert "renamed-since" in title and row.name not in title


async def test_an_action_key_before_the_rows_came_says_they_are_on_their_way(sandbox):
    sandbox.latency = 30.0  # the listing is still on its way while the key is pressed
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(
            pilot,
            lambda: app.main is not None and app.main.view is not None and app.main.view.model.listing,
            what="listing",
        )
        await pilot.press("a")
        await wait_for(pilot, lambda: bool(app.notes), what="a word")
        assert app.notes[-1].message == "The servers are still being listed: try again when they show."


async def test_the_palette_offers_no_create_on_a_read_only_kind(sandbox):
    from helpers import open_view
    from tui.ui.across.commands import CloudCommands

    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        provider = CloudCommands(app.screen)
        assert any(name.startswith("Create server") for name, _, _ in provider._index())
        await open_view(pilot, app, "instance.types")
        assert not any(name.startswith("Create") for name, _, _ in provider._index())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_toast_leaves_the_status_bars_refreshed_time_readable(sandbox, size):
    """Toasts gather bottom right: one sat on the status bar's line, over 'refreshed hh:mm:ss'."""
    app = make_app(sandbox)
    async with app.run_test(size=size, notifications=True) as pilot:
        await loaded(pilot, app)
        app.notify("Something worth saying, at the length a real notice has.", title="A notice", timeout=60)
        await wait_for(pilot, lambda: bool(app.screen.query("Toast")), what="a toast")
        await pilot.pause()
        status, keys = app.main.query_one("#status").region, app.main.query_one("KeyBar").region
        for toast in app.screen.query("Toast"):
            assert not toast.region.overlaps(status) and not toast.region.overlaps(keys)


@pytest.mark.parametrize("note", ["", "⚠ no log kept (folder not writable)"])
async def test_the_status_bar_at_80_columns_read_only_still_shows_the_refresh_time(sandbox, note):
    """READ-ONLY on Instance servers at 80 columns cut the line after 'refreshed': the time went unseen."""
    from helpers import demo_settings

    app = make_app(sandbox, settings=demo_settings(read_only=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot, app)
        bar = app.main.query_one("#status")
        bar.note = note
        await pilot.pause()
        shown = str(bar.render())
        assert shown.startswith("READ-ONLY")
        assert len(shown) <= bar.content_size.width, shown
        assert bar.refreshed in shown and bar.refreshed != "never", shown
        assert note in shown


async def test_the_status_bar_names_the_profile_while_a_long_change_is_on_its_way(sandbox):
    """Walk 23 F10: with a change on its way and q waiting for it, the profile (`⚑ demo`) went from the bar."""
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        bar = app.main.query_one("#status")
        bar.sending, bar.doing = "sending Power on · worker-batch-2-with-a-longer-name…", "then quitting"
        for width in (118, 78):
            assert "⚑ demo" in bar.fitted(width) and len(bar.fitted(width)) <= width


async def test_a_listing_read_before_a_write_does_not_put_the_old_state_back(sandbox, monkeypatch):
    """A full listing in flight while an action follows its row: its copy, read before the action,
    put "running" back over "stopping", so the row was never polled again (seen as a flaky walk)."""
    import asyncio

    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        row = next(r for r in view.table.resources() if r.state == "running")
        release = asyncio.Event()
        real = type(view.service).iter_list

        async def held(service, scope, params=None, concurrency=16):
            if service is not view.service:
                async for chunk in real(service, scope, params, concurrency):
                    yield chunk
                return
            async for chunk in real(service, scope, params, concurrency):
                await release.wait()  # read before the write, answered after it
                yield chunk

        monkeypatch.setattr(type(view.service), "iter_list", held)
        view.reload()
        await wait_for(pilot, lambda: view.model.listing, what="a listing under way")
        sandbox.instance.servers["fr-par-1"][row.id]["state"] = "stopping"
        view.follow(row)
        await wait_for(pilot, lambda: view.table.get(row.id).state == "stopping", what="the write followed")
        release.set()
        await wait_for(pilot, lambda: not view.model.listing, what="the listing answered")
        assert view.table.get(row.id).state == "stopping"
