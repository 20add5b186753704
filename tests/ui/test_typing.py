"""Keys that arrive in one read (fast typing, SSH or tmux coalescing them) are applied in the order
typed: a backspace followed by a letter deletes the letter before, never the one after."""

from __future__ import annotations

import pytest
from textual import events

from helpers import loaded, make_app, notified, row_named, screen_named, wait_for

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    "keys, typed", [(["backspace", "y"], "aby"), (["x", "backspace", "y"], "abcy"), (["backspace", "backspace"], "a")]
)
async def test_keys_in_one_read_apply_in_order(sandbox, keys, typed):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await pilot.press("c")
        form = await screen_named(pilot, app, "FormScreen")
        name = form.query_one("#f-name")
        name.focus()
        await pilot.press("ctrl+u", *"abc")
        for key in keys:  # as the terminal driver posts them, with nothing processed in between
            app.post_message(events.Key(key, "\x7f" if key == "backspace" else key))
        await pilot.pause()
        assert name.value == typed


async def test_keys_typed_while_a_form_loads_its_choices_are_kept(sandbox):
    """A form that is still loading its choices already takes typing into its first field; when the
    choices arrive the text is still there, and esc then asks before dropping it."""
    import asyncio
    from typing import Annotated

    from pydantic import BaseModel, Field

    from helpers import wait_for
    from tui.products.kit.fields import meta
    from tui.ui.screens.form import FormScreen

    class Thing(BaseModel):
        name: Annotated[str, Field(min_length=1, json_schema_extra=meta("Name"))]
        kind: Annotated[str, Field(min_length=1, json_schema_extra=meta("Kind", widget="select"))]

    release = asyncio.Event()

    async def slow_choices():
        await release.wait()
        return {"kind": [("a", "a"), ("b", "b")]}, {}

    async def never(form, extra):
        raise AssertionError("nothing is sent")

    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        form = FormScreen("Thing", Thing, never, loader=slow_choices)
        app.push_screen(form)
        await pilot.pause()
        await pilot.press(*"typed-early")
        release.set()
        await wait_for(pilot, lambda: form.ready, what="choices")
        assert form.query_one("#f-name").value == "typed-early"
        await pilot.press("escape")
        await pilot.pause()
        assert getattr(app.screen, "title_text", "") == "Drop what you typed?"


async def test_keys_typed_with_the_key_that_opens_a_form_go_to_the_form_in_order(sandbox):
    """`c d e v 1` in one read on a list: Textual runs `c`'s binding once the key has bubbled back
    to the app, after it has read `d e v 1` — which went to the list (d: delete) or nowhere."""
    from helpers import form_ready

    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        for key in "cdev1":  # as the terminal driver posts them, with nothing processed in between
            app.post_message(events.Key(key, key))
        form = await form_ready(pilot, app)
        await pilot.pause()
        assert form.query_one("#f-name").value == "dev1"
        assert view.table.loaded_count == 8 and [m for m, _ in sandbox.requests if m != "GET"] == []


async def test_keys_held_for_a_screen_that_never_focuses_anything_go_to_it_once_the_wait_is_over(sandbox, monkeypatch):
    """Keys wait for a dialog to focus its field, two seconds at most. Once that wait was over they
    were held again, and again, for as long as nothing had the focus: esc did nothing (and every key
    typed meanwhile was kept, read again every two seconds, for good)."""
    from textual.binding import Binding
    from textual.screen import Screen
    from textual.widgets import Static

    from helpers import wait_for
    from tui.ui import typeahead

    class Unfocused(Screen):
        TYPE_AHEAD = True
        BINDINGS = [Binding("escape", "app.pop_screen", "Back")]

        def compose(self):
            yield Static("nothing here takes the focus")

    monkeypatch.setattr(typeahead, "HOLD_AT_MOST", 0.05)
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        app.push_screen(Unfocused())
        await screen_named(pilot, app, "Unfocused")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.id == "main", what="esc read, once the wait was over")


