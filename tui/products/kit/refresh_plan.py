"""When to refresh and how: fast polling of what is moving, a slow re-list of the rest.

Pure logic (no Textual), so its decisions are tested directly. A view re-arms one one-shot timer
after every fetch with `next_delay()`, and its timer callback asks `plan()` what to do.

After a refresh that failed, the next comes at the normal interval, give or take a tenth (so
views that failed together do not all try again together): the client's limiter already paces
what the platform refused, and each read had ~30 s of retries (`api.limiter`, `api.failures`).
Waiting longer only left a view stale long after the platform had recovered.
"""

from __future__ import annotations

import random
import time
from typing import Callable, Literal

from ...records import record

Tick = Literal["full", "poll"]
JITTER = 0.1  # after a failure: the interval, give or take this fraction
LONG_MOVING = 60.0  # seconds something moves before its polls space out


@record
class RefreshPolicy:
    fast: float = 2.0  # seconds between polls of transitional resources
    slow: float = 30.0  # seconds between full re-lists
    paused: float = 1.0  # re-check interval while a modal is up or the view hidden (no requests)
    max_polls: int = 20  # GETs by id per tick at most
    whole: float = 600.0  # seconds between full re-lists of a list otherwise asked only what changed (a probe)


class RefreshPlanner:
    def __init__(
        self,
        policy: RefreshPolicy | None = None,
        now: Callable[[], float] = time.monotonic,
        rng: Callable[[], float] = random.random,
    ) -> None:
        self.policy = policy or RefreshPolicy()
        self.now = now
        self.rng = rng
        self.failing = False  # the last refresh failed: the next interval is jittered
        self.last_full = now()
        self.last_whole = now()  # the last listing of every row (a probe's refresh is not one)
        self.moving_since: float | None = None  # since when something has been moving, without an act of ours
        self.poll_every = self.policy.fast

    def next_delay(self, moving: bool) -> float:
        """Fast while something moves — for a minute (LONG_MOVING); then, each poll twice as far from the
        last, up to the slow interval: a zone waiting for its validation (hours) is not read every 2 s
        all day. An act of ours (`hurried`) makes it fast again."""
        if not moving:
            self.moving_since, self.poll_every = None, self.policy.fast
            base = self.policy.slow
        else:
            now = self.now()
            if self.moving_since is None:
                self.moving_since = now
            elif now - self.moving_since >= LONG_MOVING:
                self.poll_every = min(self.policy.slow, self.poll_every * 2)
            base = self.poll_every
        return base * (1 + JITTER * (2 * self.rng() - 1)) if self.failing else base

    def hurried(self) -> None:
        """An act of ours moved something: polled fast again."""
        self.moving_since, self.poll_every = None, self.policy.fast

    def plan(self, moving: bool) -> Tick:
        if not moving or self.now() - self.last_full >= self.policy.slow:
            return "full"
        return "poll"

    def full_done(self) -> None:
        self.last_full = self.now()

    def listed(self) -> None:
        self.last_whole = self.now()

    def whole_due(self) -> bool:
        """Whether a list asked only what changed is read whole again: a row changed without its mark of
        change (a value an answer garbled, a field the platform derives) is not left wrong all day."""
        return self.now() - self.last_whole >= self.policy.whole

    def succeeded(self) -> None:
        self.failing = False

    def failed(self) -> None:
        self.failing = True
