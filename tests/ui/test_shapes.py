"""The shared mechanisms of the last products, through the tests' own product ("Gadgets"), declared
in `gadgets_client.py` with nothing in `tui/ui` or the shared service knowing it: a global panel
absent until activated (its POST carrying the project from the context, a password shown once,
children), a PUT edit, and the action shapes — a form then one request, a whole-set editor, a
value to copy."""

from __future__ import annotations

import pytest

import gadgets_client
import gadgets_sandbox
from helpers import (
    act,
    child_list,
    confirm_yes,
    demo_settings,
    form_ready,
    loaded,
    make_app,
    open_view,
    pick,
    screen_named,
    select,
    tab_to,
    text_of,
    to_named_row,
    wait_for,
)
from tui.products import manifest
from tui.sandbox import Sandbox
from tui.products.kit.refresh_plan import RefreshPolicy

pytestmark = pytest.mark.anyio


@pytest.fixture
def gsandbox(clock):
    manifest.register(*gadgets_client.ENTRIES)
    yield Sandbox(clock=clock, products=[gadgets_sandbox.PRODUCT])
    manifest.unregister(*gadgets_client.ENTRIES)


def writes(sandbox):
    return [(m, p) for m, p in sandbox.requests if m != "GET"]


async def menu(pilot, app, label):
    await pilot.press("a")
    await wait_for(pilot, lambda: app.screen.id == "actions-menu", what="actions")
    await pick(pilot, app, lambda text: text == label)


async def on_alpha(pilot, app, sandbox):
    """The gadgets list, the cursor on alpha: its row, and the sandbox's own copy of it."""
    await loaded(pilot, app)
    view = await open_view(pilot, app, "gadgets.gadgets")
    alpha = await select(pilot, view, "alpha")
    return alpha, sandbox.gadgets.gadgets["fr-par"][alpha.id]


async def test_a_panel_absent_until_activated_offers_activate_shows_the_password_once_then_its_object_and_children(
    gsandbox, clock
):
    app = make_app(gsandbox, policy=RefreshPolicy(fast=0.05, slow=3600))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        panel = await open_view(pilot, app, "gadgets.station")
        await wait_for(pilot, lambda: panel.absent, what="absent")
        shown = text_of(panel.query_one("#panel-fields"))
        assert (
            "no station yet" in shown
            and "a: Activate" in shown
            and "not set up" in str(panel.query_one("#panel-scroll").border_title)
        )
        assert ("GET", "/gadgets/v1/station") in gsandbox.requests and gsandbox.gadgets.project_params == []

        await menu(pilot, app, "Activate")
        await screen_named(pilot, app, "SecretScreen")  # the answer's password, once, masked
        assert writes(gsandbox) == [("POST", "/gadgets/v1/station/activate")]  # its body's project: from the context
        await pilot.press("y")
        password = app.clipboard
        assert password.startswith("pw-") and password not in app.export_screenshot()  # masked until v
        await pilot.press("escape")
        await wait_for(pilot, lambda: not panel.absent and panel.row.state == "creating", what="creating")
        assert panel.service.take_secrets(panel.row.id) == {} and password not in str(panel.row.raw)
        clock.advance(2.5)  # polled while it moves
        await wait_for(pilot, lambda: panel.row.state == "ready", what="ready")

        # its children and its own actions now; Deactivate says what it stops
        await pilot.press("a")
        await wait_for(pilot, lambda: app.screen.id == "actions-menu", what="actions")
        assert [c[0] for c in app.screen.choices] == ["Deactivate", "Beacons ›"]
        await pick(pilot, app, lambda text: text == "Beacons ›")
        child = (await screen_named(pilot, app, "ChildScreen")).view
        await wait_for(pilot, lambda: child.table.loaded_count == 3, what="beacons")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.id == "main", what="back")
        await menu(pilot, app, "Deactivate")
        assert "Its beacons stop at once." in await confirm_yes(pilot, app)
        await wait_for(pilot, lambda: panel.absent, what="absent again")
        assert writes(gsandbox)[-1] == ("POST", "/gadgets/v1/station/deactivate")


