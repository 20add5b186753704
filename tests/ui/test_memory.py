"""Memory over a working day: a console left open on a jump host, keys typed all day, must not grow
without bound. Measured by the screens and widgets still alive and by the resident size, not by time.

What grew (3 MB a minute in a 15-minute soak): Textual kept the drawing caches of up to 1,024 closed
widgets (textual#6665, worked around in tui/ui/textual_fixes.py); and a closed detail was kept by its
list (a screen that had held keys, by the app) — Textual queues callbacks on the screen in front, so
a closed screen kept every screen whose callbacks it held, and those theirs."""

from __future__ import annotations

import gc
import resource

import pytest
from textual import events
from textual.screen import Screen
from textual.widget import Widget

from helpers import loaded, make_app, open_view

pytestmark = pytest.mark.anyio

# One round: a detail and its JSON, help, a form, the actions menu, each closed; typed in one read
# (as a fast operator over SSH does), so Textual still has callbacks queued when each screen closes.
ROUND = ["enter", "v", "escape", "question_mark", "escape", "c", "escape", "a", "escape", "j"]
CHARS = {"question_mark": "?", "enter": "\r", "escape": "\x1b"}


def alive(app) -> tuple[int, int]:
    """Screens closed but still in memory, and widgets in memory."""
    gc.collect()
    objects = gc.get_objects()
    closed = sum(1 for o in objects if isinstance(o, Screen) and o not in app.screen_stack)
    return closed, sum(1 for o in objects if isinstance(o, Widget))


def rss_mb() -> float:
    """The resident size now (Linux), else the peak (a test before this one may have set it higher)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * resource.getpagesize() / 1e6
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def rounds(pilot, app, count: int) -> None:
    for _ in range(count):
        for key in ROUND:
            app.post_message(events.Key(key, CHARS.get(key, key)))
        await pilot.pause()
        while app.screen is not app.main:  # a form that asks before dropping what it holds: drop it
            app.pop_screen()
            await pilot.pause()


async def test_screens_closed_all_day_are_freed_and_memory_stays_bounded(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(100, 30)) as pilot:
        await loaded(pilot, app)
        for entry in ("instance.volumes", "instance.servers"):
            await open_view(pilot, app, entry)
        await rounds(pilot, app, 3)  # warm: every screen's module, styles and caches made once
        closed, widgets = alive(app)
        rss = rss_mb()
        await rounds(pilot, app, 8)  # 80 keys: 10 MB more before the fixes, under 1 after
        now_closed, now_widgets = alive(app)
        assert now_closed <= 1 and now_widgets <= widgets + 2, "closed screens and their widgets are kept"
        assert rss_mb() - rss < 5, "the resident size grows with the keys typed"
