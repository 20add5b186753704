"""Columns of the operator's own in the console (issue 51, item 4): `C` on a list opens the picker; the
columns chosen with its keys are shown at once (the list read again for a field its rows did not keep),
kept in config.toml for the profile and shown again after a restart; `t` keeps them for every profile,
`r` takes the list's own back, Esc leaves the list as it was; names the console lacks are said at start."""

from __future__ import annotations

import pytest

from helpers import demo_settings, loaded, make_app, notified, row_named, screen_named, wait_for
from tui import cli
from tui.config import ConfigFile
from tui.products.kit.own_columns import Chosen

pytestmark = pytest.mark.anyio


async def to_line(pilot, picker, title):
    """The picker's cursor moved with j/k to the field titled `title`."""
    want = next(i for i, k in enumerate(picker.order) if picker.candidates[k].title == title)
    keys = ["j"] * (want - picker._at) if want > picker._at else ["k"] * (picker._at - want)
    await pilot.press(*keys)
    await wait_for(pilot, lambda: picker._at == want, what=f"the cursor on {title}")


def titles(view):
    return [c.title for c in view.table.columns]


async def test_columns_chosen_with_keys_are_shown_kept_and_there_after_a_restart(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        assert "Zone" not in titles(view) and "Tags" in titles(view)
        await pilot.press("C")
        picker = await screen_named(pilot, app, "ColumnsScreen")
        for title in ("Zone", "Private IP", "Tags"):  # two shown, one hidden
            await to_line(pilot, picker, title)
            await pilot.press("space")
        await to_line(pilot, picker, "Private IP")
        await pilot.press("plus", "plus")
        await pilot.press("enter")
        await wait_for(pilot, lambda: notified(app, "kept for profile demo"), what="the columns kept")
        assert titles(view) == ["Name", "State", "Type", "Public IP", "Created", "Zone", "Private IP"]
        assert next(c for c in view.table.columns if c.key == "private_ip").width == 17
        # the rows did not keep the private address: the list is read again, and shows it
        await wait_for(pilot, lambda: row_named(view, "web-01").raw.get("private_ip"), what="private IPs read")
        view.table.sort_by("private_ip")
        view.update_title()
        assert "by Private IP ↑" in str(view.table.border_title)  # titled as its column is
    saved = ConfigFile.load().profile_columns["demo"]["instance.servers"]
    assert saved[-2:] == (Chosen("zone"), Chosen("private_ip", 17))

    kept = cli._kept_ui({"read_only": False}, "demo")  # what --demo starts with
    again = make_app(sandbox, settings=demo_settings(columns=kept["columns"]))
    async with again.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, again)
        assert titles(view) == ["Name", "State", "Type", "Public IP", "Created", "Zone", "Private IP"]
        assert row_named(view, "web-01").raw.get("private_ip")


async def test_esc_leaves_the_list_r_takes_its_own_back_and_t_keeps_for_every_profile(sandbox):
    chosen = {"instance.servers": (Chosen("name"), Chosen("state"))}
    app = make_app(sandbox, settings=demo_settings(columns=chosen))
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        assert titles(view) == ["Name", "State"]
        await pilot.press("C")
        picker = await screen_named(pilot, app, "ColumnsScreen")
        await to_line(pilot, picker, "State")
        await pilot.press("space", "escape")
        await wait_for(pilot, lambda: app.screen.id == "main", what="the picker gone")
        assert titles(view) == ["Name", "State"]
        await pilot.press("C")
        picker = await screen_named(pilot, app, "ColumnsScreen")
        await pilot.press("r", "t", "enter")
        await wait_for(pilot, lambda: notified(app, "its own columns again — kept for every profile"), what="kept")
        assert titles(view) == ["Name", "State", "Type", "Public IP", "Created", "Tags"]
    assert "instance.servers" not in ConfigFile.load().columns


async def test_r_over_every_profiles_choice_keeps_the_lists_own_for_this_profile(sandbox, tmp_path):
    from tui.config import resolve, save_columns

    save_columns("instance.servers", (Chosen("name"), Chosen("private_ip")), None)  # for every profile
    app = make_app(sandbox, settings=demo_settings(**_columns_of(resolve({"profile": "demo"}))))
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        assert titles(view) == ["Name", "Private IP"]
        await pilot.press("C")
        picker = await screen_named(pilot, app, "ColumnsScreen")
        assert not picker.for_profile, "what is in force is every profile's: the picker says so"
        await pilot.press("t", "r", "enter")
        await wait_for(pilot, lambda: notified(app, "its own columns again — kept for profile demo"), what="kept")
    assert _columns_of(resolve({"profile": "demo"}))["columns"]["instance.servers"] == tuple(
        Chosen(k) for k in ("name", "state", "type", "ip", "created", "tags")
    )  # after a restart too: the list's own, over every profile's


def _columns_of(settings):
    return {"columns": settings.columns, "columns_all": settings.columns_all}


async def test_a_list_or_a_field_the_console_lacks_is_said_at_start(sandbox):
    chosen = {
        "instance.servers": (Chosen("name"), Chosen("bogus")),
        "no.such": (Chosen("name"),),
        "dns.records": (Chosen("name"),),  # a child list's (a zone's records): known
    }
    app = make_app(sandbox, settings=demo_settings(columns=chosen))
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        await wait_for(pilot, lambda: notified(app, "Columns that name what is not here"), what="said")
        assert notified(app, "no list 'no.such'") and notified(app, "instance.servers has no field bogus")
        assert not notified(app, "dns.records")
        assert titles(view) == ["Name"]
