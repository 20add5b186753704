"""Cache clusters from the keyboard, against the sandbox: a three-node TLS cluster on a private
network (addresses checked per node before sending), migrated to five nodes (one field per request),
its certificate saved to a file, then deleted with its name typed."""

from __future__ import annotations

import pytest

from helpers import action, demo_settings, error_of, loaded, make_app, open_view, screen_named, select, wait_for

pytestmark = pytest.mark.anyio
PN = "5b2b0d1e-7c1a-4f8e-9d3b-1a2b3c4d5e6f"
PW = "Str0ng-pass!"


def writes(sandbox):
    return [(m, p) for m, p in sandbox.requests if m != "GET" and p.startswith("/kvcache/")]


async def form_ready(pilot, app):
    screen = await screen_named(pilot, app, "FormScreen")
    await wait_for(pilot, lambda: screen.ready, what="form choices")
    return screen


async def choose_in(pilot, form, field, text):
    form.query_one(f"#f-{field}").focus()
    await pilot.press("enter", *text, "enter")


def cluster(sandbox, name):
    return next(c for c in sandbox.kvcache.clusters["fr-par-1"].values() if c["name"] == name)


async def test_three_node_tls_cluster_on_a_private_network_migrated_to_five_certificate_saved_then_deleted(sandbox, clock, tmp_path):
    app = make_app(sandbox, settings=demo_settings(zone="fr-par-1"))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "kvcache.clusters")
        assert view.table.border_title == "Cache clusters · fr-par-1 · 2/2"
        await pilot.press("c")
        form = await form_ready(pilot, app)
        form.query_one("#f-name").value = "carts"
        await choose_in(pilot, form, "version", "7.0")
        await choose_in(pilot, form, "node_type", "RED1-S")
        form.query_one("#f-cluster_size").value = "2"
        form.query_one("#f-user_name").value = "app"
        form.query_one("#f-password").value = PW
        await choose_in(pilot, form, "network", "private")
        form.query_one("#f-private_network_id").value = PN
        form.query_one("#f-service_ips").value = "10.20.0.10/24, 8.8.8.8/24"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "3 to 6" in error_of(form, "cluster_size")
        form.query_one("#f-cluster_size").value = "3"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "RFC 1918" in error_of(form, "service_ips")
        form.query_one("#f-service_ips").value = "10.20.0.10/24, 10.20.0.11/24"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "3 needed, 2 given" in error_of(form, "service_ips")
        assert writes(sandbox) == []
        form.query_one("#f-service_ips").value = "10.20.0.10/24, 10.20.0.11/24, 10.20.0.12/24"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen.id == "main", what="created")
        made = cluster(sandbox, "carts")
        assert made["cluster_size"] == 3 and made["tls_enabled"] and made["endpoints"][0]["private_network"]["service_ips"][2] == "10.20.0.12/24"
        clock.advance(30)
        row = await select(pilot, view, "carts")
        view.follow(row)
        await wait_for(pilot, lambda: next(r for r in view.table.resources() if r.name == "carts").state == "ready", what="ready")
        # migrate: one field per request
        await action(pilot, app, "Migrate: version, node type or size…")
        picker = await screen_named(pilot, app, "PickerScreen")
        target = next(i for i, c in enumerate(picker.choices) if c[0].startswith("Number of nodes"))
        await pilot.press(*["down"] * target, "enter")
        size = await screen_named(pilot, app, "FormScreen")
        size.query_one("#f-cluster_size").value = "5"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: any(p.endswith("/migrate") for _, p in writes(sandbox)), what="migrate sent")
        assert made["status"] == "configuring"
        clock.advance(15)
        view.follow(next(r for r in view.table.resources() if r.name == "carts"))
        await wait_for(pilot, lambda: next(r for r in view.table.resources() if r.name == "carts").get("cluster_size") == 5, what="five nodes")
        # the certificate, saved where we say
        await wait_for(pilot, lambda: app.screen.id == "main", what="main")
        await action(pilot, app, "Download the TLS certificate…")
        save = await screen_named(pilot, app, "FormScreen")
        assert save.query_one("#f-path").value.endswith("SSL_carts.pem")
        save.query_one("#f-path").value = str(tmp_path / "carts.pem")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: (tmp_path / "carts.pem").exists(), what="file saved")
        assert (tmp_path / "carts.pem").read_bytes().startswith(b"-----BEGIN CERTIFICATE-----")
        # delete: the name must be typed
        await wait_for(pilot, lambda: app.screen.id == "main", what="main")
        await pilot.press("d")
        confirm = await screen_named(pilot, app, "ConfirmScreen")
        assert "lost" in confirm.message and confirm.require_text == "carts"
        confirm.query_one("#confirm-text").focus()
        await pilot.press(*"carts")
        confirm.query_one("#confirm").press()
        await wait_for(pilot, lambda: any(m == "DELETE" for m, _ in writes(sandbox)), what="delete sent")


