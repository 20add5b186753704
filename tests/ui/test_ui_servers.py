"""The server life cycle from the keyboard, against the sandbox in process, on a manual clock."""

import pytest
from textual.widgets import Button, Select, Static

from helpers import loaded, make_app, open_view, pick, screen_named, wait_for

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
        assert app.focused.id == "cancel"  # Cancel has the focus
        await pilot.press("enter")  # … so enter cancels
        await wait_for(pilot, lambda: app.screen.id == "main")
        assert ("DELETE", f"{Z}/servers/{sid}") not in mutations(sandbox)

        await pilot.press("d")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "PickerScreen")
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ConfirmScreen")
        await pilot.press("tab", "enter")  # to Delete, then confirm
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
        assert "power it off first" in keep[2], "keeping a running server's block boot volume cannot work: greyed, with why"
        await pick(pilot, app, lambda text: text.startswith("Terminate with all"))
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ConfirmScreen")
        assert app.focused.id == "cancel"
        await pilot.press("tab", "enter")
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
        await wait_for(pilot, lambda: server.id in shown() and "Allowed actions" in shown() and allowed in shown(),
                       what="the fields")
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
        await pilot.press("slash", *"web")
        await pilot.pause()
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


async def test_all_zones_keeps_partial_results_and_names_the_failed_zone(sandbox):
    sandbox.inject(503, "/zones/nl-ams-1/")
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        await pilot.press("z")
        await wait_for(pilot, lambda: app.screen.id == "zone-picker")
        await pilot.press("home", "enter")  # "all zones" is first
        await wait_for(pilot, lambda: view.scope == "all" and not view.listing and view.failed, what="all zones listed")
        assert view.table.loaded_count == 13  # 17 seeded, minus nl-ams-1's 4
        assert "✖ nl-ams-1 503" in view.table.border_title
        assert "13/13+?" in view.table.border_title
        await wait_for(pilot, lambda: any("nl-ams-1" in n.title for n in app.notes), what="notification")


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
        # what changes nothing stays: the actions menu holds only the server's child lists
        await pilot.press("a")
        await wait_for(pilot, lambda: app.screen.id == "actions-menu", what="actions")
        assert [c[0] for c in app.screen.choices] == ["Private NICs ›"]
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.id == "main", what="menu closed")
        assert mutations(sandbox) == []
        assert app.screen.query_one("#status").render().plain.startswith("READ-ONLY")


async def test_the_table_has_the_focus_as_the_console_shows_never_the_sidebar_first(sandbox, monkeypatch):
    """A key typed as the rows appear goes to the table, not to the sidebar for a frame or two."""
    from tui.ui.widgets.sidebar import Sidebar

    focused: list[str] = []
    monkeypatch.setattr(Sidebar, "on_focus", lambda self: focused.append("sidebar"))
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await wait_for(pilot, lambda: type(app.focused).__name__ == "ResourceTable", what="the table focused")
        assert focused == []
        await pilot.press("shift+tab")  # the sidebar still takes it when asked
        await wait_for(pilot, lambda: focused == ["sidebar"], what="the sidebar focused")


async def test_help_and_palette_open_from_the_keyboard(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "HelpScreen")
        await pilot.press("escape")
        await pilot.press("ctrl+p")  # Textual's own key for it opens it too
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "CloudPalette", what="palette by ctrl+p")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.id == "main", what="palette closed")
        await pilot.press("colon")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "CloudPalette")
        await pilot.press(*"zone nl-ams-1")
        await wait_for(pilot, lambda: any(c.option_count for c in app.screen.query("CommandList")), what="palette results")
        await pilot.press("enter")
        await wait_for(pilot, lambda: view.scope == "nl-ams-1" and not view.listing and view.table.loaded_count == 4, what="zone switched")


async def test_the_palette_lists_the_console_first_and_textuals_own_commands_after(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await pilot.press("colon")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "CloudPalette", what="the palette")
        commands = app.screen.query_one("CommandList")
        await wait_for(pilot, lambda: any("Theme" in str(commands.get_option_at_index(i).prompt) for i in range(commands.option_count)),
                       what="every command listed")
        listed = [str(commands.get_option_at_index(i).prompt) for i in range(commands.option_count)]
        assert listed[0].startswith("Instance › Instance servers")
        theme = next(i for i, p in enumerate(listed) if "Theme" in p)
        assert all("›" not in p for p in listed[theme:])  # nothing of the console's after Textual's own