async def test_a_key_read_before_a_dialog_is_built_waits_for_it(sandbox):
    """Soak: `j` read right after a result dialog was pushed ran its action before the dialog had
    composed its text ("No nodes match '#result-scroll'"): the dialog was dropped as broken."""
    from helpers import wait_for
    from tui.ui.dialogs import open_dialog

    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        open_dialog(app, "result", title="Lines", text="\n".join(f"line {n}" for n in range(200)))
        for key in ("j", "j"):  # read before the dialog is built
            app.post_message(events.Key(key, key))
        dialog = await screen_named(pilot, app, "ResultScreen")
        focused = lambda: app.focused is not None and app.focused.id == "result-scroll"  # noqa: E731
        await wait_for(pilot, focused, what="its text focused")
        assert app.bugs == [] and app.screen is dialog
        await pilot.press("j")
        await wait_for(pilot, lambda: dialog.query_one("#result-scroll").scroll_y > 0, what="j scrolls it")


def _typed(app, text: str) -> None:
    """Keys as the terminal driver posts them from one read, with nothing processed in between."""
    names = {":": "colon", " ": "space", "\r": "enter", "\n": "ctrl+j"}
    for key in text:
        app.post_message(events.Key(names.get(key, key), key))


async def test_a_palette_search_typed_the_instant_the_console_starts_runs(sandbox):
    """`: DNS zones ⏎` typed as the console starts: `:` was read before the console had put up its
    first screen and opened the palette beneath it; and Enter, typed before the console took the
    terminal, arrives as a newline (ctrl+j)."""
    from helpers import wait_for

    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        _typed(app, ":dns zones\n")
        await wait_for(
            pilot,
            lambda: (
                app.main is not None and app.main.current_kind is not None and app.main.current_kind.id == "dns.zones"
            ),
            what="DNS zones shown",
        )
        assert [type(s).__name__ for s in app.screen_stack] == ["Screen", "MainScreen"]


async def test_enter_typed_with_a_palette_search_waits_for_its_matches(sandbox, monkeypatch):
    """Enter typed right behind the search reached the palette before its first matches (a console
    busy loading its lists answers late) and did nothing: the palette stayed open on its search."""
    import asyncio

    from helpers import wait_for
    from tui.ui.across.commands import CloudCommands

    answer = asyncio.Event()
    search = CloudCommands.search

    async def slow_search(self, query):
        await answer.wait()
        async for hit in search(self, query):
            yield hit

    monkeypatch.setattr(CloudCommands, "search", slow_search)
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        _typed(app, ":dns zones\r")

        def typed() -> bool:
            screen = app.screen
            return type(screen).__name__ == "CloudPalette" and screen.query_one("CommandInput").value == "dns zones"

        await wait_for(pilot, typed, what="the search typed")
        await wait_for(pilot, lambda: app.type_ahead.keys_waiting, what="enter held")
        answer.set()
        await wait_for(
            pilot, lambda: app.screen is app.main and app.main.current_kind.id == "dns.zones", what="DNS zones shown"
        )


async def test_keys_typed_after_picking_an_action_go_to_the_form_it_opens(sandbox):
    """Walk: `a ⏎ new-name` in one burst on DNS zones opened "Rename" with its field empty: the form is
    opened by the action's worker, after the keys were read, and they went to the list behind."""
    from helpers import form_ready, open_view, to_named_row

    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        zones = await open_view(pilot, app, "dns.zones")
        await to_named_row(pilot, zones, "shop.example.com")
        _typed(app, "a\rnewshop")
        form = await form_ready(pilot, app)
        await pilot.pause()
        assert form.query_one("#f-new_dns_zone").value == "newshop"
        assert app.screen is form and [m for m, _ in sandbox.requests if m != "GET"] == []


