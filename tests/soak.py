"""Memory over a working day, measured: the same round of keys over every list and panel, cycle after
cycle, with the sandbox's faults on; after each cycle the resident size and the live objects, and the
types that grew (gc). Not a test (it takes minutes): run `uv run python tests/soak.py [cycles]`.

A fixed round shows what a random-key RSS curve hides: messages queued for good (keys waiting in a
widget that stopped reading), callbacks, screens kept — they grow by the same count every cycle."""

from __future__ import annotations

import asyncio
import gc
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from textual import events  # noqa: E402
from textual.widget import Widget  # noqa: E402

from helpers import demo_settings, make_app  # noqa: E402
from tui.api.client import RetryPolicy  # noqa: E402
from tui.products.manifest import entries  # noqa: E402
from tui.sandbox import Sandbox  # noqa: E402
from tui.sandbox.faults import FaultSpec  # noqa: E402
from tui.products.kit.refresh_plan import RefreshPolicy  # noqa: E402

RATES = {
    "5xx": 0.06,
    "429": 0.05,
    "slow": 0.05,
    "drop": 0.03,
    "badjson": 0.03,
    "html": 0.03,
    "redirect": 0.02,
    "hostile": 0.25,
    "applied": 0.3,
}
ROUND = ["j", "enter", "v", "escape", "question_mark", "escape", "c", "escape", "a", "escape", "r", "j", "k"]
CHARS = {"question_mark": "?", "enter": "\r", "escape": "\x1b"}


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) / 1024 for line in f if line.startswith("VmRSS"))


async def main(cycles: int) -> None:
    sandbox = Sandbox(faults=FaultSpec(rates=RATES, seed=3, slow_s=0.05))
    app = make_app(
        sandbox,
        settings=demo_settings(genai_url="http://sandbox/genai"),
        policy=RefreshPolicy(fast=0.5, slow=3.0, paused=0.5),
        retry=RetryPolicy(deadline=0.4, base=0.01, cap=0.05),
    )
    ids = [e.id for e in entries() if e.opens in ("list", "panel")]
    before: Counter[str] | None = None
    start = time.time()
    async with app.run_test(size=(100, 30)):
        while app.main is None:
            await asyncio.sleep(0.05)
        for cycle in range(cycles):
            for entry in ids:
                while len(app.screen_stack) > 1 and app.screen is not app.main:
                    app.pop_screen()
                    await asyncio.sleep(0.02)
                app.main.open_entry(entry)
                await asyncio.sleep(0.15)
                for key in ROUND:
                    app.post_message(events.Key(key, CHARS.get(key, key if len(key) == 1 else None)))
                    await asyncio.sleep(0.03)
                await asyncio.sleep(0.1)
            await asyncio.sleep(20.0 if cycle % 5 == 4 else 1.0)  # the operator pauses now and then (idle tidying)
            gc.collect()
            objects = gc.get_objects()
            counts = Counter(type(o).__qualname__ for o in objects)
            grown = sorted(((counts[k] - before.get(k, 0), k) for k in counts), reverse=True)[:6] if before else []
            # (the console freezes what survives a large listing, tui/ui/collector.py: gc.get_objects() leaves
            # the frozen out, so they are counted apart)
            widgets = sum(1 for o in objects if isinstance(o, Widget))  # (a frozen widget is not counted)
            print(
                f"cycle {cycle:2d} {time.time() - start:4.0f} s  rss {rss_mb():6.1f} MB  objects {len(objects):7d}"
                f" + {gc.get_freeze_count()} frozen  widgets {widgets}  "
                f"running {app.is_running}  bugs {len(app.bugs)}  grew {[(k, n) for n, k in grown if n > 0]}",
                flush=True,
            )
            before = counts
            del objects


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 10))