async def test_a_put_edit_sends_the_whole_object_and_shapes_are_declared_not_written(gsandbox, caplog):
    app = make_app(gsandbox, settings=demo_settings(region="fr-par"))
    async with app.run_test(size=(120, 40)) as pilot:
        alpha, stored = await on_alpha(pilot, app, gsandbox)

        # PUT: the description alone changed, and the name is sent too, as a replacing PUT asks
        await pilot.press("e")
        await form_ready(pilot, app)
        await tab_to(pilot, app, "f-description")
        await pilot.press(*"edge", "ctrl+s")
        await wait_for(pilot, lambda: stored["description"] == "edge", what="replaced")
        assert (
            writes(gsandbox) == [("PUT", f"/gadgets/v1/regions/fr-par/gadgets/{alpha.id}")]
            and stored["name"] == "alpha"
        )

        # a form, then one request: the form's value and the context's project in one body
        await wait_for(pilot, lambda: app.screen.id == "main", what="main")
        await menu(pilot, app, "Tune…")
        await form_ready(pilot, app)
        await tab_to(pilot, app, "f-level")
        fault = gsandbox.inject(
            503, f"/gadgets/{alpha.id}", method="GET"
        )  # reading it again fails: only the answer can show it
        await pilot.press("end", "backspace", "7", "ctrl+s")
        await wait_for(pilot, lambda: stored["level"] == 7, what="tuned")
        await wait_for(pilot, lambda: app.main.view.table.get(alpha.id).get("level") == 7, what="the answer upserted")
        gsandbox.faults.remove(fault)

        # the whole set: a record repeating another's key is refused in its form (the set's rule,
        # checked again before sending: test_ui_instance_network), the edits stay, one PUT
        await wait_for(pilot, lambda: app.screen.id == "main", what="main")
        await menu(pilot, app, "Labels (replace the set)…")
        editor = await screen_named(pilot, app, "RecordListScreen")
        for value in ("a", "b"):
            await pilot.press("c")
            form = await form_ready(pilot, app)
            await tab_to(pilot, app, "f-key")
            await pilot.press(*"env", "tab", value, "ctrl+s")
        status = form.query_one("#form-status")
        await wait_for(pilot, lambda: "env is already listed (row 1)" in text_of(status), what="refused in the form")
        assert app.screen is form and len(editor.records) == 1 and "env is already listed" in caplog.text  # and logged
        await pilot.press("escape")
        await confirm_yes(pilot, app)  # drop what was typed
        await screen_named(pilot, app, "RecordListScreen")
        before = len(writes(gsandbox))
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: stored["labels"] == [{"key": "env", "value": "a"}], what="labels")
        assert len(writes(gsandbox)) == before + 1
        assert writes(gsandbox)[-1] == ("PUT", f"/gadgets/v1/regions/fr-par/gadgets/{alpha.id}/labels")

        # an empty set says what it means before it is sent
        await wait_for(pilot, lambda: app.screen.id == "main", what="main")
        await menu(pilot, app, "Labels (replace the set)…")
        await screen_named(pilot, app, "RecordListScreen")
        await pilot.press("d", "ctrl+s")
        assert "listed as unlabelled" in await confirm_yes(pilot, app)
        await wait_for(pilot, lambda: stored["labels"] == [], what="sent empty")

        # a value to read and copy
        await wait_for(pilot, lambda: app.screen.id == "main", what="main")
        await menu(pilot, app, "Address (copy)…")
        await screen_named(pilot, app, "ResultScreen")
        await pilot.press("y")
        assert app.clipboard == "alpha.gadgets.example:7000"


async def test_a_form_takes_lines_a_key_value_map_and_several_choices_and_names_a_bad_line(gsandbox):
    app = make_app(gsandbox, settings=demo_settings(region="fr-par"))
    async with app.run_test(size=(120, 40)) as pilot:
        alpha, stored = await on_alpha(pilot, app, gsandbox)
        await menu(pilot, app, "Configure…")
        form = await form_ready(pilot, app)
        await tab_to(pilot, app, "f-notes")
        await pilot.press(*"line one", "enter", *"line two")  # enter is a new line here, not a send
        await tab_to(pilot, app, "f-settings")
        await pilot.press(*"oops", "ctrl+s")
        await wait_for(
            pilot,
            lambda: "line 1: key=value expected" in text_of(form.query_one("#e-settings")),
            what="the bad line named",
        )
        assert writes(gsandbox) == [] and app.screen is form
        await pilot.press(*["backspace"] * 4, *"retries=3", "enter", *"mode = eco")
        await tab_to(pilot, app, "f-modes")
        await pilot.press("space", "down", "down", "space")  # Quiet and Safe ticked
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "config" in stored, what="configured")
        assert stored["config"] == {
            "notes": "line one\nline two",
            "settings": {"retries": "3", "mode": "eco"},
            "modes": ["quiet", "safe"],
        }


