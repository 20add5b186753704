"""Where a listing's time goes, for the benchmark (`tests/bench.py`): seconds spent decoding bodies,
making rows, and in the table (storing, ordering and drawing rows), added up since `reset()`.
What a listing's wall time holds beyond these is transport: requests, answers and the wait for them.
Two clock reads per page and stage: free next to the work they measure."""

from __future__ import annotations

import time

clock = time.perf_counter
SPENT: dict[str, float] = {"decode": 0.0, "rows": 0.0, "table": 0.0}


def reset() -> None:
    for stage in SPENT:
        SPENT[stage] = 0.0