async def test_keys_typed_while_a_picked_action_prepares_its_dialog_wait_for_it(sandbox):
    """Walk: an action whose dialog opens after a read (an install's OS list, a warning) let the keys
    typed behind its pick reach the list meanwhile — letters there are commands."""
    import asyncio
    from typing import Annotated

    from pydantic import BaseModel, Field

    from helpers import form_ready, open_view
    from tui.products.kit.base import ActionSpec, Lazy
    from tui.products.kit.fields import meta
    from tui.ui.action_runner import open_menu

    class Named(BaseModel):
        name: Annotated[str, Field(min_length=1, json_schema_extra=meta("Name"))]

    read = asyncio.Event()

    async def slow_flow(ui, row):
        await read.wait()  # what the flow reads before its form
        await ui.form("Name it", Named)

    spec = ActionSpec("slow", "Slow…", flow=Lazy.of(slow_flow), mutating=False)
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        zones = await open_view(pilot, app, "dns.zones")
        row = zones.table.get(zones.table.cursor_key)
        open_menu(zones, row, [spec], [], "zone", lambda picked: zones._act(picked, row), None)
        await screen_named(pilot, app, "PickerScreen")
        _typed(app, "\rabc")  # the pick, then a name typed at once
        await wait_for(pilot, lambda: app.screen is app.main and app.type_ahead.keys_waiting, what="the keys held")
        read.set()
        form = await form_ready(pilot, app)
        await wait_for(pilot, lambda: form.query_one("#f-name").value == "abc", what="the name in the form")
        assert zones.table.marked == set() and not app.main.query("Sidebar.-hidden")


async def test_keys_for_a_choice_list_typed_while_it_loads_pick_what_they_pick_once_it_has_loaded(sandbox):
    """`enter down down enter` on a select still loading its choices: the keys wait for them (the empty
    list lost them, or the first `down` only found where the list starts: another type was created)."""
    import asyncio
    from typing import Annotated

    from pydantic import BaseModel, Field

    from tui.products.kit.fields import meta
    from tui.ui.screens.form import FormScreen

    class Thing(BaseModel):
        name: Annotated[str, Field(min_length=1, json_schema_extra=meta("Name"))]
        kind: Annotated[str, Field(min_length=1, json_schema_extra=meta("Kind", widget="select"))]

    async def never(form, extra):
        raise AssertionError("nothing is sent")

    async def picked(pilot, app, release: asyncio.Event) -> str:
        async def choices():
            await release.wait()
            return {"kind": [("l_ssd", "l_ssd"), ("b_ssd", "b_ssd"), ("sbs", "sbs")]}, {}

        form = FormScreen("Thing", Thing, never, loader=choices)
        app.push_screen(form)
        await wait_for(pilot, lambda: app.focused is not None and app.focused.id == "f-name", what="the form")
        await pilot.press("tab")
        for key in ("enter", "down", "down", "enter"):  # as the terminal driver posts them
            app.post_message(events.Key(key, None))
        if release.is_set():
            await pilot.pause()  # read at once
        else:
            await wait_for(pilot, lambda: app.type_ahead.keys_waiting, what="the keys held for the choices")
            release.set()
        await wait_for(pilot, lambda: form.ready and not app.type_ahead.keys_waiting, what="choices, and the keys read")
        await pilot.pause()
        value = form.query_one("#f-kind").value
        await app.pop_screen()
        return value

    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        loaded_first = asyncio.Event()
        loaded_first.set()  # the choices are there before the keys
        expected = await picked(pilot, app, loaded_first)
        assert expected not in (None, "") and await picked(pilot, app, asyncio.Event()) == expected


