"""Issue 20's walk, as a new operator does it in --demo from the keyboard, one test per product: register an
external domain and copy its TXT record; in a zone, add an A record, change an MX priority and
delete a TXT record in one reviewed change set; see the new version and restore the previous one;
create a weighted record; create a registry namespace, find an image's tag and copy its pull
command; create a load balancer with an HTTP backend of two servers and an HTTP health check, add a
frontend, read its topology, and delete it keeping its IP. Invalid input is refused with the field
named on the way (a domain, a taken namespace name, a server address). The rules each step relies
on are tested once elsewhere (tests/unit/test_form_rules.py,
tests/contract/, tests/ui/test_ui_dns.py, test_ui_registry.py, test_ui_lb.py)."""

from __future__ import annotations

import pytest

from helpers import (
    cursor_on,
    row_where,
    tree_lines,
    act,
    back_to_main,
    child_list,
    demo_settings,
    error_of,
    form_ready,
    loaded,
    make_app,
    open_view,
    screen_named,
    sent,
    set_select,
    tab_to,
    text_of,
    to_named_row,
    typed,
    wait_for,
)

from tui.products.kit.refresh_plan import RefreshPolicy

pytestmark = pytest.mark.anyio


def dns_records(sandbox, zone):
    return list(sandbox.dns.zones[zone]["_records"].values())


async def dns_walk(pilot, app, sandbox):
    # an external domain: the TXT record to publish, copied alone
    await open_view(pilot, app, "dns.domains")
    await pilot.press("c")
    form = await form_ready(pilot, app)
    await typed(pilot, app, domain="new shop.example")
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: "letters, digits" in error_of(form, "domain"), what="a bad domain refused, named")
    await typed(pilot, app, domain="newshop.example")
    await pilot.press("ctrl+s")
    txt = await screen_named(pilot, app, "ResultScreen")
    await pilot.press("y")
    assert app.clipboard == txt.copy_text and txt.copy_text.startswith(
        "_scaleway-challenge.newshop.example. 3600 IN TXT"
    )
    line = txt.query_one("#result-line")  # the record is never wrapped (read across two lines, read wrong)
    assert text_of(line).strip() == txt.copy_text and line.region.height == 1
    await back_to_main(pilot, app)

    # one reviewed change set in example.com: add an A record, change an MX priority, delete a TXT record
    zones = await open_view(pilot, app, "dns.zones")
    await to_named_row(pilot, zones, "example.com")
    records = await child_list(pilot, app, "Records")
    await pilot.press("c")
    await form_ready(pilot, app)
    await typed(pilot, app, name="shop", data="192.0.2.80")
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ChildScreen", what="A staged")
    await cursor_on(pilot, records, row_where(records, type="MX", priority=20))
    await pilot.press("e")
    await form_ready(pilot, app)
    await typed(pilot, app, priority="5")
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ChildScreen", what="MX staged")
    await cursor_on(pilot, records, row_where(records, type="TXT", data="v=spf1 mx ~all"))
    await pilot.press("d", "w")
    review = await screen_named(pilot, app, "DiffScreen")
    assert [e.op for e in review.entries] == ["add", "change", "delete"] and app.focused.id == "cancel"
    await pilot.press("tab", "enter")
    await wait_for(
        pilot,
        lambda: any(r["data"] == "192.0.2.80" for r in dns_records(sandbox, "example.com")),
        what="change set sent",
    )
    assert [m for m, _ in sent(sandbox, "/domain/v2beta1/dns-zones")] == ["PATCH"]

    # a weighted record
    await pilot.press("c")
    form = await form_ready(pilot, app)
    await typed(pilot, app, name="pool", data="192.0.2.1")
    await set_select(pilot, form, "dynamic", "weighted")
    await tab_to(pilot, app, "f-dynamic--weighted--weights")
    await pilot.press(*"192.0.2.1=3", "enter", *"192.0.2.2=1", "ctrl+s")
    await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ChildScreen", what="weighted staged")
    await pilot.press("w")
    await screen_named(pilot, app, "DiffScreen")
    await pilot.press("tab", "enter")
    await wait_for(
        pilot, lambda: any(r.get("weighted_config") for r in dns_records(sandbox, "example.com")), what="weighted sent"
    )

    # the new versions, and the one before the change set restored
    await pilot.press("escape")
    versions = await child_list(pilot, app, "Versions")
    assert versions.table.loaded_count >= 3
    await pilot.press("home", "down", "down")  # newest first: the weighted record, the change set, then before them
    await act(pilot, app, "Restore this version")
    await screen_named(pilot, app, "ConfirmScreen")
    await pilot.press(*"example.com", "enter")
    await wait_for(
        pilot, lambda: any(r["data"] == "v=spf1 mx ~all" for r in dns_records(sandbox, "example.com")), what="restored"
    )
    assert not any(
        r["data"] == "192.0.2.80" or r.get("weighted_config") and r["name"] == "pool"
        for r in dns_records(sandbox, "example.com")
    )
    await back_to_main(pilot, app)


