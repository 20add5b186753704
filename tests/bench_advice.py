"""The benchmark's advisor lines (issue 52, items 3 and 5), run in its own child process:

- `advice-pass N`: the evaluator's pass (every rule of every product, and the overview's count) over N
  servers in every zone and a DNS zone of N records pointing at them (one in ten at an address nothing
  holds), made in memory as the index holds them: seconds, on one core, off any UI thread;
- `advice-reads SCALE`: the requests one pass reads, `F` through the console against a sandbox seeded
  with the demo and SCALE more of each product's most numerous kind: every list, every zone, the child
  lists under each parent that the rules read.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any


def advice_pass(n: int) -> dict[str, Any]:
    from tui.products import manifest
    from tui.products.dns.children import RECORDS
    from tui.products.instance.servers import SERVERS
    from tui.products.kit.advice import advise
    from tui.products.kit.location import ALL, ZONES, ParentRef
    from tui.products.kit.overview import tally
    from tui.products.kit.related import Held

    def address(i: int) -> str:
        return f"51.{15 + i // 65025 % 200}.{i // 255 % 255}.{1 + i % 254}"

    servers = [
        SERVERS.make_row(
            {
                "id": f"00000000-0000-0000-0000-{i:012d}",
                "name": f"server-{i}",
                "state": ("running", "stopped", "stopped in place")[i % 3],
                "zone": ZONES[i % len(ZONES)],
                "commercial_type": "DEV1-S",
                "public_ips": [{"address": address(i)}],
                "tags": ["web"],
            }
        )
        for i in range(n)
    ]
    zone = ParentRef("bench.example.com", "bench.example.com", "global")
    records = [
        RECORDS.make_row(
            {"id": f"r{i}", "name": f"host-{i}", "type": "A", "data": address(i if i % 10 else n + i), "ttl": 300}
        )
        for i in range(n)
    ]
    held = [Held(SERVERS, ALL, None, servers), Held(RECORDS, "global", zone, records)]
    rules = manifest.advice()
    started = time.perf_counter()
    found, _ = advise(rules, held)
    advised = time.perf_counter() - started
    started = time.perf_counter()
    tally(held)
    counted = time.perf_counter() - started
    return {"advise": advised, "tally": counted, "findings": len(found)}


def advice_reads(scale: int) -> dict[str, Any]:
    import httpx

    from tui.api.secret import Secret
    from tui.config import Settings
    from tui.products.kit.refresh_plan import RefreshPolicy
    from tui.sandbox import DEMO_PROJECT_ID, DEMO_SECRET_KEY, Sandbox
    from tui.ui.app import CloudApp

    sandbox = Sandbox(scale=scale)
    settings = Settings(
        profile="demo", api_url="http://sandbox", project_id=DEMO_PROJECT_ID, organization_id="",
        zone="fr-par-1", region="fr-par", demo=True,
    )
    app = CloudApp(
        settings,
        Secret(DEMO_SECRET_KEY),
        transport=httpx.ASGITransport(sandbox.app),
        policy=RefreshPolicy(fast=3600, slow=3600),
    )

    async def run() -> dict[str, Any]:
        async with app.run_test(size=(120, 40)) as pilot:
            while app.main is None or app.main.view is None or app.main.view.model.listing:
                await pilot.pause(0.05)
            before = len(sandbox.requests)
            started = time.perf_counter()
            app.finder.fill(say=False)
            while not app.finder.filled:
                await pilot.pause(0.05)
            return {"requests": len(sandbox.requests) - before, "seconds": time.perf_counter() - started}

    return asyncio.run(run())


def main(argv: list[str]) -> None:
    mode, value = argv[0], int(argv[1])
    result = advice_pass(value) if mode == "advice-pass" else advice_reads(value)
    print(json.dumps(result), flush=True)
