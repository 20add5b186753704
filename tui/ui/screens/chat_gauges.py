"""What the chat says of an answer's headers and usage, as text (no Textual): the limits' gauges
(`Requests ████░░ 42/60 left (resets 12s)`), which limit a refusal says is spent, the tokens an
answer used. Every number comes from the API: one that is no count (letters, a sign, 400 digits) is
said to be unreadable — never drawn, never raised from the timer that counts the resets down.
"""

from __future__ import annotations

import logging
import math
import re
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from ...api.safe import clean

if TYPE_CHECKING:
    from ...products.kit.views import Gauge

    Headers = Mapping[str, object]  # an answer's headers (or a refusal's limits), by lowercase name

log = logging.getLogger("cloudtui.ui")

COUNT = re.compile(r"[0-9]{1,15}")  # a quadrillion is more than any minute's limit: longer is no count
UNREADABLE = "unreadable (see log)"


def count_of(value: object) -> int | None:
    """A count a header or a usage says (`"42"`, `42`); None when it is none (`"-1"`, `"4e3"`, 400 digits)."""
    if isinstance(value, bool):
        return None
    text = str(value).strip() if isinstance(value, (int, str)) else ""
    return int(text) if COUNT.fullmatch(text) else None


def seconds_of(duration: str) -> float | None:
    """`1m0s`, `12s`, `350ms`, `1h2m` (a duration with unit suffixes) → seconds; None when unreadable."""
    if len(duration) > 20:
        return None
    parts = re.findall(r"(\d+(?:\.\d+)?)(ms|h|m|s)", duration.strip())
    if not parts or "".join(n + u for n, u in parts) != duration.strip():
        return None
    return sum(float(n) * {"h": 3600, "m": 60, "s": 1, "ms": 0.001}[u] for n, u in parts)


def unreadable(gauges: Iterable[Gauge], headers: Headers) -> list[str]:
    """The limit headers an answer says that are no count or duration, each with (the start of) what it
    said: what the log keeps when a gauge reads "unreadable"."""
    found = []
    for g in gauges:
        for name, readable in ((g.remaining, count_of), (g.limit, count_of), (g.reset, seconds_of)):
            said = headers.get(name) if name else None
            if said is not None and readable(str(said)) is None:
                text = clean(str(said))
                found.append(f"{name}: {text[:40]!r}" + (f"… ({len(text):,} characters)" if len(text) > 40 else ""))
    return found


def limits_in(gauges: Iterable[Gauge], headers: Headers) -> dict[str, object]:
    """The limit headers an answer carries that the gauges read; those that are no count or duration
    are logged with what they said (their gauge reads "unreadable (see log)")."""
    said = {
        k: headers.get(k) for g in gauges for k in (g.remaining, g.limit, g.reset) if k and headers.get(k) is not None
    }
    for bad in unreadable(gauges, said):
        log.warning("Chat: a limit header is no count or duration: %s", bad)
    return said


def gauge_text(gauge: Gauge, headers: Headers, elapsed: float = 0.0) -> str | None:
    """`Requests ████░░ 42/60 left (resets 12s)`: what is left of the limit, and when it resets,
    counted down from when the answer said it (`elapsed` since); None when the answer did not say,
    `Requests: unreadable (see log)` when what it said is no count."""
    said_left, said_limit = headers.get(gauge.remaining), headers.get(gauge.limit)
    if said_left is None or said_limit is None:
        return None
    left, limit = count_of(said_left), count_of(said_limit)
    if left is None or limit is None:
        return f"{gauge.label}: {UNREADABLE}"
    said = clean(str(headers.get(gauge.reset, ""))) if gauge.reset else ""
    seconds = seconds_of(said) if said else None
    left_s = max(0, math.ceil(seconds - elapsed)) if seconds is not None else None
    if left_s == 0:
        left = limit  # the minute is over: all of it again (the next answer will say so)
    # to the nearest sixth, and at least one while anything is left (3 of 20 is not an empty bar)
    filled = 0 if left <= 0 else 6 if left >= limit else max(1, min(6, int(6 * left / limit + 0.5)))
    text = f"{gauge.label} {'█' * filled}{'░' * (6 - filled)} {left:,}/{limit:,} left"
    if left_s is not None:
        if not left_s:
            return text + " (renewed)"
        return text + (f" (resets {left_s // 60}m{left_s % 60:02d}s)" if left_s >= 60 else f" (resets {left_s}s)")
    return text + (f" ({said})" if said and len(said) <= 12 else "")


def used_up(gauges: Iterable[Gauge], headers: Headers) -> str:
    """Which limits a refusal (429) says are spent and when each resets: "the Requests limit is
    used up (0 of 20 left), it resets in 41s"; empty when the headers do not tell."""
    said = []
    for g in gauges:
        if count_of(headers.get(g.remaining)) == 0:
            limit = count_of(headers.get(g.limit))
            reset = clean(str(headers.get(g.reset, "") or headers.get("retry-after", "")))[:12]
            said.append(
                f"the {g.label} limit is used up (0 of {'?' if limit is None else f'{limit:,}'} left)"
                + (f", it resets in {reset}" if reset else "")
            )
    if not said and headers.get("retry-after"):
        said.append(f"a limit is reached, retry after {clean(str(headers['retry-after']))[:12]} s")
    return "; ".join(said)


def usage_text(usage: dict[str, Any] | None, seconds: float) -> str:
    """`↳ 12 in · 40 out · 52 total tokens · 1.2 s`: what an answer's usage says it cost."""
    if not usage:
        return f"↳ {seconds:.1f} s · the API did not report the tokens used"
    named = (("prompt_tokens", "in"), ("completion_tokens", "out"), ("total_tokens", "total"))
    parts = [f"{n:,} {label}" for n, label in ((count_of(usage.get(k)), label) for k, label in named) if n is not None]
    return f"↳ {' · '.join(parts) or 'usage unreadable'} tokens · {seconds:.1f} s"
