"""Keys of your own: the config's [keymap] remaps a binding by its id (the key bar and help follow, and
what cannot be is said at start in one line); [aliases] name views for the palette; F1 is help."""

from __future__ import annotations

import pytest

from helpers import demo_settings, loaded, make_app, notified, screen_named, wait_for
from tui.sandbox import Sandbox

pytestmark = pytest.mark.anyio


def bar(app) -> str:
    return app.screen.query_one("KeyBar").render().plain


async def test_delete_remapped_to_x_everywhere_with_the_key_bar_and_help_following():
    app = make_app(Sandbox(), settings=demo_settings(keymap={"delete": "x", "nope": "z", "refresh": "ctrl+r"}))
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        assert " x Delete " in bar(app) and " d Delete " not in bar(app)
        await wait_for(pilot, lambda: notified(app, "Keymap: no key has the id 'nope'"), what="said at start")
        said = next(n.message for n in app.notes if n.message.startswith("Keymap"))
        assert "delete → x is also secrets (DetailScreen)" in said and "\n" not in said  # one line
        app.notify("It may have been applied: refresh (r) and look.")  # a hint names the key in force
        assert app.notes[-1].message == "It may have been applied: refresh (ctrl+r) and look."
        view.focus_table()
        await pilot.press("d")  # the old key does nothing now
        await pilot.pause()
        assert app.screen is app.main
        await pilot.press("x")
        await screen_named(pilot, app, "ConfirmScreen")
        await pilot.press("escape", "f1")
        from tui.ui.screens.help import bindings_of

        help_screen = await screen_named(pilot, app, "HelpScreen")
        listed = {(k, what) for _, keys in bindings_of(help_screen.front) for k, what, *_ in keys}
        assert ("x", "Delete") in listed and ("d", "Delete") not in listed


async def test_an_alias_opens_its_view_from_the_palette():
    app = make_app(Sandbox(), settings=demo_settings(aliases={"zones": "dns.zones"}))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await pilot.press(":", *"zones")
        await wait_for(pilot, lambda: getattr(app.screen, "_answered", None) == "zones", what="answered")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.main.view is not None and app.main.view.kind.id == "dns.zones", what="DNS")


async def test_an_alias_to_no_view_and_an_unknown_theme_are_said_at_start():
    app = make_app(
        Sandbox(), settings=demo_settings(aliases={"bogus": "no.such.view", "srv": "instance.servers"}, theme="nope")
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        assert notified(app, "Aliases that name no view (a view's id or title): bogus → 'no.such.view'")
        assert notified(app, "Theme 'nope' is not one of the console's")


async def test_in_read_only_the_moved_key_says_why_and_the_old_one_is_quiet():
    app = make_app(Sandbox(), settings=demo_settings(keymap={"delete": "x"}, read_only=True))
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        view.focus_table()
        await pilot.press("d")
        await pilot.pause()
        assert not notified(app, "is off: cloudtui runs with --read-only")
        await pilot.press("x")
        await wait_for(pilot, lambda: notified(app, "Delete is off: cloudtui runs with --read-only"), what="said")
