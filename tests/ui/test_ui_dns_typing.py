"""DNS from the keyboard when keys come fast (over SSH, pasted, typed ahead): the palette from a child
list, keys that arrive in one read, a burst through an open drop-down, keys typed before a dialog's field
has focus — each lands where it was meant."""

from __future__ import annotations


import pytest

from helpers import (
    demo_settings,
    form_ready,
    loaded,
    make_app,
    screen_named,
    set_select,
    tab_to,
    wait_for,
)

from dns_keys import palette, records_of

pytestmark = pytest.mark.anyio


async def test_the_palette_brings_its_view_to_the_front_from_a_child_list(sandbox):
    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await records_of(pilot, app)
        await palette(pilot, app, "Registry namespaces")
        await wait_for(
            pilot,
            lambda: (
                app.screen.id == "main" and app.main.view is not None and app.main.view.kind.id == "registry.namespaces"
            ),
            what="the namespaces in front",
        )


async def test_keys_that_arrive_in_one_read_land_in_order_in_the_field_they_follow(sandbox):
    """A burst (tmux send-keys, a fast typist over SSH): the app reads every key before the focused
    field handles the first. Tab still moves between fields, and backspaces still delete before the
    characters typed after them — in a one-line field and in a multi-line one."""
    from textual import events

    def burst(text: str) -> None:
        """Every key of `text` read at once, as the terminal driver posts them (tab and backspace too)."""
        for char in text:
            app.post_message(events.Key({"\t": "tab", "\x7f": "backspace"}.get(char, char), char))

    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await records_of(pilot, app)
        await pilot.press("c")
        form = await form_ready(pilot, app)
        burst("w1\t\t192.0.2.1")
        data = form.query_one("#f-data")
        await wait_for(pilot, lambda: data.value == "192.0.2.1", what="the address in Data")
        assert form.query_one("#f-name").value == "w1"
        await set_select(pilot, form, "dynamic", "weighted")
        await tab_to(pilot, app, "f-dynamic--weighted--weights")
        weights = app.focused
        await pilot.press(*"192.0.2.8=1")
        burst("\x7f" * 11 + "192.0.2.9=4")
        await wait_for(pilot, lambda: weights.text.endswith("4"), what="the burst typed")
        assert weights.text == "192.0.2.9=4"


async def test_a_burst_through_an_open_drop_down_picks_then_moves_on(sandbox):
    """Walk: `down down enter tab x` read at once in an open drop-down picked the type but lost `tab x`
    (the tab went from the closing list, before the pick gave the focus back to the drop-down)."""
    from textual import events

    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await records_of(pilot, app)
        await pilot.press("c")
        form = await form_ready(pilot, app)
        form.query_one("#f-type").focus()
        await pilot.press("enter")  # open
        await wait_for(pilot, lambda: app.focused.__class__.__name__ == "SelectOverlay", what="the list open")
        for key, char in (("down", None), ("down", None), ("enter", "\r"), ("tab", "\t"), ("x", "x")):
            app.post_message(events.Key(key, char))
        await wait_for(pilot, lambda: form.query_one("#f-data").value == "x", what="x in Data")
        assert form.query_one("#f-type").value == "CNAME"


async def test_keys_typed_before_a_dialog_focuses_its_field_wait_for_it(sandbox):
    """A dialog is pushed at once but focuses its field once mounted: what is typed in between
    (`d`, then the name, fast) lands in the field, in order, not on the screen behind."""
    from textual import events

    from tui.ui.screens.confirm import ConfirmScreen

    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        app.push_screen(ConfirmScreen("Delete web?", "It goes.", require_text="web-01"))
        for char in "web-01":  # read before the dialog has mounted, let alone focused anything
            app.post_message(events.Key(char if char != "-" else "minus", char))
        await screen_named(pilot, app, "ConfirmScreen")
        await wait_for(
            pilot, lambda: app.focused is not None and app.focused.id == "confirm-text", what="its field focused"
        )
        await wait_for(pilot, lambda: app.focused.value == "web-01", what="the name typed ahead, whole, in order")
