"""The server life cycle from the keyboard, against the sandbox in process, on a manual clock."""

import pytest
from textual.widgets import Button, Select, Static

from helpers import loaded, make_app, pick, wait_for

pytestmark = pytest.mark.anyio
Z = "/instance/v1/zones/fr-par-1"


def mutations(sandbox):
    return [(m, p) for m, p in sandbox.requests if m != "GET"]


def row_state(view, name):
    server = next((s for s in view.table.resources() if s.name == name), None)
    return server.state if server else None


async def choose(pilot, text):
    """Open the focused Select, type to search, pick."""
    await pilot.press("enter", *text, "enter")


async def fill_create_form(pilot, app, name="web-03", ctype="PRO2-XS ", image="Debian"):
    await pilot.press("c")
    await wait_for(pilot, lambda: getattr(app.screen, "ready", False), what="form choices")
    await pilot.press(*name, "tab")
    await choose(pilot, ctype)
    await pilot.press("tab")
    await choose(pilot, image)


async def test_main_view_lists_the_zone_with_counts(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        assert view.table.loaded_count == 8
        assert view.table.border_title == "Servers · fr-par-1 · 8/8"
        assert app.focused.id == "table"
        footer_keys = {key for key, b in app.screen.active_bindings.items() if b.binding.show and b.enabled}
        assert {"c", "d", "a", "r", "slash", "z", "q"} <= footer_keys


async def test_create_power_on_reboot_power_off_delete(sandbox, clock):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        await fill_create_form(pilot, app)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: row_state(view, "web-03") == "starting", what="created and starting")
        assert view.table.border_title == "Servers · fr-par-1 · 9/9"
        assert view.table.cursor_key == next(s.id for s in view.table.resources() if s.name == "web-03")
        assert view.table.resources()[0].name == "web-03"  # the newest first, where the API lists it (walk: last)
        post = [p for m, p in mutations(sandbox)]
        assert post[0] == f"{Z}/servers" and post[1].endswith("/action")

        clock.advance(10)
        await pilot.press("r")
        await wait_for(pilot, lambda: row_state(view, "web-03") == "running", what="running")

        await pilot.press("a")  # actions menu: power off, reboot, stop in place, terminate
        await wait_for(pilot, lambda: app.screen.id == "actions-menu")
        await pilot.press("down", "enter")  # Reboot
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ConfirmScreen", what="reboot confirm")
        assert app.focused.id == "cancel"
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: row_state(view, "web-03") == "stopping", what="rebooting")
        clock.advance(2)
        await pilot.press("r")
        await wait_for(pilot, lambda: row_state(view, "web-03") == "starting")
        clock.advance(3)
        await pilot.press("r")
        await wait_for(pilot, lambda: row_state(view, "web-03") == "running")

        await pilot.press("d")  # running: refused before any dialog
        await pilot.pause()
        assert app.screen.id == "main"
        await wait_for(pilot, lambda: any("power it off first" in n.message for n in app.notes), what="notification")

        await pilot.press("a")
        await wait_for(pilot, lambda: app.screen.id == "actions-menu")
        await pilot.press("enter")  # Power off
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ConfirmScreen", what="power-off confirm")
        assert app.focused.id == "cancel"
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: row_state(view, "web-03") == "stopping")
        clock.advance(5)
        await pilot.press("r")
        await wait_for(pilot, lambda: row_state(view, "web-03") == "stopped")

        sid = view.table.cursor_key
        await pilot.press("d")  # its boot volume is block storage: keep it, or delete everything?
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "PickerScreen")
        await pilot.press("down", "enter")  # Delete with all its volumes
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ConfirmScreen")
        assert app.screen.require_text == "web-03", "its volumes are lost: the name is typed"
        await pilot.press("enter")  # nothing typed: not confirmed
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.id == "main")
        assert ("DELETE", f"{Z}/servers/{sid}") not in mutations(sandbox)

        await pilot.press("d")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "PickerScreen")
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ConfirmScreen")
        await pilot.press(*"web-03", "enter")
        await wait_for(pilot, lambda: row_state(view, "web-03") is None, what="row removed")
        assert ("DELETE", f"{Z}/servers/{sid}") in mutations(sandbox)
        assert sid not in sandbox.instance.servers["fr-par-1"]
        assert view.table.border_title == "Servers · fr-par-1 · 8/8"


