"""Textual defects worked around in tui/ui/textual_fixes.py, each seen failing without its fix; and each
still in Textual's own code (these fail once a Textual release fixes one: drop its fix then)."""

from __future__ import annotations

import asyncio

import pytest
from textual.app import App
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Label, OptionList, Select

from tui.ui import textual_fixes

pytestmark = pytest.mark.anyio


class SelectsForm(Screen):
    def compose(self):
        with Vertical():
            for _ in range(4):
                yield Select([("a", 1), ("b", 2)], compact=True)


async def closed_while_built(app: App, pilot) -> None:
    """A form of Selects opened and closed by code at each point of its building, until one fails."""
    for ticks in range(16):
        app.push_screen(SelectsForm())
        for _ in range(ticks % 8):
            await asyncio.sleep(0)
        app.pop_screen()
        await pilot.pause()
        if app._exception is not None:
            return


async def test_a_screen_closed_while_its_selects_mount_fails_nothing():
    """Soak: a form closed by code while it was still being built reported a bug (NoMatches on the
    Select's drop-down, asked for by its mount after the screen's widgets were pruned)."""
    textual_fixes.apply()
    app = App()
    async with app.run_test() as pilot:
        await closed_while_built(app, pilot)
        assert app._exception is None


async def test_a_menu_closed_while_it_is_built_can_open_again():
    """Soak: the actions menu closed by code as it opened failed its mount (its list asked for,
    already pruned); the failure left it registered, and every later `a` failed (DuplicateIds)."""
    textual_fixes.apply()

    class Menu(ModalScreen):
        def compose(self):
            with Vertical():
                yield Label("actions")
                yield OptionList("one", "two")

        def on_mount(self):
            self.query_one(OptionList).focus()

    app = App()
    async with app.run_test() as pilot:
        for ticks in range(16):
            app.push_screen(Menu(id="menu"))
            for _ in range(ticks % 8):
                await asyncio.sleep(0)
            await app.pop_screen()  # (done when the menu is gone, whatever stage it was at)
        app.push_screen(Menu(id="menu"))
        await pilot.pause()
        assert app._exception is None and isinstance(app.screen, Menu) and app.focused is not None


def test_a_strip_makes_its_caches_on_first_use_and_keeps_what_they_hold():
    from rich.segment import Segment
    from textual.strip import Strip

    textual_fixes.apply()
    strip = Strip([Segment("hello world")], 11)
    assert all(_unset(strip, name) for name in textual_fixes.STRIP_CACHES)  # none made with it
    assert strip.crop(2, 7) is strip.crop(2, 7) and strip.crop(2, 7).text == "llo w"  # cached once made
    assert strip.divide([4, 11])[1].text == "o world" and not _unset(strip, "_divide_cache")


def _unset(strip, name) -> bool:
    """Whether a cache slot of `strip` holds nothing yet (read under the property, not through it)."""
    from textual.strip import Strip

    slot = next(c.__dict__[name] for c in Strip.__mro__ if name in c.__dict__)
    try:
        (slot.fget.__defaults__[0] if isinstance(slot, property) else slot).__get__(strip, Strip)
    except AttributeError:
        return True
    return False


def test_part_of_a_line_is_written_from_where_its_change_begins():
    """An age moving on in a list's Created column was written from the table's left edge to it."""
    from rich.console import Console
    from rich.segment import Segment
    from textual._compositor import ChopsUpdate
    from textual.strip import Strip

    textual_fixes.apply()
    console = Console(color_system=None, width=40)
    line = Strip([Segment("│"), Segment(" web-01   running   4 min ")])
    update = ChopsUpdate([{10: line}], [(0, 31, 37)], [[10 + line.cell_length]])
    assert update.render_segments(console) == "\x1b[1;32H4 min "  # (move_to is 1-based): the age alone
    wide = Strip([Segment("ab中de")])  # 中 takes cells 2 and 3: a start at 3 writes it whole
    update = ChopsUpdate([{0: wide}], [(0, 3, 5)], [[6]])
    assert update.render_segments(console) == "\x1b[1;3H中d"


def test_a_whole_frame_is_sent_with_the_fewest_style_codes():
    from rich.console import Console
    from rich.segment import Segment
    from rich.style import Style
    from textual._compositor import LayoutUpdate
    from textual.geometry import Region
    from textual.strip import Strip

    textual_fixes.apply()
    textual_fixes.apply()  # (once is enough: applied twice, the frame is not worked on twice)
    white, green = Style(color="bright_white", bgcolor="black"), Style(color="bright_green", bgcolor="black")
    update = LayoutUpdate([[Strip([Segment("web-01 ", white), Segment("running", green)])]], Region(0, 0, 14, 1))
    assert (
        update.render_segments(Console(color_system="standard")) == "\x1b[1;1H\x1b[97;40mweb-01 \x1b[92mrunning\x1b[0m"
    )


# ---- Textual still has each defect: a test fails once a Textual release fixes one (then drop its fix) ----
def test_textual_still_caches_inner_outer_on_each_styles_cache():
    """Textualize/textual#6665: an lru_cache on the method, keyed on the StylesCache (memory kept)."""
    import inspect

    textual_fixes.apply()
    original = textual_fixes.ORIGINAL["StylesCache.get_inner_outer"]
    assert hasattr(original, "cache_info") and len(inspect.signature(original).parameters) == 3  # (its object too)


def test_textual_still_builds_a_strips_caches_as_it_is_made():
    import inspect

    textual_fixes.apply()
    assert "FIFOCache(" in inspect.getsource(textual_fixes.ORIGINAL["Strip.__init__"])


def test_textual_still_writes_part_of_a_line_from_the_widgets_edge():
    import inspect

    textual_fixes.apply()
    assert "strip.crop(0," in inspect.getsource(textual_fixes.ORIGINAL["ChopsUpdate.render_segments"])


async def test_textual_still_mounts_a_node_of_a_screen_closed_while_it_is_built(monkeypatch):
    """The first test above, with Textual's own message dispatch: the failure comes back."""
    from textual.message_pump import MessagePump

    textual_fixes.apply()
    monkeypatch.setattr(MessagePump, "_dispatch_message", textual_fixes.ORIGINAL["MessagePump._dispatch_message"])

    app = App()
    failed = False
    try:
        async with app.run_test() as pilot:
            await closed_while_built(app, pilot)
    except Exception:
        failed = True
    assert failed or app._exception is not None, "Textual mounts no node of a closed screen now: drop the fix"
