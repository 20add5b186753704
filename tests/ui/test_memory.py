"""Memory over a working day: a console left open on a jump host, keys typed all day, must not grow
without bound. Measured by the screens and widgets still alive and by the resident size, not by time.

What grew (3 MB a minute in a 15-minute soak): Textual kept the drawing caches of up to 1,024 closed
widgets (textual#6665, worked around in tui/ui/textual_fixes.py); and a closed detail was kept by its
list (a screen that had held keys, by the app) — Textual queues callbacks on the screen in front, so
a closed screen kept every screen whose callbacks it held, and those theirs."""

from __future__ import annotations

import asyncio
import gc
import resource

import pytest
from textual import events
from textual.screen import Screen
from textual.widget import Widget

from helpers import loaded, make_app, open_view, wait_for

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
            await app.pop_screen()
    # Every closed screen's widgets have ended their message loops (one task each): what is left
    # alive after that is kept, not still closing.
    await wait_for(pilot, lambda: len(asyncio.all_tasks()) <= app.tasks_at_rest, what="closed screens' widgets ended")
    # ... and the last screen closed is freed once its queued callbacks ran: a screen kept for good fails here
    await wait_for(pilot, lambda: alive(app)[0] == 0, what="every closed screen freed")


async def test_screens_closed_all_day_are_freed_and_memory_stays_bounded(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(100, 30)) as pilot:
        await loaded(pilot, app)
        for entry in ("instance.volumes", "instance.servers"):
            await open_view(pilot, app, entry)
        app.tasks_at_rest = len(asyncio.all_tasks())
        await rounds(pilot, app, 1)  # warm: every screen's module, styles and caches made once
        closed, widgets = alive(app)
        rss = rss_mb()
        await rounds(pilot, app, 3)  # 30 keys: a widget kept per round is 3 more (10 MB in 80 keys before the fixes)
        now_closed, now_widgets = alive(app)
        assert now_closed <= 1 and now_widgets <= widgets + 2, "closed screens and their widgets are kept"
        assert rss_mb() - rss < 5, "the resident size grows with the keys typed"


async def test_lists_opened_while_the_console_starts_leave_it_listening(sandbox):
    """The soak, from its first keys: a list opened while the main screen was still being built made
    a second copy of the first view (the one composed with the screen was not attached yet). The
    switcher holding the views failed on it (DuplicateIds) and stopped reading its messages: every
    key passing through it (esc, q, ? from a list) waited there for good, and piled up."""
    from helpers import wait_for

    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.main is not None, what="the main screen")
        first = app.main.current_entry.id
        for entry in ("instance.volumes", first, "instance.volumes", first):  # at once, while it is built
            app.main.open_entry(entry)
        await loaded(pilot, app)
        in_front = lambda: app.main.view is not None and app.main.view.kind.id == first  # noqa: E731
        await wait_for(pilot, in_front, what="the last asked")
        assert app.bugs == [] and len(app.main.query(f"#{app.main.view.id}")) == 1
        await pilot.press("question_mark")  # bubbles from the list through the switcher to the app
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "HelpScreen", what="help, from the list")


async def test_views_out_of_sight_give_their_rows_back_and_list_again_when_shown(sandbox, monkeypatch):
    """Out of sight, the views shown last keep their rows up to a budget of rows (ROWS_KEPT: none here); the
    others give them back, and list again when shown, with their marks and their cursor where they were."""
    from tui.ui.screens import main

    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        servers = await loaded(pilot, app)
        kept = servers.table.shown_keys[3]
        servers.table.toggle_mark(kept)
        servers.table.move_to(servers.table.shown_keys[5])
        cursor = servers.table.cursor_key
        await open_view(pilot, app, "instance.volumes")
        assert servers.model.released is None  # within the budget (the demo's 8 servers)
        monkeypatch.setattr(main, "ROWS_KEPT", 0)
        for entry in ("instance.ips", "instance.security_groups"):
            await open_view(pilot, app, entry)
        held = {v.kind.id for v in app.main.query("ResourceView") if v.table.loaded_count}
        assert held == {"instance.security_groups"}, held
        assert (
            servers.model.released is not None and servers.model.totals
        )  # what a return needs stays: the count in the title
        await open_view(pilot, app, "instance.servers")
        await wait_for(
            pilot, lambda: servers.model.released is None and servers.table.loaded_count == 8, what="listed again"
        )
        assert servers.table.marked == {kept} and servers.table.cursor_key == cursor
