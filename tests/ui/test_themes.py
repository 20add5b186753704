"""Every built-in theme works on a list, a detail, a form and the help: none leaves the console deaf
(the ANSI themes' colours are names Rich cannot parse)."""

from __future__ import annotations

import pytest

from helpers import loaded, make_app, screen_named, wait_for

pytestmark = pytest.mark.anyio


async def test_every_theme_on_a_list_a_detail_a_form_and_help(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(100, 30)) as pilot:
        await loaded(pilot, app)
        themes = sorted(app.available_themes)
        assert {"ansi-dark", "ansi-light", "textual-dark"} <= set(themes)
        for theme in themes:
            app.theme = theme
            await pilot.pause()
            for key, screen in (("enter", "DetailScreen"), ("c", "FormScreen"), ("question_mark", "HelpScreen")):
                await pilot.press(key)
                await screen_named(pilot, app, screen)
                app.export_screenshot()  # drawn whole in this theme
                await pilot.press("escape")
                await wait_for(pilot, lambda: app.screen.id == "main", what=f"back from {screen} in {theme}")
            assert app.bugs == [] and not [n for n in app.notes if n.severity == "error"], (theme, app.notes[-3:])
