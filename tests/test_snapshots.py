"""SVG snapshots of the main view and the create form at 80×24 and 120×40.

Deterministic by construction: seeded sandbox on a manual clock, fixed wall time for "last refresh".
Update after an intended visual change with `uv run pytest tests/test_snapshots.py --snapshot-update`.
"""

import pytest

from helpers import loaded, make_app, wait_for
from tui.sandbox import ManualClock, Sandbox

SIZES = [(80, 24), (120, 40)]


def app_for_snapshot():
    return make_app(Sandbox(clock=ManualClock()))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_main_view(snap_compare, size):
    app = app_for_snapshot()

    async def ready(pilot):
        await loaded(pilot, app)

    assert snap_compare(app, terminal_size=size, run_before=ready)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_create_form(snap_compare, size):
    app = app_for_snapshot()

    async def open_form(pilot):
        await loaded(pilot, app)
        await pilot.press("c")
        await wait_for(pilot, lambda: getattr(app.screen, "ready", False), what="form choices")
        await pilot.press(*"web_03")  # an invalid name, to show the inline error
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=open_form)


def test_detail_view(snap_compare):
    app = app_for_snapshot()

    async def open_detail(pilot):
        await loaded(pilot, app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "DetailScreen" and bool(app.screen.query("#fields")))
        await pilot.pause()

    assert snap_compare(app, terminal_size=(100, 30), run_before=open_detail)
