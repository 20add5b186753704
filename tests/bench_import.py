"""The benchmark's zone-file import, run in a child process of `tests/bench.py`: the real app, headless,
against a sandbox holding the zone `scale.example.com` of 10,000 records. Not a test module.

The file is the zone as exported, edited: a quarter of its records left out (staged as deletes), a
quarter with another TTL (changes), a quarter of new names (adds), the rest as they are — 10,000
records. Each repeat imports it through `I` (the file dialog answered with its path) and measures:
  - `parse`: dnspython's own parse of the same text (`dns.zone.from_text`), in the same run;
  - `read`: the console's reading of the file (its `FileFormat.load`, dnspython's reader inside);
  - `staging`: everything else from the key to the frame showing every change staged — the form's
    checks, matching the file with the zone, staging and drawing;
  - `keys`: all along, a cursor key pressed at a random moment within a frame after the last one was
    shown, each timed from the key to the frame showing the cursor moved.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_scenarios import Frames, bench_app, open_list, until

ENTRY = "dns.zones>Records@scale.example.com"


def edited(text: str) -> str:
    """The export edited as the module says, cut to 10,000 records (its two NS records among them)."""
    head, out = [], []
    for n, line in enumerate(text.splitlines()):
        if not line.startswith("host-"):
            head.append(line)
            continue
        name, ttl, rest = line.split(" ", 2)
        if n % 4 == 1:
            out.append(f"{name} 600 {rest}")  # another TTL: a change
        elif n % 4 == 2:
            out += [line, f"new-{name} 300 {rest}"]  # and a new name: an add
        elif n % 4 == 3:
            out.append(line)
        # n % 4 == 0: left out, a delete
    return "\n".join(head + out[: 10_000 - sum(" IN " in line for line in head)]) + "\n"


async def scenario_zone_import(url: str, repeat: int) -> dict[str, Any]:
    import dns.name
    import dns.zone

    from tui.products.dns.zone_file import dump

    frames = Frames()
    app = bench_app(url, frames)
    out: dict[str, Any] = {"parse": [], "read": [], "staging": [], "keys": [], "records": 0}
    async with app.run_test(size=(120, 40)):
        view = await open_list(app, ENTRY)
        listed = view.table.loaded_count
        text = edited(dump(view.table.resources(), view.service.parent))
        path = Path(tempfile.mkdtemp()) / "scale.zone"
        path.write_text(text)
        out["records"] = text.count(" IN ")
        file = view.kind.rows.file
        load = file.load.get()
        spent: list[float] = []

        def timed_load(text: str, parent: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return load(text, parent)
            finally:
                spent.append(time.perf_counter() - t0)

        file.load._value = timed_load  # the bench's own process only

        async def answered(*args: Any, **kwargs: Any) -> str:
            return str(path)

        from tui.ui import flow_ui

        flow_ui.ViewFlowUI.dialog = lambda self, *a, **k: answered()  # the file dialog, answered
        moves: list[int] = []
        set_cursor = view.table._set_cursor

        def watched(index: int) -> None:
            set_cursor(index)
            moves.append(frames.count)

        view.table._set_cursor = watched  # type: ignore[method-assign]
        staged_at: list[float] = []
        stage_plan = view.staged.stage_plan

        async def timed_stage_plan(plan: Any) -> None:
            await stage_plan(plan)
            staged_at.append(time.perf_counter())

        view.staged.stage_plan = timed_stage_plan  # the moment the last change is staged
        phase = random.Random(11)
        origin = dns.name.from_text("scale.example.com.")
        for _ in range(repeat):
            t0 = time.perf_counter()
            dns.zone.from_text(text, origin=origin, relativize=False, check_origin=False)
            out["parse"].append(time.perf_counter() - t0)
            view.table.move_to(view.table.shown_keys[listed // 2])
            await frames.next()
            notes, spent[:], staged_at[:] = len(app.notes), [], []
            t0 = time.perf_counter()
            app.simulate_key("I")
            done = lambda: any(n.title == "Import" for n in app.notes[notes:])  # noqa: E731
            down = True
            while not done():  # keys all along
                await asyncio.sleep(phase.uniform(0, 1 / 60))
                before, moved = view.table.cursor_key, len(moves)
                k0 = time.perf_counter()
                app.simulate_key("down" if down else "up")
                down = not down
                await until(lambda: len(moves) > moved or view.table.cursor_key != before, timeout=60)
                out["keys"].append(await frames.after(moves[-1] if len(moves) > moved else frames.count) - k0)
            drawn = next((n for n, at in enumerate(frames.times) if at > staged_at[-1]), frames.count)
            total = await frames.after(drawn) - t0  # the first frame composed once all is staged
            assert any("Staged from" in n.message for n in app.notes[notes:]), app.notes[-1]
            out["read"].append(sum(spent))
            out["staging"].append(total - sum(spent))
            view.model.changes.clear()  # back to the zone as listed, for the next repeat
            view.reload()
            await until(lambda: not view.model.listing and view.table.loaded_count == listed, timeout=60)
    return out