async def test_g_and_shift_g_go_to_the_first_and_the_last_choice_of_a_menu_as_in_every_list(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await pilot.press("a")
        menu = await screen_named(pilot, app, "PickerScreen")
        choices = menu.query_one("OptionList")
        await pilot.press("G")
        await wait_for(pilot, lambda: choices.highlighted == choices.option_count - 1, what="the last choice")
        await pilot.press("g")
        await wait_for(pilot, lambda: choices.highlighted == 0, what="the first choice")
        assert app.screen is menu  # nothing was picked


async def test_esc_while_a_form_is_sending_keeps_it_until_the_answer_comes():
    """Soak: a form closed with esc while its request was under way (slow, paced by the API's limit)
    was dismissed again by the answer, and that closed the screen in front: the console itself."""
    import asyncio

    from pydantic import BaseModel
    from textual.app import App
    from textual.widgets import Static

    from tui.ui.screens.form import FormScreen

    class Name(BaseModel):
        name: str = "web-1"

    answer = asyncio.Event()
    results: list[object] = []

    async def submit(form: Name, extra: dict) -> str:
        await answer.wait()
        return form.name

    class Host(App):
        def compose(self):
            yield Static("the console")

    app = Host()
    async with app.run_test() as pilot:
        app.push_screen(FormScreen("Create a server", Name, submit), results.append)
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen) and app.screen.ready, what="form")
        form = app.screen
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: form.busy, what="sending")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is form and len(app.screen_stack) == 2, "closed while its answer is awaited"
        answer.set()
        await wait_for(pilot, lambda: results != [], what="the answer")
        assert results[0][0] == "web-1" and len(app.screen_stack) == 1  # the form closed, the console stays


async def test_keys_typed_after_a_refused_delete_are_dropped_not_given_to_the_list(sandbox):
    """Walk 22: `d web-01 ⏎` in one burst on a running server: the delete is refused (no dialog comes) and
    the name meant for its question went to the list — `e` opened the edit form, `b-01` became its name.
    The keys typed after a refused act are dropped, and that is said."""
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        web = row_named(view, "web-01")
        view.table.move_to(web.id)
        view.focus_table()
        _typed(app, "dweb-01\r")
        await wait_for(pilot, lambda: any("not used" in n.message for n in app.notes), what="the keys said dropped")
        await pilot.pause()
        assert app.screen.id == "main" and "Cannot delete web-01" in " ".join(n.message for n in app.notes)
        assert not app.query("FormScreen") and app.bugs == []
        at = view.table.cursor_row
        await pilot.press("j")  # keys typed afterwards reach the list again
        await wait_for(pilot, lambda: view.table.cursor_row == at + 1, what="the cursor moved")


async def test_keys_typed_on_at_a_persons_pace_after_a_refused_delete_are_dropped_until_a_pause(sandbox, monkeypatch):
    """Walk 22b: the same keys typed one by one, 30-150 ms apart, still opened the edit form and renamed the
    server: keys typed on after a refusal are dropped until the operator pauses (REFUSED_PAUSE)."""
    from tui.ui import typeahead

    clock = [1000.0]
    monkeypatch.setattr(typeahead, "_now", lambda: clock[0])
    monkeypatch.setattr(typeahead, "REFUSED_PAUSE", 0.4)
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        view.table.move_to(row_named(view, "web-01").id)
        view.focus_table()
        await pilot.press("d")
        await wait_for(pilot, lambda: notified(app, "Cannot delete web-01"), what="the delete refused")
        at = view.table.cursor_row
        for key in ("e", "b", "j", "enter"):  # each 0.1 s after the one before
            clock[0] += 0.1
            await pilot.press(key)
        await pilot.pause()
        assert app.screen.id == "main" and not app.query("FormScreen") and view.table.cursor_row == at
        assert [n.message for n in app.notes].count(
            "Keys typed after it not used, until a pause: it was refused, and nothing else was done."
        ) == 1
        clock[0] += 0.5  # a pause: what is typed now is meant for the list
        await pilot.press("j")
        await wait_for(pilot, lambda: view.table.cursor_row == at + 1, what="the cursor moved")


async def test_keys_typed_after_d_refused_in_read_only_mode_are_dropped_as_after_any_refusal(sandbox, monkeypatch):
    """Walk 23 F14: with --read-only, `d` is refused where its key is read (its binding never runs), and the
    keys typed after it opened the actions menu and moved in it."""
    from helpers import demo_settings
    from tui.ui import typeahead

    clock = [1000.0]
    monkeypatch.setattr(typeahead, "_now", lambda: clock[0])
    monkeypatch.setattr(typeahead, "REFUSED_PAUSE", 1.0)
    app = make_app(sandbox, settings=demo_settings(read_only=True))
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        view.focus_table()
        await pilot.press("d")
        await wait_for(pilot, lambda: notified(app, "is off: cloudtui runs with --read-only"), what="refused")
        clock[0] += 0.3
        await pilot.press("a")
        await pilot.pause()
        assert app.screen.id == "main" and notified(app, "Keys typed after it not used")


