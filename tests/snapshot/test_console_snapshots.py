"""SVG snapshots of what crosses products (issue 35): an act on marked rows with its outcome per row,
the watch list, and the console after a switch of profile."""

import httpx
import pytest

from helpers import confirm_yes, action, demo_settings, loaded, make_app, wait_for
from tui.api.secret import Secret
from tui.sandbox import DEMO_SECRET_KEY, ManualClock, Sandbox
from tui.ui.profiles import DemoProfiles, Opened

SIZES = [(80, 24), (120, 40)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_bulk_outcomes(snap_compare, size):
    """Five servers powered off at once: one stopped already (not sent), one refused by the API."""
    sandbox = Sandbox(clock=ManualClock())
    app = make_app(sandbox)

    async def run(pilot):
        view = await loaded(pilot, app)
        rows = view.table.resources()
        chosen = [next(r for r in rows if r.state == "stopped"), *[r for r in rows if r.state == "running"][:4]]
        sandbox.inject(403, f"/servers/{chosen[2].id}/action", method="POST", times=1)
        for row in chosen:
            view.table.toggle_mark(row.id)
        await action(pilot, app, "Power off (4 of 5)")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "BulkScreen", what="the dialog")
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: len(app.screen.outcomes) == 4, what="every outcome")

    assert snap_compare(app, terminal_size=size, run_before=run)


def test_watch_list(snap_compare):
    sandbox = Sandbox(clock=ManualClock())
    app = make_app(sandbox)
    app.bell = lambda: None

    async def run(pilot):
        view = await loaded(pilot, app)
        for row in view.table.resources()[1:3]:
            app.watcher.toggle(view.kind, view.service, "fr-par-1", row)
        app.clear_notifications()
        await pilot.press("ctrl+w")
        await wait_for(pilot, lambda: app.screen.id == "watch-list", what="the watch list")

    assert snap_compare(app, terminal_size=(120, 40), run_before=run)


def test_switched_to_another_profile(snap_compare):
    """At 80×24: the other account's servers, its profile named in the status bar."""
    first, second = Sandbox(clock=ManualClock()), Sandbox(seed="empty", scale=5, clock=ManualClock())
    settings, key = demo_settings(), Secret(DEMO_SECRET_KEY)
    staging = Opened(demo_settings(profile="staging"), key, "demo", httpx.ASGITransport(second.app))
    profiles = DemoProfiles(Opened(settings, key, "demo", httpx.ASGITransport(first.app)), lambda: staging, "staging")
    app = make_app(first, settings=settings, profiles=profiles)

    async def run(pilot):
        await loaded(pilot, app)
        app.switch_profile("staging")
        await wait_for(
            pilot,
            lambda: app.main is not None and app.main.view is not None and app.main.view.table.loaded_count == 5,
            what="staging listed",
        )
        app.clear_notifications()
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=run)


def test_journal(snap_compare):
    """Two changes: a power off done, a delete refused (busy); durations set, as they vary run to run."""
    sandbox = Sandbox(clock=ManualClock())
    app = make_app(sandbox)

    async def run(pilot):
        view = await loaded(pilot, app)
        web = next(r for r in view.table.resources() if r.name == "web-01")
        view._do_action(web, next(a for a in view.kind.actions if a.name == "poweroff"))
        stopped = next(r for r in view.table.resources() if r.state == "stopped")
        await wait_for(pilot, lambda: app.journal.entries and app.journal.entries[0].outcome == "done", what="sent")
        sandbox.inject(409, f"/servers/{stopped.id}", method="DELETE", times=1)
        view.writes.delete(stopped)
        await confirm_yes(pilot, app)
        await wait_for(pilot, lambda: len(app.journal.entries) == 2 and app.journal.entries[0].outcome == "failed")
        for entry in app.journal.entries:
            entry.ms = 42.0
        app.clear_notifications()
        await pilot.press("J")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "JournalScreen" and app.screen.shown, what="J")

    assert snap_compare(app, terminal_size=(120, 40), run_before=run)


def test_production_profile(snap_compare):
    """Its own accent and PRODUCTION first in the status bar, at 80×24."""
    app = make_app(Sandbox(clock=ManualClock()), settings=demo_settings(profile="prod-eu", production=True))

    async def run(pilot):
        await loaded(pilot, app)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run)


def test_terminal_theme_and_help_with_ids(snap_compare):
    """The 16-colour theme, and help listing each key's id for [keymap] (delete remapped to x)."""
    app = make_app(Sandbox(clock=ManualClock()), settings=demo_settings(theme="terminal", keymap={"delete": "x"}))

    async def run(pilot):
        await loaded(pilot, app)
        app.clear_notifications()
        await pilot.press("f1")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "HelpScreen", what="help")

    assert snap_compare(app, terminal_size=(120, 40), run_before=run)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_columns_picker(snap_compare, size):
    """The picker of a list's columns: Zone and Private IP chosen, Tags not, Private IP widened; the
    preview of its rows drawn so (the private address said to come with the list read again)."""
    from tui.products.kit.own_columns import candidates
    from tui.records import replace
    from tui.ui.screens.columns import ColumnsScreen

    app = make_app(Sandbox(clock=ManualClock()))

    async def run(pilot):
        view = await loaded(pilot, app)
        rows = [view.table.get(k) for k in view.table.shown_keys[:8]]
        offered = {c.key: c for c in candidates(view.kind)}
        shown = [offered[k] for k in ("name", "state", "type", "ip", "zone")] + [
            replace(offered["private_ip"], width=16)
        ]
        app.push_screen(ColumnsScreen(view.kind, rows, "demo", shown, view.own_columns_here()))
        await wait_for(pilot, lambda: type(app.screen).__name__ == "ColumnsScreen", what="the picker")

    assert snap_compare(app, terminal_size=size, run_before=run)


def test_overview(snap_compare):
    """The overview at 80×24 once every product is read and priced: per list and zone, its states, the
    most urgent first, and its monthly estimate."""
    app = make_app(Sandbox(clock=ManualClock()))

    async def run(pilot):
        await loaded(pilot, app)
        await pilot.press("O")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "OverviewScreen", what="the overview")
        shown = app.screen
        await wait_for(pilot, lambda: app.finder.filled, what="every product read", timeout=15)
        await wait_for(pilot, lambda: "dns.zones" in {t.kind.id for t in shown.tallies}, what="counted again")
        await wait_for(pilot, lambda: ("instance.servers", "fr-par-1") in shown.costs, what="priced", timeout=10)
        await wait_for(pilot, lambda: not shown.workers, what="counted and priced")

    assert snap_compare(app, terminal_size=(80, 24), run_before=run)


def test_advisor(snap_compare):
    """The advisor at 80×24 once every product is read and its findings priced: by family, each rule's
    findings under it, the most severe first."""
    app = make_app(Sandbox(clock=ManualClock()))

    async def run(pilot):
        await loaded(pilot, app)
        await pilot.press("A")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "AdvisorScreen", what="the advisor")
        shown = app.screen
        await wait_for(pilot, lambda: shown.whole, what="every product read", timeout=15)
        await wait_for(pilot, lambda: not shown.workers, what="evaluated and priced")

    assert snap_compare(app, terminal_size=(80, 24), run_before=run)
