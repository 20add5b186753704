"""Load balancers from the keyboard, against the sandbox, beyond the walkthrough
(tests/ui/test_ui_network_walkthrough.py: create, an HTTP backend, a frontend, the topology, delete
keeping the IP): an edit is a PUT carrying name and description; a backend's health check changed to
TCP sends only the health-check route; a used backend is refused by the API with its help said; a
frontend moved and deleted; read-only."""

from __future__ import annotations

import pytest
from textual.widgets import Tree

from helpers import (
    tree_lines,
    back_to_main,
    child_list,
    confirm_yes,
    demo_settings,
    form_ready,
    loaded,
    make_app,
    notified,
    open_view,
    screen_named,
    sent,
    set_select,
    tab_to,
    to_named_row,
    wait_for,
)

pytestmark = pytest.mark.anyio
R = "/lb/v1/regions/fr-par"


def lb_named(sandbox, name, region="fr-par"):
    return next((lb for lb in sandbox.lb.lbs.items[region].values() if lb["name"] == name), None)


def backend_named(sandbox, name):
    return next((b for b in sandbox.lb.backends.values() if b["name"] == name), None)


async def type_in(pilot, app, field, text):
    await tab_to(pilot, app, f"f-{field}")
    await pilot.press("ctrl+u", *text)


async def test_edits_each_send_what_the_api_asks_and_a_used_backend_is_refused_with_its_help(sandbox, clock):
    """(Creating a load balancer, a backend, a frontend, the topology and the delete keeping the IP
    are the walkthrough's: tests/ui/test_ui_network_walkthrough.py.)"""
    app = make_app(sandbox, settings=demo_settings(region="fr-par"))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "lb.lbs")
        lb = lb_named(sandbox, "web-lb")

        # edit: a PUT with both name and description, as the API requires
        await to_named_row(pilot, view, "web-lb")
        await pilot.press("e")
        await form_ready(pilot, app)
        await type_in(pilot, app, "description", "Shop front")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: lb["description"] == "Shop front", what="edited")
        assert sent(sandbox, "/lb/")[-1] == ("PUT", f"{R}/lbs/{lb['id']}")

        # the health check becomes TCP: only its own route is sent
        await wait_for(pilot, lambda: app.screen.id == "main", what="main")
        backends = await child_list(pilot, app, "Backends")
        site = backend_named(sandbox, "web-servers")
        await to_named_row(pilot, backends, "web-servers")
        before = len(sandbox.requests)
        await pilot.press("e")
        form = await form_ready(pilot, app)
        await set_select(pilot, form, "health_check--check", "tcp")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: site["health_check"].get("tcp_config") is not None, what="health check saved")
        writes = [(m, p) for m, p in list(sandbox.requests)[before:] if m != "GET"]
        assert writes == [("PUT", f"{R}/backends/{site['id']}/healthcheck")]
        await wait_for(
            pilot, lambda: notified(app, "sent health check; settings and servers unchanged"), what="said what was sent"
        )

        # a backend a frontend uses: the API refuses, its help is said
        await to_named_row(pilot, backends, "web-servers")
        await pilot.press("d")
        said = await confirm_yes(pilot, app)  # the frontends using it named before anything is sent
        assert "Frontend http (port 80) forwards to it: the platform refuses the delete" in said
        await wait_for(pilot, lambda: notified(app, "frontend(s) http forward to this backend"), what="412 said")
        assert backend_named(sandbox, "web-servers") is not None

        # a frontend moved to another port (a PUT of the whole frontend), then deleted
        await back_to_main(pilot, app)
        frontends = await child_list(pilot, app, "Frontends")
        web = next(f for f in sandbox.lb.frontends.values() if f["name"] == "http")
        await to_named_row(pilot, frontends, "http")
        await pilot.press("e")
        await form_ready(pilot, app)
        await type_in(pilot, app, "inbound_port", "8080")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: web["inbound_port"] == 8080, what="frontend edited")
        assert sent(sandbox, "/lb/")[-1] == ("PUT", f"{R}/frontends/{web['id']}") and web["_backend"] == site["id"]
        await to_named_row(pilot, frontends, "http")
        await pilot.press("d")
        await confirm_yes(pilot, app)
        await wait_for(pilot, lambda: web["id"] not in sandbox.lb.frontends, what="frontend deleted")


async def test_read_only_shows_the_topology_and_sends_nothing(sandbox):
    app = make_app(sandbox, settings=demo_settings(region="fr-par", read_only=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "lb.lbs")
        await to_named_row(pilot, view, "web-lb")  # (the list offers no write: tests/ui/test_read_only.py)
        backends = await child_list(pilot, app, "Backends")
        assert {r.name for r in backends.table.resources()} == {"web-servers", "api-servers"}
        for key in ("c", "e", "d"):
            await pilot.press(key)
            await pilot.pause()
            assert app.screen.__class__.__name__ == "ChildScreen"
        await back_to_main(pilot, app)
        await pilot.press("enter")
        detail = await screen_named(pilot, app, "DetailScreen")
        await pilot.press("v", "v")
        panel = detail.query_one("TreePanel")
        await wait_for(pilot, lambda: panel.loaded, what="the tree")
        assert "frontend http :80 → web-servers" in tree_lines(panel.query_one(Tree))[1]
        assert sent(sandbox, "/lb/") == []


async def test_a_new_load_balancer_is_followed_until_ready_without_a_key(sandbox, clock):
    """Nothing else moving (the list re-armed slow), a create still polls its new row fast."""
    from tui.products.kit.refresh_plan import RefreshPolicy

    app = make_app(sandbox, settings=demo_settings(region="fr-par"), policy=RefreshPolicy(fast=0.05, slow=3600))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        clock.advance(3600)  # every seeded load balancer settles
        view = await open_view(pilot, app, "lb.lbs")
        await wait_for(
            pilot, lambda: view.model.last_refresh is not None and not view.model.moving, what="nothing moving"
        )
        await pilot.pause()
        await pilot.press("c")
        form = await form_ready(pilot, app)
        await type_in(pilot, app, "name", "followed-lb")
        await set_select(pilot, form, "ssl_compatibility_level", "ssl_compatibility_level_modern")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: any(r.name == "followed-lb" for r in view.table.resources()), what="created")
        clock.advance(3)
        await wait_for(
            pilot,
            lambda: next(r for r in view.table.resources() if r.name == "followed-lb").state == "ready",
            what="ready, no key pressed",
        )