async def test_edit_acl_rules_settings_and_certificate_renewal(sandbox, clock):
    from helpers import act, confirm_yes, form_ready as ready_form, tab_to, to_named_row

    sessions = cluster(sandbox, "sessions")
    app = make_app(sandbox, settings=demo_settings(zone="fr-par-1"))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "kvcache.clusters")
        await to_named_row(pilot, view, "sessions")

        # edit: a weak new password refused by name; the user renamed and a strong password sent
        await pilot.press("e")
        edit = await ready_form(pilot, app)
        await tab_to(pilot, app, "f-user_name")
        await pilot.press("ctrl+u", *"sessions-app")
        await tab_to(pilot, app, "f-password")
        await pilot.press(*"short", "ctrl+s")
        await pilot.pause()
        assert error_of(edit, "password") and writes(sandbox) == []
        await pilot.press("ctrl+u", *PW, "ctrl+s")
        await wait_for(pilot, lambda: sessions["user_name"] == "sessions-app", what="edited")
        assert sessions["_password"] == PW
        await wait_for(pilot, lambda: app.screen.id == "main", what="main")

        # ACL rules: the whole set, a network with host bits refused by name
        await act(pilot, app, "ACL rules")
        records = await screen_named(pilot, app, "RecordListScreen")
        assert len(records.records) == 1
        await pilot.press("a")
        rule = await ready_form(pilot, app)
        await tab_to(pilot, app, "f-ip_cidr")
        await pilot.press(*"192.168.7.1/24", "ctrl+s")
        await pilot.pause()
        assert "did you mean 192.168.7.0/24" in error_of(rule, "ip_cidr")
        await pilot.press("ctrl+u", *"192.168.7.0/24", "ctrl+s")
        await screen_named(pilot, app, "RecordListScreen")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: [a["ip_cidr"] for a in sessions["acl_rules"]] == ["10.0.0.0/8", "192.168.7.0/24"], what="ACL set")
        assert [m for m, p in writes(sandbox) if p.endswith("/acls")] == ["PUT"]

        # settings: a value off its bounds refused by name, then the set sent
        await wait_for(pilot, lambda: app.screen.id == "main", what="main")
        await act(pilot, app, "Settings")
        await screen_named(pilot, app, "RecordListScreen")
        await pilot.press("a")
        setting = await ready_form(pilot, app)
        await tab_to(pilot, app, "f-name")
        await pilot.press("enter", *"tcp-keepalive", "enter")
        await tab_to(pilot, app, "f-value")
        await pilot.press(*"9000", "ctrl+s")
        await pilot.pause()
        assert "from 0 to 7200" in error_of(setting, "value")
        await pilot.press("ctrl+u", *"60", "ctrl+s")
        await screen_named(pilot, app, "RecordListScreen")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: {"name": "tcp-keepalive", "value": "60"} in sessions["cluster_settings"], what="settings set")

        # the certificate renewed, with what it means for clients said first
        await wait_for(pilot, lambda: app.screen.id == "main", what="main")
        await to_named_row(pilot, view, "sessions")
        await act(pilot, app, "Renew the TLS certificate")
        message = await confirm_yes(pilot, app)
        assert "every client needs the new one" in message and "does not renew it" in message
        await wait_for(pilot, lambda: any(p.endswith("/renew-certificate") for _, p in writes(sandbox)), what="renewed")


async def test_read_only_offers_the_certificate_and_sends_nothing(sandbox, clock):
    app = make_app(sandbox, settings=demo_settings(zone="fr-par-1", read_only=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "kvcache.clusters")
        await select(pilot, view, "sessions")
        await pilot.press("c", "e", "d")
        await pilot.pause()
        assert app.screen.id == "main"
        await pilot.press("a")
        await wait_for(pilot, lambda: app.screen.id == "actions-menu", what="menu")
        assert [c[0] for c in app.screen.choices] == ["Download the TLS certificate…"]
        await pilot.press("escape")
    assert writes(sandbox) == []


async def test_metrics_chart_one_line_per_node_and_the_next_metric():
    from helpers import FIXED_WALL, cluster_chart
    from tui.sandbox import ManualClock, Sandbox

    sb = Sandbox(clock=ManualClock(FIXED_WALL))
    app = make_app(sb, settings=demo_settings(zone="fr-par-1"), clock=sb.clock.now)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        chart = await cluster_chart(pilot, app)
        head = str(chart.query_one("#chart-head").render())
        assert head.startswith("CPU · last 1 h") and all(f"node-{n}" in head for n in range(3))
        await pilot.press("m")
        await wait_for(pilot, lambda: chart.loaded and str(chart.query_one("#chart-head").render()).startswith("Memory"), what="memory")
        assert len(chart.series) == 3
        asked = [p for m, p in sb.requests if p.endswith("/metrics")]
        assert len(asked) == 2  # one request per metric shown, not one per node


@pytest.mark.parametrize("odd", ["NaN", "inf", 1.7e308, "-Infinity"])
async def test_a_chart_with_odd_values_draws_them_as_gaps(monkeypatch, odd):
    import importlib

    from helpers import FIXED_WALL, cluster_chart
    from tui.sandbox import ManualClock, Sandbox

    routes = importlib.import_module("tui.sandbox.kvcache.routes")
    real = routes.series

    def spoiled(*args, **kw):
        s = real(*args, **kw)
        s["points"][len(s["points"]) // 2][1] = odd  # one point the platform should never send
        return s

    monkeypatch.setattr(routes, "series", spoiled)
    sb = Sandbox(clock=ManualClock(FIXED_WALL))
    app = make_app(sb, settings=demo_settings(zone="fr-par-1"), clock=sb.clock.now)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        chart = await cluster_chart(pilot, app)
        app.export_screenshot()  # drawn whole
        await pilot.press("w")
        await wait_for(pilot, lambda: chart.loaded, what="the next window")
        app.export_screenshot()
        assert app.bugs == [] and not [n for n in app.notes if n.severity == "error"]
        assert all(f"node-{n}" in str(chart.query_one("#chart-head").render()) for n in range(3))