async def test_terminate_asks_first_and_the_row_disappears(sandbox, clock):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        view.table.move_to(next(s.id for s in view.table.resources() if s.name == "bastion"))
        await pilot.press("a")
        await wait_for(pilot, lambda: app.screen.id == "actions-menu")
        await pick(pilot, app, lambda text: text.startswith("Terminate"))
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "PickerScreen")  # its block boot volume?
        keep = app.screen.choices[0]
        assert "power it off first" in keep[2], (
            "keeping a running server's block boot volume cannot work: greyed, with why"
        )
        await pick(pilot, app, lambda text: text.startswith("Terminate with all"))
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ConfirmScreen")
        await pilot.press(*"bastion", "enter")
        await wait_for(pilot, lambda: row_state(view, "bastion") == "stopping")
        clock.advance(5)
        await pilot.press("r")
        await wait_for(pilot, lambda: row_state(view, "bastion") is None)


async def test_invalid_input_is_refused_with_the_field_named_and_nothing_sent(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await fill_create_form(pilot, app, name="bad_name")
        await pilot.press("ctrl+s")
        await pilot.pause()
        form = app.screen
        assert form.__class__.__name__ == "FormScreen"
        assert "only letters, digits, dots, spaces and dashes" in str(form.query_one("#e-name", Static).render())
        assert "Fix 1 field: Name" in str(form.query_one("#form-status", Static).render())
        assert mutations(sandbox) == []


async def test_the_fix_line_follows_the_fields_and_esc_asks_before_dropping_input(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await fill_create_form(pilot, app, name="bad_name")
        form = app.screen
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "Fix 1 field: Name" in str(form.query_one("#form-status", Static).render())
        form.query_one("#f-name").value = "good-name"  # fixed: the line says so, without a new ctrl+s
        await pilot.pause()
        assert "Ready" in str(form.query_one("#form-status", Static).render())
        form.query_one("#f-name").value = "bad_name"  # broken again: "Ready" no longer stands
        await pilot.pause()
        assert "Fix 1 field: Name" in str(form.query_one("#form-status", Static).render())
        form.query_one("#f-name").value = "good-name"
        await pilot.pause()
        await pilot.press("escape")  # typed, not sent: asked first, Cancel (keep editing) focused
        confirm = app.screen
        assert confirm.__class__.__name__ == "ConfirmScreen" and app.focused.id == "cancel"
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is form and form.query_one("#f-name").value == "good-name"
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("tab", "enter")  # Drop
        await wait_for(pilot, lambda: app.screen.id == "main", what="form dropped")
        await pilot.press("c")  # an untouched form closes at once
        await wait_for(pilot, lambda: getattr(app.screen, "ready", False), what="form")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.id == "main", what="closed")
        assert mutations(sandbox) == []


async def test_a_refused_create_keeps_what_was_typed(sandbox):
    sandbox.inject(403, "/servers", method="POST")
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await fill_create_form(pilot, app, name="kept-name")
        await pilot.press("ctrl+s")
        form = app.screen
        await wait_for(pilot, lambda: "403" in str(form.query_one("#form-status", Static).render()), what="error shown")
        assert form.query_one("#f-name").value == "kept-name"
        assert form.query_one("#f-commercial_type", Select).value == "PRO2-XS"
        assert not form.query_one("#submit", Button).disabled


async def test_edit_renames_a_server(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        sid = view.table.cursor_key
        await pilot.press("e")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "FormScreen")
        await pilot.press("end", "ctrl+u", *"renamed-1", "ctrl+s")
        await wait_for(pilot, lambda: view.table.get(sid).name == "renamed-1", what="renamed")
        assert sandbox.instance.servers["fr-par-1"][sid]["name"] == "renamed-1"
        assert mutations(sandbox) == [("PATCH", f"{Z}/servers/{sid}")]


async def test_detail_shows_fields_and_raw_json(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        server = view.current()
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "DetailScreen")
        allowed = ", ".join(server.items("allowed_actions"))
        shown = lambda: app.export_screenshot().replace("&#160;", " ")  # noqa: E731
        await wait_for(
            pilot,
            lambda: server.id in shown() and "Allowed actions" in shown() and allowed in shown(),
            what="the fields",
        )
        assert allowed
        await pilot.press("v")
        assert app.screen.query_one("#detail-tabs").active == "tab-json"
        await wait_for(pilot, lambda: "commercial_type" in shown(), what="the JSON")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.id == "main")


