"""The help lists the keys of the screen in front, read from its bindings, then those that work
anywhere."""

from __future__ import annotations

import pytest

from helpers import cluster_chart, demo_settings, loaded, make_app, screen_named, text_of, wait_for

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
        await cluster_chart(pilot, app)  # the metrics tab: its chart has the focus
        charted = await help_text(pilot, app)
        assert "Next metric" in charted and "Next tab" in charted and "Create" not in charted
        await pilot.press("v")  # the fields tab: a scrolling container has the focus
        detail = await help_text(pilot, app)
        assert detail.index("Next tab") < detail.index("Scroll Up")  # the detail's own keys before scrolling


async def test_f1_opens_help_in_a_dialog_too(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        view.focus_table()
        await pilot.press("a")  # the actions menu: a dialog over the list
        menu = await screen_named(pilot, app, "PickerScreen")
        await pilot.press("f1")
        shown = await screen_named(pilot, app, "HelpScreen")
        assert shown.front is menu
