"""Every built-in theme works on a list, a detail, a form and the help: none leaves the console deaf
(the ANSI themes' colours are names Rich cannot parse)."""

from __future__ import annotations

import pytest

from helpers import loaded, make_app, screen_named, wait_for

pytestmark = pytest.mark.anyio


def _themes() -> list[str]:
    from textual.app import App

    return sorted(App().available_themes)


THEMES = _themes()
GROUPS = [THEMES[i::4] for i in range(4)]  # four tests, so the themes are tried in parallel


def test_the_ansi_themes_are_among_them():
    assert {"ansi-dark", "ansi-light", "textual-dark"} <= set(THEMES)


@pytest.mark.parametrize("themes", GROUPS, ids=[g[0] for g in GROUPS])
async def test_every_theme_on_a_list_a_detail_a_form_and_help(sandbox, themes):
    app = make_app(sandbox)
    async with app.run_test(size=(100, 30)) as pilot:
        await loaded(pilot, app)
        screens = (
            (None, "MainScreen"),
            ("enter", "DetailScreen"),
            ("c", "FormScreen"),
            ("question_mark", "HelpScreen"),
        )
        for key, screen in screens:
            if key is not None:  # each screen opened once, and drawn in every theme
                await pilot.press(key)
                await screen_named(pilot, app, screen)
            for theme in themes:
                app.theme = theme
                await pilot.pause()  # drawn whole in this theme (a theme repaints all)
                errors = [n for n in app.notes if n.severity == "error"]
                assert app.bugs == [] and not errors, (theme, screen, app.notes[-3:])
            if key is not None:
                await pilot.press("escape")
                await wait_for(pilot, lambda: app.screen.id == "main", what=f"back from {screen}")
        await pilot.press("question_mark")  # the keys still heard after every theme
        await screen_named(pilot, app, "HelpScreen")
