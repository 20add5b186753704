"""Load balancers from the keyboard, against the sandbox: one created and seen ready with the clock,
edited (a PUT carrying name and description), given an HTTP backend of two servers with an HTTP
health check and a frontend, read as a topology in its detail; the backend's health check changed to
TCP (only the health-check route sent); a used backend refused by the API with its help said; the
load balancer deleted keeping its IP for reuse; and read-only."""

from __future__ import annotations

import pytest
from textual.widgets import Tree

from helpers import (
    back_to_main, child_list, confirm_yes, demo_settings, form_ready, later, loaded, make_app, notified, open_view, row_named, screen_named, sent,
    set_select, tab_to, to_named_row, wait_for,
)

pytestmark = pytest.mark.anyio
R = "/lb/v1/regions/fr-par"


def lb_named(sandbox, name, region="fr-par"):
    return next((lb for lb in sandbox.lb.lbs.items[region].values() if lb["name"] == name), None)


def backend_named(sandbox, name):
    return next((b for b in sandbox.lb.backends.values() if b["name"] == name), None)


def tree_lines(tree):
    out = []

    def walk(node, depth):
        out.append("  " * depth + str(node.label))
        for child in node.children:
            walk(child, depth + 1)

    walk(tree.root, 0)
    return out


async def type_in(pilot, app, field, text):
    await tab_to(pilot, app, f"f-{field}")
    await pilot.press("ctrl+u", *text)


