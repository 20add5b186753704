"""When to refresh and how: fast polling of what is moving, a slow re-list of the rest, backoff.

Pure logic (no Textual), so its decisions are tested directly. A view re-arms one one-shot timer
after every fetch with `next_delay()`, and its timer callback asks `plan()` what to do.
"""

from __future__ import annotations

import time
from typing import Callable, Literal
from ..records import record

Tick = Literal["full", "poll"]
MAX_FACTOR = 256.0  # backoff multiplier cap; the delay itself is capped by max_backoff


@record
class RefreshPolicy:
    fast: float = 2.0  # seconds between polls of transitional resources
    slow: float = 30.0  # seconds between full re-lists
    paused: float = 1.0  # re-check interval while a modal is up or the view hidden (no requests)
    max_backoff: float = 300.0
    max_polls: int = 20  # GETs by id per tick at most


class RefreshPlanner:
    def __init__(self, policy: RefreshPolicy | None = None, now: Callable[[], float] = time.monotonic) -> None:
        self.policy = policy or RefreshPolicy()
        self.now = now
        self.backoff = 1.0
        self.last_full = now()

    def next_delay(self, moving: bool) -> float:
        base = self.policy.fast if moving else self.policy.slow
        return min(base * self.backoff, max(base, self.policy.max_backoff))

    def plan(self, moving: bool) -> Tick:
        if not moving or self.now() - self.last_full >= self.policy.slow * self.backoff:
            return "full"
        return "poll"

    def full_done(self) -> None:
        self.last_full = self.now()

    def succeeded(self) -> None:
        self.backoff = 1.0

    def failed(self, rate_limited: bool) -> None:
        """Back off: 4x after a 429 (the platform gives no Retry-After), 2x after other errors."""
        self.backoff = min(self.backoff * (4.0 if rate_limited else 2.0), MAX_FACTOR)
