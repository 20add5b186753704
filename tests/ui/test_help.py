"""The help lists the keys of the screen in front, read from its bindings, then those that work
anywhere."""

from __future__ import annotations

import pytest

from helpers import demo_settings, loaded, make_app, open_view, screen_named, select, text_of, wait_for

pytestmark = pytest.mark.anyio


async def help_text(pilot, app) -> str:
    await pilot.press("question_mark")
    shown = await screen_named(pilot, app, "HelpScreen")
    text = text_of(shown.query_one("VerticalScroll Static"))
    await pilot.press("escape")
    await wait_for(pilot, lambda: app.screen is not shown, what="help closed")
    return text


async def test_the_help_says_the_keys_of_the_screen_in_front(sandbox):
    app = make_app(sandbox, settings=demo_settings(zone="fr-par-1"))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        listing = await help_text(pilot, app)
        for key, what in (("/", "Filter"), ("c", "Create"), ("z", "Zone"), ("^p", "Palette"), ("q", "Quit")):
            assert any(key in line and what in line for line in listing.splitlines()), (key, what, listing)
        view = await open_view(pilot, app, "kvcache.clusters")
        await select(pilot, view, "sessions")
        await pilot.press("enter")
        detail = await screen_named(pilot, app, "DetailScreen")
        await pilot.press("v", "v")  # the metrics tab: its chart has the focus
        chart = detail.query_one("MetricsChart")
        await wait_for(pilot, lambda: chart.loaded, what="chart")
        charted = await help_text(pilot, app)
        assert "Next metric" in charted and "Fields/JSON" in charted and "Create" not in charted
