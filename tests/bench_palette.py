"""The benchmark's palette search: keys typed in the palette with a list's rows indexed, each key to the
frame that shows what was found (run inside `bench_scenarios.scenario_load`). Not a test module."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from bench_scenarios import Frames, until


async def palettes(app: Any, frames: Frames, view: Any, expect: int, keys: int, out: dict[str, Any]) -> None:
    """The palette's search with every row indexed, then the same search over 1,000 of them."""
    from tui.products.kit.search_index import SearchIndex, part_of

    out["palette"] = await palette_keys(app, frames, expect, keys)
    palette = app.screen
    await app.pop_screen()
    await until(lambda: app.screen is not palette and not app.screen.query("#--command-palette"))
    full, app.finder.index = app.finder.index, SearchIndex()
    app.finder.index.put(part_of(view.kind, view.scope, list(view.table.resources())[:1000]))
    out["palette_small"] = await palette_keys(app, frames, 1000, keys)
    app.finder.index = full


async def palette_keys(app: Any, frames: Frames, indexed: int, keys: int) -> list[float]:
    """With `indexed` rows in the finder's index: the palette opened, a server's name typed key by key;
    each key → the frame that shows the resources found for what is typed so far (seconds)."""
    from textual.command import CommandInput

    await until(lambda: len(app.finder.index) >= indexed)
    app.action_command_palette()
    await until(lambda: bool(app.screen.query(CommandInput)))
    palette = app.screen
    await frames.next()
    import random

    phase, out, typed = random.Random(11), [], ""
    for i in range(keys):
        if i % 6 == 0 and typed:  # start again, so that every key narrows a search of 50,000
            for _ in typed:
                app.simulate_key("backspace")
            typed = ""
            await until(lambda: palette._answered in ("", None) or not palette.query_one(CommandInput).value)
            await frames.settle()
        key = "web-0001"[len(typed)] if len(typed) < 8 else "2"
        await asyncio.sleep(phase.uniform(0, 1 / 60))
        t0 = time.perf_counter()
        app.simulate_key(key)
        typed += key
        await until(lambda: palette._answered == typed)
        out.append(await frames.after(frames.count) - t0)
    return out