async def test_sort_and_filter_keep_counts_honest(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        width = view.table.size.width
        await pilot.press("slash", *"web")
        await pilot.pause()
        assert view.table.size.width == width  # (walk: the filter line took two columns from the table)
        assert view.table.visible_count == 3
        assert view.table.border_title == "Servers · fr-par-1 · 8/8 · 3 matches"
        await pilot.press("escape")
        assert view.table.visible_count == 8
        await pilot.press("s")  # sort by name
        names = [view.table.get(k).name for k in view.table.shown_keys]
        assert names == sorted(names)
        await pilot.press("S")
        assert [view.table.get(k).name for k in view.table.shown_keys] == sorted(names, reverse=True)
        assert view.table.border_title.endswith("by Name ↓")
        shown = [c.key for c in view.table.columns]
        assert len(shown) < len(view.kind.columns), "one zone: its Zone column is not shown"
        sorted_by = []
        for _ in shown:
            await pilot.press("s")
            sorted_by.append(view.table.sort_state[0])
        assert sorted(sorted_by) == sorted(shown), "s goes through the columns shown, none hidden"


async def test_all_zones_keeps_partial_results_and_names_the_failed_zone(sandbox):
    sandbox.inject(503, "/zones/nl-ams-1/")
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        await pilot.press("z")
        await wait_for(pilot, lambda: app.screen.id == "zone-picker")
        await pilot.press("home", "enter")  # "all zones" is first
        await wait_for(
            pilot, lambda: view.scope == "all" and not view.model.listing and view.model.failed, what="all zones listed"
        )
        assert view.table.loaded_count == 13  # 17 seeded, minus nl-ams-1's 4
        assert "✖ nl-ams-1 503" in view.table.border_title
        assert "13/13+?" in view.table.border_title
        await wait_for(pilot, lambda: any("nl-ams-1" in n.title for n in app.notes), what="notification")


async def test_another_scope_keeps_the_cursor_and_the_marks_on_the_rows_it_lists_too(sandbox):
    """Walk: `z` put the cursor on the first row, though the row under it is listed in every zone too."""
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        await pilot.press("j", "j", "j", "space", "j")
        marked, under = set(view.table.marked), view.table.cursor_key
        assert len(marked) == 1 and under not in marked
        view.set_scope("all")
        await wait_for(pilot, lambda: not view.model.listing and view.table.loaded_count == 17, what="all zones")
        assert view.table.cursor_key == under and view.table.marked == marked
        view.set_scope("nl-ams-1")  # none of them there: unmarked, and said (walk: they went without a word)
        await wait_for(pilot, lambda: not view.model.listing and view.scope == "nl-ams-1", what="Amsterdam")
        await wait_for(pilot, lambda: any("1 marked not listed in nl-ams-1" in n.message for n in app.notes))
        assert not view.table.marked


async def test_read_only_offers_nothing_that_mutates(sandbox):
    from helpers import demo_settings

    app = make_app(sandbox, settings=demo_settings(read_only=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        for key in ("c", "d", "e"):
            await pilot.press(key)
            await pilot.pause()
            assert app.screen.id == "main"
        # pressed anyway, each says why nothing happens (not silence)
        said = [n.message for n in app.notes if n.title == "Read-only"]
        assert [m.split(" is off")[0] for m in said] == ["Create", "Delete", "Edit"]
        assert "restart without it" in said[0]
        footer_keys = {key for key, b in app.screen.active_bindings.items() if b.binding.show and b.enabled}
        assert not {"c", "d"} & footer_keys
        # what changes nothing stays: reaching the machine (greyed: this one has no public address) and
        # the server's child lists
        await pilot.press("a")
        await wait_for(pilot, lambda: app.screen.id == "actions-menu", what="actions")
        assert [c[0] for c in app.screen.choices] == ["SSH to it…", "Private NICs ›"]
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.id == "main", what="menu closed")
        assert mutations(sandbox) == []
        assert app.screen.query_one("#status").render().plain.startswith("READ-ONLY")
