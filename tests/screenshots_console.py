"""The screenshots of what crosses products (`screenshots.py` takes them): acting on marked rows, the
watch list, a switch of profile, the journal, the monthly estimate."""

from __future__ import annotations

from helpers import action, wait_for
from tui.sandbox import ManualClock, Sandbox


SANDBOX: Sandbox | None = None  # the one the picture being taken runs against (`screenshots.shoot` sets it)


def sandbox_now() -> Sandbox | None:
    return SANDBOX


def two_profiles(sandbox: Sandbox, settings):
    import httpx

    from tui.api.secret import Secret
    from tui.records import replace
    from tui.sandbox import DEMO_SECRET_KEY
    from tui.ui.profiles import DemoProfiles, Opened

    key = Secret(DEMO_SECRET_KEY)
    second = Sandbox(seed="empty", scale=12, clock=ManualClock())
    moved = replace(settings, profile="demo-staging", api_url="http://staging")
    staging = Opened(moved, key, "demo", httpx.ASGITransport(second.app))
    return DemoProfiles(Opened(settings, key, "demo", httpx.ASGITransport(sandbox.app)), lambda: staging)


async def bulk_stop(pilot, app) -> None:
    """Five servers marked, one stopped already, one the API refuses: each one's outcome."""
    view = app.main.view
    rows = view.table.resources()
    chosen = [next(r for r in rows if r.state == "stopped"), *[r for r in rows if r.state == "running"][:4]]
    sandbox = sandbox_now()
    assert sandbox is not None
    sandbox.inject(403, f"/servers/{chosen[2].id}/action", method="POST", times=1)
    for row in chosen:
        view.table.toggle_mark(row.id)
    await action(pilot, app, "Power off (4 of 5)")
    await wait_for(pilot, lambda: app.screen.__class__.__name__ == "BulkScreen")
    await pilot.press("tab", "enter")
    await wait_for(pilot, lambda: len(app.screen.outcomes) == 4)


async def watched(pilot, app) -> None:
    """Two servers watched; one stopped elsewhere: told, then the watch list (ctrl+w)."""
    view = app.main.view
    for name in ("web-01", "api-gateway"):
        view.table.move_to(next(r.id for r in view.table.resources() if r.name == name))
        await pilot.press("W")
    sandbox = sandbox_now()
    assert sandbox is not None
    web = next(s for s in sandbox.instance.servers["fr-par-1"].values() if s["name"] == "web-01")
    web["state"] = "stopped"
    sandbox.instance.server_changed("fr-par-1", web)
    app.bell = lambda: None
    app.watcher._tick()
    await wait_for(pilot, lambda: any("running → stopped" in n.message for n in app.notes))
    await pilot.press("ctrl+w")
    await wait_for(pilot, lambda: app.screen.id == "watch-list")


async def switched(pilot, app) -> None:
    """The palette's "Profile: demo-staging" chosen: the other account's servers, its name in the status bar."""
    await pilot.press(":", *"profile")
    await wait_for(pilot, lambda: getattr(app.screen, "_answered", None) == "profile")
    await pilot.press("enter")
    await wait_for(
        pilot,
        lambda: (
            app.settings.profile == "demo-staging"
            and app.main is not None
            and app.main.view is not None
            and app.main.view.table.loaded_count == 12
        ),
    )


async def journal(pilot, app) -> None:
    """Five servers powered off at once (one refused by the API), then J: what was sent, and how it went."""
    await bulk_stop(pilot, app)
    await pilot.press("escape")
    for entry in app.journal.entries:
        entry.ms = 40.0  # they vary run to run
    await pilot.press("J")
    await wait_for(pilot, lambda: type(app.screen).__name__ == "JournalScreen" and len(app.screen.shown) == 4)


async def costs(pilot, app) -> None:
    view = app.main.view
    for row in view.table.resources()[:2]:
        view.table.toggle_mark(row.id)
    await pilot.press("$")
    await wait_for(pilot, lambda: type(app.screen).__name__ == "ResultScreen")


async def overview(pilot, app) -> None:
    """O: every product read, counted by zone and state, priced."""
    await pilot.press("O")
    await wait_for(pilot, lambda: type(app.screen).__name__ == "OverviewScreen")
    shown = app.screen
    await wait_for(pilot, lambda: app.finder.filled and "dns.zones" in {t.kind.id for t in shown.tallies}, timeout=15)
    await wait_for(pilot, lambda: ("instance.servers", "fr-par-1") in shown.costs, timeout=15)
    await wait_for(pilot, lambda: not shown.workers)


async def advisor(pilot, app) -> None:
    """A: every product read, the findings by family, priced where a price list gives it."""
    await pilot.press("A")
    await wait_for(pilot, lambda: type(app.screen).__name__ == "AdvisorScreen")
    shown = app.screen
    await wait_for(pilot, lambda: shown.whole, timeout=15)
    await wait_for(pilot, lambda: not shown.workers)
