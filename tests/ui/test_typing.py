"""Keys that arrive in one read (fast typing, SSH or tmux coalescing them) are applied in the order
typed: a backspace followed by a letter deletes the letter before, never the one after."""

from __future__ import annotations

import pytest
from textual import events

from helpers import loaded, make_app, screen_named

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("keys, typed", [(["backspace", "y"], "aby"), (["x", "backspace", "y"], "abcy"), (["backspace", "backspace"], "a")])
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
