"""Getting about DNS from the keyboard in UI tests: a zone's records list opened, the cursor on a record of
a type, a record staged from its form, the palette's first result entered."""

from __future__ import annotations

from helpers import child_list, cursor_on, form_ready, open_view, row_where, set_select, tab_to, to_named_row, wait_for


def zone(sandbox, name):
    return sandbox.dns.zones[name]


def records(sandbox, name):
    return list(zone(sandbox, name)["_records"].values())


async def records_of(pilot, app, zone="example.com"):
    """The zones list, then `zone`'s Records, loaded: the list most of these tests work in."""
    zones = await open_view(pilot, app, "dns.zones")
    await to_named_row(pilot, zones, zone)
    return await child_list(pilot, app, "Records")


async def on_record(pilot, app, rtype):
    """`example.com`'s Records, the cursor on its first record of type `rtype`."""
    view = await records_of(pilot, app)
    await cursor_on(pilot, view, row_where(view, type=rtype))
    return view


async def stage(pilot, app, key, **values):
    """`c` or `e` on the records list, the form filled, staged with ctrl+s."""
    await pilot.press(key)
    form = await form_ready(pilot, app)
    for field, text in values.items():
        if field == "type":
            await set_select(pilot, form, "type", text)
            continue
        await tab_to(pilot, app, f"f-{field}")
        await pilot.press("ctrl+u", *text)
    await pilot.press("ctrl+s")
    return form


async def palette(pilot, app, words):
    """`:`, the words typed, the first result entered."""
    await pilot.press(":")
    await wait_for(pilot, lambda: app.screen.__class__.__name__ == "CloudPalette", what="the palette")
    await pilot.press(*words)
    await wait_for(pilot, lambda: any(c.option_count for c in app.screen.query("CommandList")), what="palette results")
    await pilot.press("enter")
