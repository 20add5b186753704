"""A screen that fails to open is removed and reported, never left holding the keys; the users ×
databases grid opens whatever the names (a database called `_row`, two users of one name)."""

from __future__ import annotations

import asyncio

import pytest

from helpers import demo_settings, loaded, make_app, screen_named

pytestmark = pytest.mark.anyio


async def test_a_screen_that_fails_to_open_goes_and_the_console_answers(sandbox):
    from textual.screen import ModalScreen

    class Broken(ModalScreen):
        def on_mount(self) -> None:
            raise KeyError("a value the screen did not expect")

    app = make_app(sandbox)
    async with app.run_test(size=(100, 30)) as pilot:
        await loaded(pilot, app)
        app.push_screen(Broken())
        # Pilot's own waits would wait on the broken screen's messages, which never come: yield instead.
        for _ in range(1000):
            if app.screen.id == "main":
                break
            await asyncio.sleep(0)  # a yield to the loop, not a wait
        assert app.screen.id == "main", "the broken screen was removed"
        assert any("Opening broken: failed" in n.title for n in app.notes)
        await pilot.press("question_mark")  # the keys answer
        await screen_named(pilot, app, "HelpScreen")


@pytest.mark.parametrize("users, databases", [(["app", "app"], ["orders"]), (["app"], ["_row", "orders", "orders"])])
async def test_the_privileges_grid_opens_whatever_the_names(sandbox, users, databases):
    app = make_app(sandbox, settings=demo_settings(region="fr-par"))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        from tui.ui.dialogs import open_dialog

        values = {(u, d): "none" for u in users for d in databases}
        open_dialog(
            app, "matrix", title="grid", rows=users, columns=databases, values=values, choices=["none", "readonly"]
        )
        grid = await screen_named(pilot, app, "MatrixScreen")
        await pilot.press("space")
        assert grid.changes() == {(users[0], databases[0]): "readonly"}
        assert app.bugs == []


async def test_a_choice_named_by_the_api_at_any_length_stays_one_line(sandbox):
    from tui.ui.screens.picker import PickerScreen

    app = make_app(sandbox)
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot, app)
        picked = []
        app.push_screen(
            PickerScreen("Which?", [("x" * 5000, "long"), ("y" * 300, "odd", "z" * 400), ("short", "ok")]),
            picked.append,
        )
        picker = await screen_named(pilot, app, "PickerScreen")
        await pilot.pause()
        box = picker.query_one("OptionList")
        assert all(
            len(str(box.get_option_at_index(i).prompt)) <= 60 + len("  — ") + 120 for i in range(box.option_count)
        )
        await pilot.press("j", "enter")  # the greyed one is skipped
        assert picked == ["ok"]


async def test_a_grid_cell_cycled_to_a_longer_value_shows_it_whole(sandbox):
    """A cell under a short column name ('db') was cut once it read '*readwrite' (the column kept the
    width of ' none')."""
    from helpers import drawn_lines
    from tui.ui.dialogs import open_dialog

    app = make_app(sandbox)
    async with app.run_test(size=(100, 30)) as pilot:
        await loaded(pilot, app)
        open_dialog(
            app,
            "matrix",
            title="grid",
            rows=["app"],
            columns=["db"],
            values={("app", "db"): "none"},
            choices=["none", "readonly", "readwrite", "all"],
        )
        grid = await screen_named(pilot, app, "MatrixScreen")
        await pilot.press("space", "space")
        assert grid.changes() == {("app", "db"): "readwrite"}
        await pilot.pause()
        assert any("*readwrite" in line for line in drawn_lines(grid.table))
