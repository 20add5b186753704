"""Clocks for the sandbox: states advance when read, against whichever clock is injected.

Tests use ManualClock and call `advance()`, so a server "starts" exactly when the test says so;
the demo and `cloudtui sandbox` use the wall clock so the console feels alive.
"""

from __future__ import annotations

import time
from datetime import datetime, timezone

# 2026-01-15T10:00:00Z: the fixed origin of manual clocks, so seeded timestamps are reproducible.
MANUAL_EPOCH = 1768471200.0


class Clock:
    def now(self) -> float:
        return time.time()

    def iso(self, at: float | None = None) -> str:
        return iso(self.now() if at is None else at)


class ManualClock(Clock):
    def __init__(self, start: float = MANUAL_EPOCH) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        self._now += seconds


def iso(at: float) -> str:
    return datetime.fromtimestamp(at, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f+00:00")
