"""The benchmark's memory line (`tests/bench.py --only memory`): the resident size with one large list
shown, and after visiting four more and coming back. Not a test module."""

from __future__ import annotations

import asyncio
import gc
import resource
from typing import Any

from bench_scenarios import Frames, bench_app, loaded_view, open_list, until

# Each lists `--scale N` rows in fr-par-1 (or fr-par, or globally); the last is a child list, opened and closed.
VISITED = ("flexible_ip.fips", "rdb.backups", "inference.models", "dns.zones>Records@scale.example.com")


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 1e6


async def settled() -> float:
    """The resident size once what was closed has ended (a closed screen's widgets end their message
    loops first) and the cyclic collector has run."""
    await asyncio.sleep(1.0)
    gc.collect()
    return rss_mb()


async def scenario_visits(url: str, expect: int) -> dict[str, Any]:
    frames = Frames()
    app = bench_app(url, frames)
    out: dict[str, Any] = {"counts": {}}
    async with app.run_test(size=(120, 40)):
        servers = await loaded_view(app)
        await until(lambda: servers.table.loaded_count == expect)
        out["one"] = await settled()
        for entry in VISITED:
            if app.screen is not app.main:
                app.pop_screen()
                await until(lambda: app.screen is app.main)
            view = await open_list(app, entry)
            out["counts"][entry] = view.table.loaded_count
        app.pop_screen()
        await until(lambda: app.screen is app.main)
        app.main.open_entry("instance.servers")
        listed = lambda: getattr(servers, "released", None) is None and not servers.model.listing  # noqa: E731
        await until(lambda: listed() and servers.table.loaded_count == expect)  # (kept, before `release`)
        out["back"] = await settled()
        out["peak"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out
