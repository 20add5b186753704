"""Textual defects worked around in tui/ui/textual_fixes.py, each seen failing without its fix."""

from __future__ import annotations

import asyncio

import pytest
from textual.app import App
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Select

from tui.ui import textual_fixes

pytestmark = pytest.mark.anyio


async def test_a_screen_closed_while_its_selects_mount_fails_nothing():
    """Soak: a form closed by code while it was still being built reported a bug (NoMatches on the
    Select's drop-down, asked for by its mount after the screen's widgets were pruned)."""
    textual_fixes.apply()

    class Form(Screen):
        def compose(self):
            with Vertical():
                for _ in range(4):
                    yield Select([("a", 1), ("b", 2)], compact=True)

    app = App()
    async with app.run_test() as pilot:
        for ticks in range(16):  # closed at each point of its building
            app.push_screen(Form())
            for _ in range(ticks % 8):
                await asyncio.sleep(0)
            app.pop_screen()
            await pilot.pause()
        assert app._exception is None
