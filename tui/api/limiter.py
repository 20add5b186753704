"""How fast requests go to the platform: one limiter per API origin and product, shared by every
request a profile's client sends (listing, probes, polls, the search index, bulk acts).

The platform does not say its limits (a 429 has an empty body and no `Retry-After`), so each
product's path prefix learns its own, as TCP learns a path's capacity (AIMD):

- Until the first 429 nothing is paced: on loopback one request in flight is already ~250 a second.
- The allowance (requests in any window of one second, with a margin for the trip there, evenly
  spaced) is set to what the platform accepted in the window when the refusals show a limit of
  pace: eight 429s in a row after some were accepted (past the first sixteen answers: a run among
  the first few is chance when some are refused at random), or a window holding at least sixteen
  and as many as it accepted (then scaled to a whole window when answers began less than one ago).
  Some refused among many accepted (at random, or a pace just over the limit) lowers nothing, and
  a 429 when nothing was accepted (the first request, an outage) teaches no pace: each request's
  own backoff (`failures.RetryPolicy`) spaces its retries.
- It is lowered at most once a window (the refusals of requests already in flight say nothing new),
  and never below half the most the platform accepted in a window in the last minute: a platform
  that refuses some requests whatever the pace is not slowed to a crawl.
- Each window in which the platform accepted all it was allowed raises the allowance by one.
- A `Retry-After` holds every request of the limiter until it has passed.

Slots are reserved before sleeping, so requests waiting together go one after another, not all
at once when the wait ends. Pure asyncio (no httpx): the clock and the sleep are the client's, so
tests drive it with a fake clock.
"""

from __future__ import annotations

from collections import deque
from typing import Awaitable, Callable
from urllib.parse import urlsplit

WINDOW = 1.05  # seconds: the platform's window (one second, as its front counts) and a margin for the trip
RUN = 8  # 429s in a row (twice as many in a window holding no more accepted) that show a limit of pace
MEMORY = 60.0  # seconds a window's count of accepted requests is remembered (the floor after a 429)


class Limiter:
    """The pace of one origin and product."""

    def __init__(self, now: Callable[[], float], sleep: Callable[[float], Awaitable[object]]) -> None:
        self.now, self.sleep = now, sleep
        self.allowance: int | None = None  # requests per window; None: not paced (no 429 yet)
        self._starts: deque[float] = deque()  # when each request of the last window went (or will: reserved)
        self._accepted: deque[float] = deque()  # when each answer of the last window came that was not a 429
        self._refusals: deque[float] = deque()  # … and each 429 of it
        self._run = 0  # 429s answered in a row
        self._answers = 0  # answers so far: a run among the first few says little
        self._began: float | None = None  # the first answer
        self._held = 0.0  # nothing goes before this (a Retry-After)
        self._changed = 0.0  # when the allowance last changed
        self._refused_at = -WINDOW  # the last 429
        self._peak = 0  # the most accepted in a window within MEMORY seconds …
        self._peak_at = 0.0  # … and when
        self._trouble: tuple[float, str] = (-MEMORY, "")  # when a request was last retried, and why

    async def admit(self) -> None:
        """Wait for this request's turn (at once while not paced and not held)."""
        while True:
            now = self.now()
            at = self._slot(now)
            if at <= now:
                return
            await self.sleep(at - now)
            if self._held <= at:
                return  # the slot reserved is still good (no Retry-After came meanwhile)
            if at in self._starts:
                self._starts.remove(at)  # held since: this slot is given back, another reserved

    def _slot(self, now: float) -> float:
        """The time this request may go, reserved."""
        starts = self._starts
        while starts and starts[0] <= now - WINDOW:
            starts.popleft()
        at = max(now, self._held)
        allowance = self.allowance
        if allowance is not None:
            if starts:
                at = max(at, starts[-1] + WINDOW / allowance)  # evenly spaced
            if len(starts) >= allowance:
                at = max(at, starts[-allowance] + WINDOW)  # at most `allowance` in any window
            starts.append(at)
        return at

    def answered(self, refused: bool, retry_after: float | None = None) -> None:
        """An answer came: a 429 (`refused`, with its `Retry-After` if any) or any other."""
        now = self.now()
        self._answers += 1
        if self._began is None:
            self._began = now
        accepted = self._accepted
        while accepted and accepted[0] <= now - WINDOW:
            accepted.popleft()
        if len(accepted) > self._peak or now - self._peak_at > MEMORY:
            self._peak, self._peak_at = len(accepted), now
        if retry_after is not None and retry_after > 0:
            self._held = max(self._held, now + retry_after)
        refusals = self._refusals
        while refusals and refusals[0] <= now - WINDOW:
            refusals.popleft()
        if refused:
            self._refused_at = now
            refusals.append(now)
            self._run += 1
            if accepted and (self.allowance is None or now - self._changed >= WINDOW):
                if self._run >= RUN and self._answers >= 2 * RUN:  # refused in a row, past the first answers: full
                    self.allowance = max(len(accepted), self._peak // 2)
                    self._changed = now
                elif len(refusals) >= max(2 * RUN, len(accepted)):  # as many refused as accepted, interleaved:
                    # the pace accepted, over the part of a window answers have come in (a short start says
                    # little of a window's worth)
                    spent = min(WINDOW, now - self._began) or WINDOW
                    self.allowance = max(round(len(accepted) * WINDOW / spent), self._peak // 2, 1)
                    self._changed = now
            return
        accepted.append(now)
        self._run = 0
        allowance = self.allowance
        if allowance is not None and now - self._changed >= WINDOW and now - self._refused_at >= WINDOW:
            if len(accepted) >= allowance - 1:  # it used what it was allowed, and all of it was accepted
                self.allowance = allowance + 1
                self._changed = now

    def retrying(self, why: str) -> None:
        """A request is to be sent again after `why` (a 429, a 5xx, no answer)."""
        self._trouble = (self.now(), why)

    def troubled(self, within: float) -> str:
        """Why a request was sent again within the last `within` seconds, or ""."""
        at, why = self._trouble
        return why if self.now() - at <= within else ""


class Limits:
    """The limiters of one client: one per origin and product (the first segment of the path)."""

    def __init__(self, now: Callable[[], float], sleep: Callable[[float], Awaitable[object]]) -> None:
        self.now, self.sleep = now, sleep
        self._by: dict[tuple[str, str], Limiter] = {}

    def of(self, url: str) -> Limiter:
        parts = urlsplit(url)
        key = (f"{parts.scheme}://{parts.netloc}", parts.path.lstrip("/").split("/", 1)[0])
        limiter = self._by.get(key)
        if limiter is None:
            limiter = self._by[key] = Limiter(self.now, self.sleep)
        return limiter

    def paced(self) -> list[tuple[str, Limiter]]:
        """The products paced now (a 429 was answered), with their limiters."""
        return [(product, lim) for (_, product), lim in self._by.items() if lim.allowance is not None]