async def test_the_sidebar_folds_a_product_away_and_back(sandbox):
    from tui.ui.widgets.sidebar import Sidebar

    app = make_app(sandbox)
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot, app)
        sidebar = app.main.query_one(Sidebar)
        sidebar.focus()
        await pilot.press("h")  # fold Instance
        await pilot.pause()  # Textual's own wait for idle: the fold is drawn after the key
        text = sidebar.render().plain
        assert "+ Instance (8)" in text and "Volumes" not in text and "Bare metal" in text
        await pilot.press("j", "enter")  # the next stop is bare-metal servers
        await pilot.pause()  # Textual's own wait for idle: the fold is drawn after the key
        await wait_for(pilot, lambda: app.main.current_entry.id == "baremetal.servers", what="bare metal opened")
        sidebar.focus()
        await pilot.press("k", "enter")  # back on the folded heading: unfold
        await pilot.pause()  # Textual's own wait for idle: the fold is drawn after the key
        assert "Volumes" in sidebar.render().plain
        assert sidebar.entries[sidebar.highlighted][0] == "instance.servers"
        # ← on a folded product folds its section; → unfolds it onto its first view
        await pilot.press("h", "h")
        await pilot.pause()  # Textual's own wait for idle: the fold is drawn after the key
        text = sidebar.render().plain
        lines = [line.strip() for line in text.splitlines()]
        assert "+ COMPUTE (" in text and "Bare metal" not in lines and "Instance" not in lines  # the Data section stays
        await pilot.press("l")
        await pilot.pause()  # Textual's own wait for idle: the fold is drawn after the key
        assert "Bare metal" in sidebar.render().plain and sidebar.entries[sidebar.highlighted][0] == "instance.servers"


async def test_the_sidebar_scrolls_to_keep_the_cursor_in_view_at_80x24(sandbox):
    from tui.ui.widgets.sidebar import Sidebar

    app = make_app(sandbox)
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot, app)
        sidebar = app.main.query_one(Sidebar)
        sidebar.focus()
        assert len(sidebar.visible()) > sidebar.content_size.height  # more lines than fit
        last = max(i for i, (kid, _) in enumerate(sidebar.entries) if kid)
        for _ in range(len(sidebar.entries)):
            await pilot.press("j")
        assert sidebar.highlighted == last
        drawn = sidebar.render().plain
        assert f"▸ {sidebar.entries[last][1]}" in drawn and len(drawn.splitlines()) <= sidebar.content_size.height
        assert str(sidebar.border_subtitle).strip() == "▲", (sidebar.border_subtitle, sidebar.top, len(sidebar.visible()), sidebar.content_size)  # what is above is said
        await pilot.press("enter")
        from tui.products.manifest import by_id

        opens = by_id(sidebar.entries[last][0]).opens  # a list or page is shown on the main screen; a chat is its own
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ChatScreen" if opens == "chat" else app.main.current_entry.id == sidebar.entries[last][0],
                       what="the last view opened")


async def test_a_wide_list_says_it_is_cut_keeps_its_names_when_scrolled_and_takes_the_whole_width(sandbox):
    from helpers import drawn_lines

    app = make_app(sandbox)
    async with app.run_test(size=(80, 24)) as pilot:
        view = await loaded(pilot, app)
        table = view.table
        header, first = drawn_lines(table)[:2]
        assert header.rstrip().endswith("→")  # more columns beyond the edge
        width = table.scrollable_content_region.width
        await pilot.press("b")  # the sidebar gives its width to the list
        await wait_for(pilot, lambda: table.scrollable_content_region.width > width, what="the list widened")
        assert not app.main.query_one("#sidebar").display and app.focused is table
        name = first.split()[0]
        await pilot.press("right")
        assert table.scroll_x == 8  # a column's worth a key, not one cell (40 keys to the last column at 80)
        for _ in range(3):
            await pilot.press("right")
        header, first = drawn_lines(table)[:2]
        assert header.split()[0] == "Name" and first.split()[0] == name  # the names stay in place
        assert header.split()[1].startswith("←")  # and columns lie to the left too
        assert table.scroll_x > 0 and "Name" not in header[len(name) + 2:]
        await pilot.press("b")
        await wait_for(pilot, lambda: app.main.query_one("#sidebar").display, what="the sidebar back")


async def test_listing_every_zone_shows_the_zone_after_the_name(sandbox):
    """At the end of a wide row the zone was off screen, in the one listing where rows differ by it."""
    from helpers import drawn_lines
    from tui.products.location import ALL

    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        assert drawn_lines(view.table)[0].split()[:2] == ["Name", "State"]
        view.set_scope(ALL)
        await wait_for(pilot, lambda: not view.listing and view.table.loaded_count > 8, what="every zone listed")
        assert drawn_lines(view.table)[0].split()[:3] == ["Name", "Zone", "State"]


@pytest.mark.parametrize("entry", ["silicon.types", "baremetal.offers"])
async def test_a_catalogue_listed_in_every_zone_keeps_each_zones_rows_and_says_their_zone(sandbox, entry):
    """Walk: silicon types in all zones showed 3 of 6 (the same names in two zones took one row),
    and offers listed in every zone showed no zone at all (twelve rows, four names)."""
    from helpers import drawn_lines
    from tui.products.location import ALL

    app = make_app(sandbox)
    async with app.run_test(size=(160, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, entry)
        one = view.table.loaded_count
        view.set_scope(ALL)
        await wait_for(pilot, lambda: not view.listing and view.table.loaded_count > one, what="every zone listed")
        rows = view.table.resources()
        zones_of = {}
        for r in rows:
            zones_of.setdefault(r.name, set()).add(r.text("zone"))
        assert len(rows) == sum(len(z) for z in zones_of.values()) and max(len(z) for z in zones_of.values()) > 1
        assert drawn_lines(view.table)[0].split()[1] == "Zone"
        await pilot.press("enter")  # its detail still reads the one it is (its own name in the path)
        detail = await screen_named(pilot, app, "DetailScreen")
        await wait_for(pilot, lambda: detail.resource is not None, what="the detail loaded")