async def test_a_load_balancer_created_given_a_backend_and_a_frontend_read_as_a_topology_then_deleted_keeping_its_ip(sandbox, clock):
    app = make_app(sandbox, settings=demo_settings(region="fr-par"))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "lb.lbs")

        # create: to_create, then ready with the clock and r
        await pilot.press("c")
        form = await form_ready(pilot, app)
        await type_in(pilot, app, "name", "shop-lb")
        await set_select(pilot, form, "ssl_compatibility_level", "ssl_compatibility_level_modern")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: lb_named(sandbox, "shop-lb") is not None, what="created")
        lb = lb_named(sandbox, "shop-lb")
        assert lb["status"] == "to_create" and lb["type"] == "LB-S" and lb["ssl_compatibility_level"] == "ssl_compatibility_level_modern"
        await later(pilot, clock, 3, lambda: row_named(view, "shop-lb") is not None and row_named(view, "shop-lb").state == "ready", "ready")

        # edit: a PUT with both name and description, as the API requires
        await to_named_row(pilot, view, "shop-lb")
        await pilot.press("e")
        await form_ready(pilot, app)
        await type_in(pilot, app, "description", "Shop front")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: lb["description"] == "Shop front", what="edited")
        assert sent(sandbox, "/lb/")[-1] == ("PUT", f"{R}/lbs/{lb['id']}")

        # an HTTP backend of two servers with an HTTP health check, in one POST
        await wait_for(pilot, lambda: app.screen.id == "main", what="main")
        backends = await child_list(pilot, app, "Backends")
        await pilot.press("c")
        form = await form_ready(pilot, app)
        await type_in(pilot, app, "name", "site")
        await set_select(pilot, form, "forward_protocol", "http")
        await type_in(pilot, app, "forward_port", "8080")
        await type_in(pilot, app, "server_ip", "10.0.0.1, 2001:db8::2")
        await set_select(pilot, form, "health_check--check", "http")
        await type_in(pilot, app, "health_check--check--http--uri", "/health")
        await type_in(pilot, app, "health_check--check--http--code", "200")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: backend_named(sandbox, "site") is not None, what="backend created")
        site = backend_named(sandbox, "site")
        assert site["pool"] == ["10.0.0.1", "2001:db8::2"] and site["forward_protocol"] == "http"
        assert site["health_check"]["port"] == 8080 and site["health_check"]["http_config"]["uri"] == "/health"
        assert site["health_check"]["http_config"]["code"] == 200
        await wait_for(pilot, lambda: row_named(backends, "site") is not None, what="listed")

        # a frontend on port 80, forwarding to the one backend there is
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.id == "main", what="main")
        await child_list(pilot, app, "Frontends")
        await pilot.press("c")
        form = await form_ready(pilot, app)
        await type_in(pilot, app, "name", "web")
        await type_in(pilot, app, "inbound_port", "80")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: any(f["name"] == "web" for f in sandbox.lb.frontends.values()), what="frontend created")
        web = next(f for f in sandbox.lb.frontends.values() if f["name"] == "web")
        assert web["inbound_port"] == 80 and web["_backend"] == site["id"]

        # the topology in the detail: frontend → backend → servers
        await back_to_main(pilot, app)
        await to_named_row(pilot, view, "shop-lb")
        await pilot.press("enter")
        detail = await screen_named(pilot, app, "DetailScreen")
        await pilot.press("v", "v")  # fields → JSON → topology
        panel = detail.query_one("TreePanel")
        await wait_for(pilot, lambda: panel.loaded, what="the tree")
        lines = tree_lines(panel.query_one(Tree))
        assert lines[1:] == ["  frontend web :80 → site", "    backend site: http:8080 roundrobin, http check",
                             "      server 10.0.0.1", "      server 2001:db8::2"]

        # the health check becomes TCP: only its own route is sent
        await back_to_main(pilot, app)
        backends = await child_list(pilot, app, "Backends")
        await to_named_row(pilot, backends, "site")
        before = len(sandbox.requests)
        await pilot.press("e")
        form = await form_ready(pilot, app)
        await set_select(pilot, form, "health_check--check", "tcp")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: site["health_check"].get("tcp_config") is not None, what="health check saved")
        writes = [(m, p) for m, p in list(sandbox.requests)[before:] if m != "GET"]
        assert writes == [("PUT", f"{R}/backends/{site['id']}/healthcheck")]
        await wait_for(pilot, lambda: notified(app, "sent health check; settings and servers unchanged"), what="said what was sent")

        # a backend a frontend uses: the API refuses, its help is said
        await to_named_row(pilot, backends, "site")
        await pilot.press("d")
        await confirm_yes(pilot, app)
        await wait_for(pilot, lambda: notified(app, "frontend(s) web forward to this backend"), what="412 said")
        assert backend_named(sandbox, "site") is not None

        # the frontend moved to another port (a PUT of the whole frontend), then deleted
        await back_to_main(pilot, app)
        frontends = await child_list(pilot, app, "Frontends")
        await to_named_row(pilot, frontends, "web")
        await pilot.press("e")
        await form_ready(pilot, app)
        await type_in(pilot, app, "inbound_port", "8080")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: web["inbound_port"] == 8080, what="frontend edited")
        assert sent(sandbox, "/lb/")[-1] == ("PUT", f"{R}/frontends/{web['id']}") and web["_backend"] == site["id"]
        await to_named_row(pilot, frontends, "web")
        await pilot.press("d")
        await confirm_yes(pilot, app)
        await wait_for(pilot, lambda: web["id"] not in sandbox.lb.frontends, what="frontend deleted")

        # delete the load balancer, keeping its IP for reuse
        await back_to_main(pilot, app)
        await to_named_row(pilot, view, "shop-lb")
        ip = sandbox.lb.ips.items["fr-par"][lb["_ip_id"]]
        await pilot.press("d")
        picker = await screen_named(pilot, app, "PickerScreen")
        assert [c[0] for c in picker.choices] == [f"Keep {ip['ip_address']} for reuse", f"Release {ip['ip_address']}"]
        await pilot.press("enter")
        message = await confirm_yes(pilot, app)
        assert f"Its IP {ip['ip_address']} is kept for reuse" in message and "0 frontend(s) and 1 backend(s)" in message
        await wait_for(pilot, lambda: lb["status"] == "to_delete", what="deleting")
        await later(pilot, clock, 4, lambda: row_named(view, "shop-lb") is None, "gone")
        assert sandbox.lb.ips.items["fr-par"][ip["id"]]["lb_id"] is None


async def test_read_only_shows_the_topology_and_sends_nothing(sandbox):
    app = make_app(sandbox, settings=demo_settings(region="fr-par", read_only=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "lb.lbs")
        await to_named_row(pilot, view, "web-lb")
        for key in ("c", "e", "d"):
            await pilot.press(key)
            await pilot.pause()
            assert app.screen.id == "main"
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
