"""Cache clusters from the keyboard, against the sandbox, beyond the data walkthrough's happy path
(create, migrate, certificate, delete: tests/ui/test_ui_data_walkthrough.py): edit, certificate renewal,
read-only, the metrics chart. The ACL rules and settings sets: tests/unit/test_kvcache_flows.py."""

from __future__ import annotations

import pytest

from helpers import demo_settings, loaded, make_app, open_view, screen_named, select, wait_for

pytestmark = pytest.mark.anyio
PW = "Str0ng-pass!"


def writes(sandbox):
    return [(m, p) for m, p in sandbox.requests if m != "GET" and p.startswith("/kvcache/")]


async def form_ready(pilot, app):
    screen = await screen_named(pilot, app, "FormScreen")
    await wait_for(pilot, lambda: screen.ready, what="form choices")
    return screen


def cluster(sandbox, name):
    return next(c for c in sandbox.kvcache.clusters["fr-par-1"].values() if c["name"] == name)


async def test_an_edit_and_the_certificate_renewal(sandbox, clock):
    """(The ACL and settings sets are conversations: tests/unit/test_kvcache_flows.py.)"""
    from helpers import act, confirm_yes, form_ready as ready_form, tab_to, to_named_row

    sessions = cluster(sandbox, "sessions")
    app = make_app(sandbox, settings=demo_settings(zone="fr-par-1"))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "kvcache.clusters")
        await to_named_row(pilot, view, "sessions")

        # edit: the user renamed and a new password sent
        await pilot.press("e")
        await ready_form(pilot, app)
        await tab_to(pilot, app, "f-user_name")
        await pilot.press("ctrl+u", *"sessions-app")
        await tab_to(pilot, app, "f-password")
        await pilot.press(*PW, "tab", *PW, "ctrl+s")
        await wait_for(pilot, lambda: sessions["user_name"] == "sessions-app", what="edited")
        assert sessions["_password"] == PW
        await wait_for(pilot, lambda: app.screen.id == "main", what="main")

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
        await select(pilot, view, "sessions")  # (no write offered: tests/ui/test_read_only.py)
        await pilot.press("a")
        await wait_for(pilot, lambda: app.screen.id == "actions-menu", what="menu")
        # the whole sets open to be read (a whole-set editor is a viewer in read-only mode), and say so
        assert [c[0] for c in app.screen.choices] == [
            "ACL rules (read-only)…",
            "Settings (read-only)…",
            "Download the TLS certificate…",
        ]
        await pilot.press("enter")
        rules = await screen_named(pilot, app, "RecordListScreen")
        assert rules.read_only and "(read-only)" in str(rules.query_one("#dialog-title").render()) and rules.records
        count = len(rules.records)
        await pilot.press("a", "d", "ctrl+s")  # nothing to add, delete or send here
        assert app.screen is rules and len(rules.records) == count
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.id == "main", what="closed")
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
        await wait_for(
            pilot,
            lambda: chart.loaded and str(chart.query_one("#chart-head").render()).startswith("Memory"),
            what="memory",
        )
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