async def registry_walk(pilot, app, sandbox):
    namespaces = await open_view(pilot, app, "registry.namespaces")
    await pilot.press("c")
    await form_ready(pilot, app)
    await typed(pilot, app, name="web")
    await pilot.press("ctrl+s")
    form = app.screen
    await wait_for(pilot, lambda: "already a namespace" in error_of(form, "name"), what="a taken name refused")
    await typed(pilot, app, name="walk-images")
    await pilot.press("ctrl+s")
    await wait_for(
        pilot,
        lambda: any(n["name"] == "walk-images" for n in sandbox.registry.namespaces.items["fr-par"].values()),
        what="namespace",
    )
    await to_named_row(pilot, namespaces, "web")
    images = await child_list(pilot, app, "Images")
    await to_named_row(pilot, images, "api")
    tags = await child_list(pilot, app, "Tags")
    await to_named_row(pilot, tags, "stable")
    await act(pilot, app, "Pull command")
    pull = await screen_named(pilot, app, "ResultScreen")
    await pilot.press("y")
    assert app.clipboard == "docker pull rg.fr-par.cr.example/web/api:stable"
    assert pull is not None
    await back_to_main(pilot, app)


async def lb_walk(pilot, app, sandbox, clock):
    from textual.widgets import Tree

    from helpers import later, row_named

    view = await open_view(pilot, app, "lb.lbs")
    await pilot.press("c")
    form = await form_ready(pilot, app)
    await typed(pilot, app, name="shop-lb")
    await set_select(pilot, form, "ssl_compatibility_level", "ssl_compatibility_level_modern")
    await pilot.press("ctrl+s")
    await wait_for(
        pilot, lambda: any(lb["name"] == "shop-lb" for lb in sandbox.lb.lbs.items["fr-par"].values()), what="created"
    )
    lb = next(lb for lb in sandbox.lb.lbs.items["fr-par"].values() if lb["name"] == "shop-lb")
    clock.advance(3)  # followed until it settles, without a key (the walk found it stuck at to_create until r)
    await wait_for(
        pilot,
        lambda: row_named(view, "shop-lb") is not None and row_named(view, "shop-lb").state == "ready",
        what="ready, followed",
    )

    # an HTTP backend of two servers with an HTTP health check (a bad address refused first, named)
    await to_named_row(pilot, view, "shop-lb")
    await child_list(pilot, app, "Backends")
    await pilot.press("c")
    form = await form_ready(pilot, app)
    await typed(pilot, app, name="site", forward_port="8080", server_ip="10.0.0.1, 10.0.0.300")
    await set_select(pilot, form, "forward_protocol", "http")
    await set_select(pilot, form, "health_check--check", "http")
    await typed(pilot, app, **{"health_check--check--http--uri": "/health", "health_check--check--http--code": "200"})
    await pilot.press("ctrl+s")
    await wait_for(
        pilot, lambda: "10.0.0.300" in error_of(form, "server_ip"), what="a bad server address refused, named"
    )
    await typed(pilot, app, server_ip="10.0.0.1, 10.0.0.2")
    await pilot.press("ctrl+s")
    await wait_for(
        pilot, lambda: any(b["name"] == "site" for b in sandbox.lb.backends.values()), what="backend created"
    )
    site = next(b for b in sandbox.lb.backends.values() if b["name"] == "site")
    assert site["pool"] == ["10.0.0.1", "10.0.0.2"] and site["health_check"]["http_config"]["uri"] == "/health"

    # a frontend on port 80
    await pilot.press("escape")
    await wait_for(pilot, lambda: app.screen.id == "main", what="main")
    await child_list(pilot, app, "Frontends")
    await pilot.press("c")
    await form_ready(pilot, app)
    await typed(pilot, app, name="web", inbound_port="80")
    await pilot.press("ctrl+s")
    await wait_for(
        pilot, lambda: any(f["name"] == "web" for f in sandbox.lb.frontends.values()), what="frontend created"
    )

    # its topology: frontend → backend → servers
    await back_to_main(pilot, app)
    await to_named_row(pilot, view, "shop-lb")
    await pilot.press("enter")
    detail = await screen_named(pilot, app, "DetailScreen")
    await pilot.press("v", "v")  # fields → JSON → topology
    panel = detail.query_one("TreePanel")
    await wait_for(pilot, lambda: panel.loaded, what="the tree")
    assert tree_lines(panel.query_one(Tree))[1:] == [
        "  frontend web :80 → site",
        "    backend site: http:8080 roundrobin, http check",
        "      server 10.0.0.1",
        "      server 10.0.0.2",
    ]

    # deleted keeping its IP for reuse
    await back_to_main(pilot, app)
    await to_named_row(pilot, view, "shop-lb")
    ip = sandbox.lb.ips.items["fr-par"][lb["_ip_id"]]
    await pilot.press("d")
    picker = await screen_named(pilot, app, "PickerScreen")
    assert picker.choices[0][0] == f"Keep {ip['ip_address']} for reuse"
    await pilot.press("enter")
    dialog = await screen_named(
        pilot, app, "ConfirmScreen"
    )  # its frontends, backends and address go: the name is typed
    assert dialog.require_text == "shop-lb" and app.focused.id == "confirm-text"
    assert (
        f"Its IP {ip['ip_address']} is kept for reuse" in dialog.message
        and "Its 1 frontend and 1 backend are deleted" in dialog.message
    )
    await pilot.press(*"shop-lb", "enter")
    await later(pilot, clock, 4, lambda: row_named(view, "shop-lb") is None, "gone")
    assert sandbox.lb.ips.items["fr-par"][ip["id"]]["lb_id"] is None


def network_app(sandbox):
    return make_app(sandbox, settings=demo_settings(), policy=RefreshPolicy(fast=0.05, slow=3600))


async def test_dns_walk(sandbox):
    app = network_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await dns_walk(pilot, app, sandbox)


async def test_registry_walk(sandbox):
    app = network_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await registry_walk(pilot, app, sandbox)


async def test_load_balancer_walk(sandbox, clock):
    app = network_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await lb_walk(pilot, app, sandbox, clock)
