"""The generative-model API's rate limits (spec 3 §8): per organization, per minute of the sandbox
clock, on requests and on tokens (prompt plus completion), and on simultaneous requests; with the
`x-ratelimit-*` headers every answer carries.

A minute opens with the first request counted after the previous one closed, and closes 60 s
later, when both counts start again from zero (`reset` is the time left until then; "0s" when no
minute is open). A request refused for a limit (429) counts toward neither limit.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from tui.records import record

if TYPE_CHECKING:
    from ..clock import Clock

WINDOW = 60.0


@record
class Limits:
    """The demo's limits, small enough to reach by hand (tests shrink them on the store)."""

    requests_per_minute: int = 20
    tokens_per_minute: int = 20_000
    concurrent: int = 4  # simultaneous requests (streams being answered)


@record
class Usage:
    opened: float | None = None  # when the current minute opened; None: no minute open
    requests: int = 0
    tokens: int = 0
    active: int = 0  # requests being answered now


class Refused(Exception):
    """A limit is reached: `kind` is requests, tokens or concurrent_requests; `retry` in seconds."""

    def __init__(self, kind: str, message: str, retry: float) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.retry = retry


def duration(seconds: float) -> str:
    """A duration with a unit suffix, as the headers carry it: `350ms`, `12s`, `1m0s`."""
    if seconds <= 0:
        return "0s"
    if seconds < 1:
        return f"{max(1, math.ceil(seconds * 1000))}ms"
    whole = math.ceil(seconds)
    return f"{whole}s" if whole < 60 else f"{whole // 60}m{whole % 60}s"


class RateLimiter:
    def __init__(self, clock: Clock, limits: Limits) -> None:
        self.clock = clock
        self.limits = limits
        self.usage: dict[str, Usage] = {}

    def of(self, org: str) -> Usage:
        """The organization's usage, its minute closed if the clock has passed it."""
        usage = self.usage.setdefault(org, Usage())
        if usage.opened is not None and self.clock.now() >= usage.opened + WINDOW:
            usage.opened, usage.requests, usage.tokens = None, 0, 0
        return usage

    def reset_in(self, usage: Usage) -> float:
        return 0.0 if usage.opened is None else usage.opened + WINDOW - self.clock.now()

    def check_request(self, org: str) -> None:
        """Refuse a new request when the simultaneous or per-minute request limit is reached."""
        usage, limits = self.of(org), self.limits
        if usage.active >= limits.concurrent:
            raise Refused(
                "concurrent_requests",
                f"Rate limit reached: {limits.concurrent} concurrent requests per organization; "
                "retry when one of them has finished.",
                1.0,
            )
        if usage.requests >= limits.requests_per_minute:
            wait = self.reset_in(usage)
            raise Refused(
                "requests",
                f"Rate limit reached: {limits.requests_per_minute} requests per minute per organization "
                f"(used {usage.requests}); the limit resets in {duration(wait)}.",
                wait,
            )

    def check_tokens(self, org: str, tokens: int) -> None:
        """Refuse a request whose tokens would pass the minute's token limit."""
        usage, limit = self.of(org), self.limits.tokens_per_minute
        if tokens > limit:
            raise Refused(
                "tokens",
                f"Request too large: it needs {tokens} tokens, more than the limit of {limit} tokens per minute "
                "per organization; ask for fewer (max_tokens).",
                WINDOW,
            )
        if usage.tokens + tokens > limit:
            wait = self.reset_in(usage)
            raise Refused(
                "tokens",
                f"Rate limit reached: {limit} tokens per minute per organization (used {usage.tokens}, "
                f"this request needs {tokens}); the limit resets in {duration(wait)}.",
                wait,
            )

    def charge(self, org: str, tokens: int = 0) -> None:
        """Count one request and its tokens, opening a minute if none is open."""
        usage = self.of(org)
        if usage.opened is None:
            usage.opened = self.clock.now()
        usage.requests += 1
        usage.tokens += tokens

    def headers(self, org: str) -> dict[str, str]:
        usage, limits = self.of(org), self.limits
        reset = duration(self.reset_in(usage))
        return {
            "x-ratelimit-limit-requests": str(limits.requests_per_minute),
            "x-ratelimit-remaining-requests": str(max(0, limits.requests_per_minute - usage.requests)),
            "x-ratelimit-reset-requests": reset,
            "x-ratelimit-limit-tokens": str(limits.tokens_per_minute),
            "x-ratelimit-remaining-tokens": str(max(0, limits.tokens_per_minute - usage.tokens)),
            "x-ratelimit-reset-tokens": reset,
        }
