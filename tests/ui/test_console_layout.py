"""The console around a list, from the keyboard: where the focus starts, help and the palette, the
sidebar folding and scrolling, a wide list cut and scrolled sideways, lists of every zone."""

import pytest

from helpers import loaded, make_app, open_view, screen_named, wait_for

pytestmark = pytest.mark.anyio


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
        await wait_for(
            pilot, lambda: any(c.option_count for c in app.screen.query("CommandList")), what="palette results"
        )
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: view.scope == "nl-ams-1" and not view.model.listing and view.table.loaded_count == 4,
            what="zone switched",
        )


async def test_the_palette_lists_the_console_first_and_textuals_own_commands_after(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await pilot.press("colon")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "CloudPalette", what="the palette")
        commands = app.screen.query_one("CommandList")

        def prompts() -> list[str]:
            return [str(commands.get_option_at_index(i).prompt) for i in range(commands.option_count)]

        await wait_for(pilot, lambda: any("Theme" in p for p in prompts()), what="every command listed")
        listed = prompts()
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

        async def drawn_after(*keys: str) -> str:
            await pilot.press(*keys)
            await pilot.pause()  # Textual's own wait for idle: the fold is drawn after the key
            return sidebar.render().plain

        text = await drawn_after("h")  # fold Instance
        assert "+ Instance (8)" in text and "Volumes" not in text and "Bare metal" in text
        await drawn_after("j", "enter")  # the next stop is bare-metal servers
        await wait_for(pilot, lambda: app.main.current_entry.id == "baremetal.servers", what="bare metal opened")
        sidebar.focus()
        assert "Volumes" in await drawn_after("k", "enter")  # back on the folded heading: unfold
        assert sidebar.entries[sidebar.highlighted][0] == "instance.servers"
        # ← on a folded product folds its section; → unfolds it onto its first view
        text = await drawn_after("h", "h")
        lines = [line.strip() for line in text.splitlines()]
        assert "+ COMPUTE (" in text and "Bare metal" not in lines and "Instance" not in lines  # the Data section stays
        assert "Bare metal" in await drawn_after("l")
        assert sidebar.entries[sidebar.highlighted][0] == "instance.servers"


async def test_the_sidebar_scrolls_to_keep_the_cursor_in_view_at_80x24(sandbox):
    from tui.ui.widgets.sidebar import Sidebar

    app = make_app(sandbox)
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot, app)
        sidebar = app.main.query_one(Sidebar)
        sidebar.focus()
        assert len(sidebar.unfolded()) > sidebar.content_size.height  # more lines than fit
        last = max(i for i, (kid, _) in enumerate(sidebar.entries) if kid)
        first = min(i for i, (kid, _) in enumerate(sidebar.entries) if kid)
        for _ in range(len(sidebar.entries)):
            await pilot.press("j")
        assert sidebar.highlighted == last
        await pilot.press("g")  # the top and the bottom, as in every list
        assert sidebar.highlighted == first
        await pilot.press("G")
        assert sidebar.highlighted == last
        drawn = sidebar.render().plain
        assert f"▸ {sidebar.entries[last][1]}" in drawn and len(drawn.splitlines()) <= sidebar.content_size.height
        # what is above is said
        subtitle = str(sidebar.border_subtitle).strip()
        assert subtitle == "▲", (subtitle, sidebar.top, sidebar.content_size)
        await pilot.press("enter")
        from tui.products.manifest import by_id

        opens = by_id(sidebar.entries[last][0]).opens  # a list or page is shown on the main screen; a chat is its own
        wanted = sidebar.entries[last][0]
        await wait_for(
            pilot,
            lambda: (
                app.screen.__class__.__name__ == "ChatScreen"
                if opens == "chat"
                else app.main.current_entry.id == wanted
            ),
            what="the last view opened",
        )


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
        assert table.scroll_x > 0 and "Name" not in header[len(name) + 2 :]
        await pilot.press("b")
        await wait_for(pilot, lambda: app.main.query_one("#sidebar").display, what="the sidebar back")


async def test_listing_every_zone_shows_the_zone_after_the_name(sandbox):
    """At the end of a wide row the zone was off screen, in the one listing where rows differ by it."""
    from helpers import drawn_lines
    from tui.products.kit.location import ALL

    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        assert drawn_lines(view.table)[0].split()[:2] == ["Name", "State"]
        view.set_scope(ALL)
        await wait_for(pilot, lambda: not view.model.listing and view.table.loaded_count > 8, what="every zone listed")
        assert drawn_lines(view.table)[0].split()[:3] == ["Name", "Zone", "State"]


@pytest.mark.parametrize("entry", ["silicon.types", "baremetal.offers"])
async def test_a_catalogue_listed_in_every_zone_keeps_each_zones_rows_and_says_their_zone(sandbox, entry):
    """Walk: silicon types in all zones showed 3 of 6 (the same names in two zones took one row),
    and offers listed in every zone showed no zone at all (twelve rows, four names)."""
    from helpers import drawn_lines
    from tui.products.kit.location import ALL

    app = make_app(sandbox)
    async with app.run_test(size=(160, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, entry)
        one = view.table.loaded_count
        view.set_scope(ALL)
        await wait_for(
            pilot, lambda: not view.model.listing and view.table.loaded_count > one, what="every zone listed"
        )
        rows = view.table.resources()
        zones_of = {}
        for r in rows:
            zones_of.setdefault(r.name, set()).add(r.text("zone"))
        assert len(rows) == sum(len(z) for z in zones_of.values()) and max(len(z) for z in zones_of.values()) > 1
        assert drawn_lines(view.table)[0].split()[1] == "Zone"
        await pilot.press("enter")  # its detail still reads the one it is (its own name in the path)
        detail = await screen_named(pilot, app, "DetailScreen")
        await wait_for(pilot, lambda: detail.resource is not None, what="the detail loaded")
