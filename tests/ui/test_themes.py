"""Every built-in theme works on a list, a detail, a form and the help: none leaves the console deaf
(the ANSI themes' colours are names Rich cannot parse)."""

from __future__ import annotations

import pytest

from helpers import demo_settings, loaded, make_app, screen_named, wait_for

pytestmark = pytest.mark.anyio


def _themes() -> list[str]:
    from textual.app import App

    from tui.ui.themes import OWN

    return sorted({*App().available_themes, *(t.name for t in OWN)})


THEMES = _themes()
GROUPS = [THEMES[i::4] for i in range(4)]  # four tests, so the themes are tried in parallel


def test_the_ansi_themes_are_among_them():
    assert {"ansi-dark", "ansi-light", "textual-dark", "terminal", "high-contrast"} <= set(THEMES)


async def test_the_theme_chosen_is_kept_for_the_next_start(sandbox):
    from tui.config import ConfigFile, resolve

    app = make_app(sandbox)
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot, app)
        app.theme = "terminal"  # as the palette's "Change theme" sets it
        await wait_for(pilot, lambda: ConfigFile.load().ui.get("theme") == "terminal", what="written")
    kept = resolve({})  # the next start reads it
    assert kept.theme == "terminal"
    again = make_app(sandbox, settings=demo_settings(theme=kept.theme))
    async with again.run_test(size=(80, 24)) as pilot:
        await loaded(pilot, again)
        assert again.theme == "terminal"


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


async def test_no_color_sends_no_colour_and_shows_the_cursor_by_its_style(sandbox, monkeypatch):
    from rich.segment import Segment
    from rich.style import Style

    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(sandbox)
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot, app)
        (last,) = [f for f in app.get_line_filters() if type(f).__name__ in ("Colourless", "Monochrome", "NoColor")]
        (shown,) = last.apply([Segment("x", Style(color="red", bgcolor="grey11", bold=True))], None)
        assert shown.style.color is None and shown.style.bgcolor is None and shown.style.bold  # not even "default"
        await pilot.press("a")
        await wait_for(pilot, lambda: app.screen.id == "actions-menu", what="a menu")
        await pilot.pause()
        highlighted = app.screen.query_one("OptionList").get_component_rich_style("option-list--option-highlighted")
        assert highlighted.underline and highlighted.bold  # what its colour showed
        from tui.ui.screens.confirm import ConfirmScreen

        app.push_screen(ConfirmScreen("Delete web-01?", "It is deleted.", "Delete", require_text="web-01"))
        field = await screen_named(pilot, app, "ConfirmScreen")
        await pilot.pause()
        placeholder = field.query_one("#confirm-text").get_component_rich_style("input--placeholder")
        assert placeholder.italic, "a placeholder is not read as typed"


async def test_in_16_colours_red_is_production_alone_in_every_theme(monkeypatch):
    """A terminal of 16 colours draws an orange accent red: there, a profile that is not production
    never draws its focus, borders or key letters red, and a production profile always does."""
    from textual import constants

    from tui.sandbox import Sandbox
    from tui.ui import themes
    from tui.ui.themes import PRODUCTION, red_in_16

    monkeypatch.setattr(constants, "COLOR_SYSTEM", "standard")
    headless = make_app(Sandbox(seed="empty"))
    async with headless.run_test(size=(80, 24)):
        assert headless.console.color_system == "standard" and not headless.looks.sixteen, "a test draws in full colour"
    monkeypatch.setattr(themes, "in_16_colours", lambda app: app.console.color_system == "standard")  # a terminal
    app = make_app(Sandbox(seed="empty"))
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.looks.sixteen
        view = await loaded(pilot, app)
        view.focus_table()
        await pilot.pause()
        drawn = view.table.styles.border_top[1]  # as drawn from the start, not only as asked
        assert not red_in_16(drawn.hex), "a focused list's border is not red on a profile that is not production"
        for theme in app.available_themes:
            app.theme = theme
            app.settings.production = False
            ours = app.get_css_variables()
            app.settings.production = True
            theirs = app.get_css_variables()
            ansi = None if app.current_theme.ansi else app.ansi_theme  # how Textual draws ansi_* in this theme
            assert not [k for k, v in ours.items() if "error" not in k and red_in_16(str(v), ansi)], theme
            assert all(red_in_16(theirs[k]) for k in PRODUCTION), theme
