"""Watching a resource (issue 35, item 5): W on a row; told (a notification and the bell) when its
state changes or it is gone, also while another product's view is in front; ctrl+w lists what is
watched and opens it."""

from __future__ import annotations

import pytest

from helpers import loaded, make_app, notified, open_view, row_named, screen_named, wait_for
from tui.sandbox import Sandbox

pytestmark = pytest.mark.anyio


async def test_a_watched_server_that_stops_is_told_with_the_bell_from_another_view():
    sandbox = Sandbox()
    app = make_app(sandbox)
    rings = []
    app.bell = lambda: rings.append(1)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        web = row_named(view, "web-01")
        view.table.move_to(web.id)
        view.focus_table()
        await pilot.press("W")
        assert notified(app, "Watching web-01 (now running)")
        assert "watching 1" in app.main.query_one("StatusBar").fitted(200)
        await open_view(pilot, app, "dns.zones")  # another product in front
        stored = sandbox.instance.servers["fr-par-1"][web.id]
        stored["state"] = "stopped"
        sandbox.instance.server_changed("fr-par-1", stored)  # stopped elsewhere (the web console)
        app.watcher._tick()
        await wait_for(pilot, lambda: notified(app, "Server web-01: running → stopped"), what="told")
        assert rings == [1]
        app.watcher._tick()  # told once, not at every look
        await wait_for(pilot, lambda: not any(w.is_running for w in app.workers if w.group == "watch"), what="look")
        assert rings == [1]

        await pilot.press("ctrl+w")
        listed = await screen_named(pilot, app, "WatchList")
        assert listed.choices[0][0] == "web-01 · Servers · fr-par-1 · stopped"
        await pilot.press("enter")  # opens it: its product's view, the cursor on it
        await wait_for(
            pilot, lambda: app.main.view.kind.id == "instance.servers" and app.main.view.table.cursor_key == web.id
        )

        del sandbox.instance.servers["fr-par-1"][web.id]  # deleted elsewhere
        app.watcher._tick()
        await wait_for(pilot, lambda: notified(app, "Server web-01 is gone"), what="gone")
        assert rings == [1, 1] and not app.watcher.items


async def test_a_list_read_anyway_tells_the_watcher_without_a_request_of_its_own():
    sandbox = Sandbox()
    app = make_app(sandbox)
    app.bell = lambda: None
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        web = row_named(view, "web-02")
        app.watcher.toggle(view.kind, view.service, "fr-par-1", web)
        app.watcher._timer.pause()  # no look of its own: what it is told comes from the list
        stored = sandbox.instance.servers["fr-par-1"][web.id]
        stored["state"] = "stopping"
        sandbox.instance.server_changed("fr-par-1", stored)  # stopped elsewhere (the web console)
        before = len(sandbox.requests)
        view.reload()
        await wait_for(pilot, lambda: notified(app, "Server web-02: running → stopping"), what="told by the list")
        assert not [p for m, p in list(sandbox.requests)[before:] if p.endswith(web.id)]


async def test_d_in_the_watch_list_stops_watching_the_one_highlighted():
    sandbox = Sandbox()
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        for name in ("web-01", "web-02"):
            app.watcher.toggle(view.kind, view.service, "fr-par-1", row_named(view, name))
        await pilot.press("ctrl+w")
        await screen_named(pilot, app, "WatchList")
        await pilot.press("d")
        await wait_for(pilot, lambda: [w.name for w in app.watcher.items.values()] == ["web-02"], what="one left")
        listed = await screen_named(pilot, app, "WatchList")  # shown again, without it
        assert [c[0] for c in listed.choices][0].startswith("web-02")


async def test_a_watched_bare_metal_server_tells_when_its_install_completes():
    """A server's OS install has a state of its own: watched beside the server's."""
    sandbox = Sandbox()
    app = make_app(sandbox)
    app.bell = lambda: None
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "baremetal.servers")
        stored = next(s for s in sandbox.baremetal.servers["fr-par-1"].values() if s["name"] == "edge-par")
        stored["install"]["status"] = "installing"
        view.reload()
        await wait_for(pilot, lambda: row_named(view, "edge-par").data.get("install_status") == "installing")
        view.table.move_to(row_named(view, "edge-par").id)
        await pilot.press("W")
        stored["install"]["status"] = "completed"  # the state of the server itself stays "ready"
        app.watcher._tick()
        await wait_for(pilot, lambda: notified(app, "edge-par: install installing → completed"), what="told")