async def test_keys_typed_while_a_marked_delete_reads_what_to_ask_wait_for_its_question(sandbox, monkeypatch):
    """Walk 22b: `d` on marked rows reads each before asking (retried 5xx took 7 s): an Enter typed meanwhile
    reached the list and opened another row's detail, under the question. Keys typed while the act is planned
    wait for its question, however long the reads take."""
    import asyncio

    from helpers import open_view
    from tui.ui import bulk

    reads, planned = asyncio.Event(), asyncio.Event()
    plan = bulk.of_delete

    async def slow(host, rows):
        planned.set()
        await reads.wait()
        return await plan(host, rows)

    monkeypatch.setattr(bulk, "of_delete", slow)
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "flexible_ip.fips")
        for row in view.table.resources()[:2]:
            view.table.toggle_mark(row.id)
        at = view.table.cursor_row
        _typed(app, "d")
        await wait_for(pilot, planned.is_set, what="the marked delete planned")
        _typed(app, "j")
        await pilot.pause(0)  # (what was typed read; the keys held are not waited for)
        assert view.table.cursor_row == at and app.type_ahead.keys_waiting, "held for the question"
        reads.set()
        await screen_named(pilot, app, "BulkScreen")
        await wait_for(pilot, lambda: not app.type_ahead.keys_waiting, what="the keys given to the question")
        assert view.table.cursor_row == at


async def test_a_name_typed_after_c_in_every_zone_is_not_taken_as_a_pick_of_the_zone(sandbox):
    """Walk 22: in a list of every zone, `c jenkins` in one go: `c` asks the zone first, and `j` moved its
    choice (`c jjj` picked nl-ams-1). Keys typed ahead of that question are dropped, and that is said."""
    from tui.products.kit.location import ALL

    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        view.set_scope(ALL)
        await wait_for(pilot, lambda: view.model.scope == ALL and not view.model.listing, what="every zone")
        view.focus_table()
        _typed(app, "cjjj")
        picker = await screen_named(pilot, app, "PickerScreen")
        await wait_for(pilot, lambda: any("typed ahead not used" in n.message for n in app.notes), what="said")
        await pilot.pause()
        first = next((i for i, c in enumerate(picker.choices) if c[1] == picker.current), 0)
        assert picker.query_one("#choices").highlighted == first, "the zone offered first, still"


async def test_ctrl_s_and_the_name_typed_in_one_burst_in_an_editor_land_in_its_production_question(
    sandbox, monkeypatch
):
    """Re-walk 23 N7: in an editor (or a grid), ctrl+s then the name and Enter in one burst lost the letters to
    the editor behind the question, and the Enter said "Nothing typed": they wait for the question now."""
    import asyncio

    from helpers import demo_settings, rules_edited
    from tui.ui.flow_ui import ViewFlowUI

    ask, asking = ViewFlowUI.cleared, asyncio.Event()

    async def slowly(self, what):  # the question comes a moment after ctrl+s (reads, a slow link)
        await asking.wait()
        await ask(self, what)

    monkeypatch.setattr(ViewFlowUI, "cleared", slowly)
    app = make_app(sandbox, settings=demo_settings(profile="prod", production=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        group, editor = await rules_edited(pilot, app)
        app.post_message(events.Key("ctrl+s", None))
        _typed(app, group.name + "\r")
        await pilot.pause(0)
        asking.set()
        sent = lambda: [p for m, p in sandbox.requests if m == "PUT" and p.endswith("/rules")]  # noqa: E731
        await wait_for(pilot, lambda: len(sent()) == 1, what="sent once the name typed ahead landed in its question")