async def test_an_exactly_one_of_field_shows_the_chosen_variant_and_names_a_nested_field_by_its_path(gsandbox):
    app = make_app(gsandbox, settings=demo_settings(region="fr-par"))
    async with app.run_test(size=(120, 40)) as pilot:
        alpha, stored = await on_alpha(pilot, app, gsandbox)
        await menu(pilot, app, "Health probe…")
        form = await form_ready(pilot, app)
        http_fields = form.query_one("#v-check--http")
        assert not http_fields.display  # TCP, the default: no fields of its own
        await tab_to(pilot, app, "f-check")
        await pilot.press("enter", "down", "enter")  # HTTP request
        await wait_for(pilot, lambda: http_fields.display, what="the HTTP fields")
        await tab_to(pilot, app, "f-check--http--uri")
        await pilot.press(*"health")
        await tab_to(pilot, app, "f-check--http--code")
        await pilot.press(*"700", "ctrl+s")
        await wait_for(
            pilot,
            lambda: "a path starting with /" in text_of(form.query_one("#e-check--http--uri")),
            what="the URI's rule",
        )
        assert "at most 599" in text_of(form.query_one("#e-check--http--code"))
        assert "Check › URI" in text_of(form.query_one("#form-status")) and writes(gsandbox) == []
        await tab_to(pilot, app, "f-check--http--uri")
        await pilot.press("home", "/")
        await tab_to(pilot, app, "f-check--http--code")
        await pilot.press("backspace", "backspace", "backspace", *"204", "ctrl+s")
        await wait_for(pilot, lambda: "probe" in stored, what="sent")
        assert stored["probe"] == {"delay": 5, "retries": 3, "http_config": {"uri": "/health", "code": 204}}


async def test_a_child_of_a_child_knows_its_grandparent_in_its_path_and_its_texts(gsandbox):
    app = make_app(gsandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        alpha, _ = await on_alpha(pilot, app, gsandbox)
        parts = await child_list(pilot, app, "Parts")
        await to_named_row(pilot, parts, "alpha-part-2")
        notes = await child_list(pilot, app, "Notes")
        assert [r.name for r in notes.table.resources()] == ["note 1", "note 2"]
        assert ("GET", f"/gadgets/v1/regions/fr-par/gadgets/{alpha.id}/parts/alpha-part-2/notes") in gsandbox.requests
        await act(pilot, app, "Where")
        shown = await screen_named(pilot, app, "ResultScreen")
        assert shown.text == "check alpha-part-2 #1: on part alpha-part-2 of gadget alpha"


async def test_a_record_editor_moves_with_j_k_g_and_g_and_deletes_the_row_under_the_cursor(gsandbox):
    """Walk: in a record editor (a server's volumes) `g` did nothing, and `d` took another row than
    the one the operator meant."""
    from pydantic import BaseModel

    from tui.products.kit.base import Column
    from tui.ui.screens.records import RecordListScreen

    class Label(BaseModel):
        key: str

    app = make_app(gsandbox, settings=demo_settings())
    async with app.run_test(size=(100, 30)) as pilot:
        await loaded(pilot, app)
        records = [{"key": k} for k in ("a", "b", "c", "d")]
        editor = RecordListScreen("Labels", Label, records, (Column("key", "Key", lambda r: r["key"]),), unique="key")
        app.push_screen(editor)
        await screen_named(pilot, app, "RecordListScreen")
        await pilot.press("G", "d")  # the last
        await pilot.press("g", "j", "d")  # the second
        await pilot.press("G", "k", "d")  # the one before the last left
        await wait_for(pilot, lambda: [r["key"] for r in editor.records] == ["c"], what="b, d and a gone")


def test_a_record_listed_twice_is_named_and_numbered_as_its_list_shows_it():
    """Walk 23 F19: a volume attached twice was refused by its UUID and a row number the editor did not show."""
    from pydantic import BaseModel

    from tui.products.kit.declared import Field, columns
    from tui.products.kit.flows import Refused
    from tui.ui.screens.records import RecordListScreen

    listed = [{"id": "8da01097", "name": "web-02-vol-0"}]
    editor = RecordListScreen(
        "Volumes", BaseModel, listed, columns(Field("name", "Name", width=16)), number_from=0, unique="id"
    )
    with pytest.raises(Refused, match=r"web-02-vol-0 is already listed \(#0\)"):
        editor._refuse_twice({"id": "8da01097", "name": "web-02-vol-0"}, None)
