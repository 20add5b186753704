"""Commands of the operator's own in the console (issue 51, item 3): bound to a key on the kinds they name,
offered in the actions menu, run on the row under the cursor; one that changes things is refused in
read-only mode and asks the name typed on a production profile; a value refused says why, nothing runs."""

from __future__ import annotations

import pytest

from helpers import demo_settings, loaded, make_app, notified, row_named, screen_named, wait_for
from tui.products.kit.own_commands import parse

pytestmark = pytest.mark.anyio


def commands(*argv: str, changes: bool = False, key: str = "t", timeout: float = 30):
    made, problems = parse(
        [
            {
                "title": "Echo",
                "key": key,
                "kinds": ["instance.servers"],
                "argv": list(argv),
                "changes": changes,
                "output": "screen",
                "timeout": timeout,
            }
        ]
    )
    assert not problems
    return tuple(made)


async def on_web_01(pilot, app):
    """The servers listed, the cursor on web-01, the list focused: the list."""
    view = await loaded(pilot, app)
    view.table.move_to(row_named(view, "web-01").id)
    view.focus_table()
    return view


async def test_a_command_runs_on_the_row_under_the_cursor_and_its_output_is_shown(sandbox):
    app = make_app(sandbox, settings=demo_settings(commands=commands("echo", "hello", "{name}")))
    async with app.run_test(size=(120, 40)) as pilot:
        view = await on_web_01(pilot, app)
        await pilot.press("t")
        shown = await screen_named(pilot, app, "ProgramScreen")
        await wait_for(pilot, lambda: shown.ended is not None, what="echo ended")
        assert "hello web-01" in shown.text and "Echo · web-01" in shown.title_text
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.id == "main", what="back to the same list")
        assert app.main.view is view
        from tui.ui.across.commands import CloudCommands

        offered = [name for name, _, _ in CloudCommands(app.screen)._index()]
        assert "Command: Echo (t)" in offered  # in the palette too (and in the actions menu: the same spec)


async def test_output_is_shown_as_it_comes_esc_stops_the_program_and_its_time_limit_too(sandbox):
    app = make_app(sandbox, settings=demo_settings(commands=commands("sh", "-c", "echo first {name}; sleep 60")))
    async with app.run_test(size=(120, 40)) as pilot:
        await on_web_01(pilot, app)
        await pilot.press("t")
        shown = await screen_named(pilot, app, "ProgramScreen")
        await wait_for(pilot, lambda: "first web-01" in shown.text, what="its first line, while it runs")
        assert shown.ended is None
        await pilot.press("escape")  # stops it; the screen stays, saying so
        await wait_for(pilot, lambda: shown.ended is not None, what="stopped")
        assert "stopped (esc)" in shown.text and app.screen is shown
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.id == "main", what="closed")
    timed = make_app(sandbox, settings=demo_settings(commands=commands("sleep", "60", timeout=0.2)))
    async with timed.run_test(size=(120, 40)) as pilot:
        await on_web_01(pilot, timed)
        await pilot.press("t")
        shown = await screen_named(pilot, timed, "ProgramScreen")
        await wait_for(pilot, lambda: shown.ended is not None, what="its time limit")
        assert "stopped after 0.2 s" in shown.text


async def test_a_commands_key_runs_it_in_the_resources_detail_too(sandbox):
    app = make_app(sandbox, settings=demo_settings(commands=commands("echo", "{name}")))
    async with app.run_test(size=(120, 40)) as pilot:
        await on_web_01(pilot, app)
        await pilot.press("enter")
        await screen_named(pilot, app, "DetailScreen")
        await pilot.press("t")
        shown = await screen_named(pilot, app, "ProgramScreen")
        await wait_for(pilot, lambda: shown.ended is not None, what="echo ended")
        assert "web-01" in shown.text


async def test_a_value_that_could_be_an_option_is_refused_and_nothing_runs(sandbox, tmp_path):
    marker = tmp_path / "ran"
    app = make_app(sandbox, settings=demo_settings(commands=commands("touch", "{name}")))
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        web = row_named(view, "web-01")
        web.name = web.data["name"] = f"-{marker}"  # a name from the API that would be read as an option
        view.table.move_to(web.id)
        view.focus_table()
        await pilot.press("t")
        await wait_for(pilot, lambda: notified(app, "would be read as an option"), what="refused")
        assert not marker.exists() and app.screen.id == "main"


async def test_a_command_that_changes_things_is_refused_read_only_and_asks_the_name_on_production(sandbox):
    ro = make_app(sandbox, settings=demo_settings(read_only=True, commands=commands("echo", "{name}", changes=True)))
    async with ro.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, ro)
        view.focus_table()
        await pilot.press("t")
        await wait_for(pilot, lambda: notified(ro, "cloudtui runs with --read-only"), what="refused read-only")
        from tui.ui.across.commands import CloudCommands

        assert not [n for n, _, _ in CloudCommands(ro.screen)._index() if n.startswith("Command:")]  # nor offered
    prod = make_app(sandbox, settings=demo_settings(production=True, commands=commands("echo", "{name}", changes=True)))
    async with prod.run_test(size=(120, 40)) as pilot:
        await on_web_01(pilot, prod)
        await pilot.press("t")
        asked = await screen_named(pilot, prod, "ConfirmScreen")
        assert asked.require_text == "web-01" and "Runs: echo web-01" in asked.message  # what will run, said
        await pilot.press(*"web-01", "enter")
        shown = await screen_named(pilot, prod, "ProgramScreen")
        await wait_for(pilot, lambda: shown.ended is not None, what="echo ended")
        assert "web-01" in shown.text
        await pilot.press("escape")
        await wait_for(pilot, lambda: prod.screen.id == "main", what="closed")


async def test_a_command_on_a_taken_key_or_naming_what_is_not_here_is_said_at_start(sandbox):
    made, _ = parse(
        [
            {"title": "Taken", "key": "d", "kinds": ["instance.servers"], "argv": ["echo", "{name}"]},
            {"title": "Lost", "key": "t", "kinds": ["instance.servers", "nowhere.x"], "argv": ["echo", "{nothing}"]},
        ]
    )
    app = make_app(sandbox, settings=demo_settings(commands=tuple(made)))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await wait_for(pilot, lambda: notified(app, "Commands that name what is not here"), what="said at start")
        said = " ".join(n.message for n in app.notes)
        assert "Taken (d:" in said and "no list 'nowhere.x'" in said and "has no field nothing" in said


async def test_help_lists_the_operators_own_commands(sandbox):
    from rich.console import Console
    from textual.widgets import Static

    app = make_app(sandbox, settings=demo_settings(commands=commands("echo", "{name}")))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await pilot.press("question_mark")
        helped = await screen_named(pilot, app, "HelpScreen")
        console = Console(width=200, record=True)
        for static in helped.query(Static):
            console.print(static.content)
        assert "Echo — on instance.servers" in console.export_text()


async def test_a_commands_key_typed_into_the_lists_filter_is_text_not_the_command(sandbox):
    app = make_app(sandbox, settings=demo_settings(commands=commands("echo", "{name}")))
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        view.focus_table()
        await pilot.press("slash", "t")
        await pilot.pause()
        assert app.screen.id == "main" and "t" in app.focused.value
