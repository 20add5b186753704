"""The benchmark's terminal lines (`tests/bench.py --only terminal`): the bytes the console would write to
the terminal — each composed frame rendered as Textual's driver renders it — while idle on a list of
10,000 servers, and for a cursor key that scrolls the table (and how much of that is colour codes).
Not a test module."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

from textual._compositor import CompositorUpdate

from bench_scenarios import Frames, bench_app, loaded_view, until

CODES = re.compile(rb"\x1b\[[0-9;:]*m")  # select graphic rendition: colours and styles


class Written:
    """Every frame's terminal bytes, as the driver would have written them (headless writes none)."""

    def __init__(self, app: Any) -> None:
        self.frames: list[bytes] = []
        self.times: list[float] = []
        display = type(app)._display

        def counted(this: Any, screen: Any, renderable: Any) -> None:
            display(this, screen, renderable)
            if isinstance(renderable, CompositorUpdate):
                self.frames.append(renderable.render_segments(this.console).encode())
                self.times.append(time.monotonic())

        type(app)._display = counted  # type: ignore[method-assign]  # the bench's own process only

    def since(self, n: int) -> bytes:
        return b"".join(self.frames[n:])

    def most_within(self, n: int, seconds: float) -> int:
        """The most bytes written in any `seconds` among the frames from the `n`th."""
        sizes = [(t, len(f)) for t, f in zip(self.times[n:], self.frames[n:])]
        return max((sum(b for u, b in sizes if t <= u < t + seconds) for t, _ in sizes), default=0)


async def scenario_terminal(url: str, expect: int, size: str, idle: float) -> dict[str, Any]:
    width, height = (int(v) for v in size.split("x"))
    frames = Frames()
    app = bench_app(url, frames, fast=2.0, slow=30.0, paused=1.0)
    written = Written(app)
    out: dict[str, Any] = {}
    async with app.run_test(size=(width, height)):
        view = await loaded_view(app)
        await until(lambda: view.table.loaded_count == expect)
        view.focus_table()
        await asyncio.sleep(1.0)  # what the load drew is drawn
        start = len(written.frames)
        await asyncio.sleep(idle)  # ages in minutes all move on once a minute: a window holds it, and a probe
        out["idle_bytes"] = len(written.since(start))
        out["idle_most_30s"] = written.most_within(start, 30.0)
        out["idle_frames"] = len(written.frames) - start
        table = view.table
        visible = table.scrollable_content_region.height - 1
        table.move_to(table.shown_keys[visible - 1])  # the last row on screen: the next key scrolls
        await frames.next()
        await asyncio.sleep(0.2)
        start = len(written.frames)
        before = table.cursor_key
        app.simulate_key("down")
        await until(lambda: table.cursor_key != before)
        await asyncio.sleep(0.2)
        scrolled = written.since(start)
        out["scroll_bytes"] = len(scrolled)
        out["scroll_codes"] = sum(len(m.group()) for m in CODES.finditer(scrolled))
    return out
