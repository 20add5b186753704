"""Times as the platform writes them and an operator reads them: RFC 3339 in and out, a time left
("1 h 05 min"), an age ("3 h ago"), and durations such as `1m30s` (load-balancer timeouts). One
module, so every product and screen reads and says a time the same way. Nothing here reads the
clock by itself where a caller can pass `now` (the sandbox and the tests move theirs)."""

from __future__ import annotations

import math
import re
import time
from datetime import datetime, timedelta, timezone
from typing import Callable

from ...api.safe import clean

_DURATION = re.compile(r"(\d+(?:\.\d+)?)(ms|h|m|s)")

# The console's clock, for ages ("3 d"): the app puts its own here (tests and snapshots stand still).
NOW: Callable[[], float] = time.time


def parse(value: object) -> datetime | None:
    """An RFC 3339 time (`Z` or an offset), or None when it is not one."""
    if not isinstance(value, str) or not value:
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def stamp(value: object) -> float | None:
    """An RFC 3339 time as seconds since the epoch, or None."""
    moment = parse(value)
    return moment.timestamp() if moment is not None else None


def rfc3339(moment: datetime | float) -> str:
    """`2026-11-24T18:00:00Z`: how the platform takes a time (whole seconds, UTC)."""
    if not isinstance(moment, datetime):
        moment = datetime.fromtimestamp(moment, timezone.utc)
    return moment.astimezone(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def from_now(seconds: float, now: float | None = None) -> str:
    """The RFC 3339 time `seconds` from now (negative: ago)."""
    return rfc3339((time.time() if now is None else now) + seconds)


def in_days(days: int, now: float | None = None) -> str:
    return from_now(timedelta(days=days).total_seconds(), now)


def span(seconds: float) -> str:
    """A length of time as read: `45 s`, `12 min`, `3 h 05 min`, `2 d 4 h`."""
    s = int(max(0, seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min"
    if s < 86_400:
        return f"{s // 3600} h {s % 3600 // 60:02d} min"
    return f"{s // 86_400} d {s % 86_400 // 3600} h"


def span_up(seconds: float) -> str:
    """A wait as a short column reads it, rounded up so it never claims less than is left: `24 h`
    from 23 h 59 min (a 24-hour lease just started), `5 min` from 4 min 10 s."""
    s = max(0.0, seconds)
    return f"{math.ceil(s / 60)} min" if s <= 3600 else f"{math.ceil(s / 3600)} h"


def left(value: object, now: float | None = None) -> float | None:
    """Seconds until an RFC 3339 time (negative when past), or None when it is not a time."""
    at = stamp(value)
    return None if at is None else at - (time.time() if now is None else now)


def age(value: object, now: float | None = None) -> str:
    """How long ago an RFC 3339 time was (`3 h 05 min ago`), or the text as given."""
    seconds = left(value, now)
    return str(value or "") if seconds is None else f"{span(-seconds)} ago"


def date_of(value: object) -> str:
    """The calendar date of an RFC 3339 time (stable, so snapshots do not drift). A value that is
    not a time shows as given (cleaned), never cut to the ten characters a date takes, which made
    junk read as a date: a long one is cut with `…`."""
    moment = parse(value)
    if moment is not None:
        return moment.strftime("%Y-%m-%d")
    text = clean(str(value or ""))
    return text if len(text) <= NOT_A_DATE else text[: NOT_A_DATE - 1] + "…"


NOT_A_DATE = 40  # characters of a value that is not a time shown where a date goes


def short_age(value: object, now: float | None = None) -> str:
    """How long ago a time was, as a list column reads it (`45 s`, `12 min`, `5 h`, `3 d`, `2 y`), or
    how long until it (`in 3 d`); a value that is not a time as `date_of` shows it."""
    seconds = left(value, NOW() if now is None else now)
    if seconds is None:
        return date_of(value)
    s = abs(seconds)
    said = (
        f"{int(s)} s"
        if s < 60
        else f"{int(s // 60)} min"
        if s < 3600
        else f"{int(s // 3600)} h"
        if s < 86_400
        else f"{int(s // 86_400)} d"
        if s < 365 * 86_400
        else f"{int(s // (365 * 86_400))} y"
    )
    return f"in {said}" if seconds > 0 else said


def moment_of(value: object, now: float | None = None) -> str:
    """An RFC 3339 time as a detail reads it: the local time to the second, with the zone and how long
    ago or until (`2026-12-01 15:00:05 CET, 3 h 05 min ago`); the text as given when it is not a time."""
    moment = parse(value)
    if moment is None:
        return clean(str(value or ""))
    seconds = moment.timestamp() - (NOW() if now is None else now)
    when = f"in {span(seconds)}" if seconds > 0 else f"{span(-seconds)} ago"
    return f"{moment.astimezone().strftime('%Y-%m-%d %H:%M:%S %Z')}, {when}"


def second_of(value: object) -> str:
    """An RFC 3339 time to the second, local, with the zone (`2026-12-01 15:00:05 CET`): an event in a
    timeline, where two may fall in one minute; the text as given when it is not a time."""
    moment = parse(value)
    return moment.astimezone().strftime("%Y-%m-%d %H:%M:%S %Z") if moment is not None else clean(str(value or ""))


def parse_duration(text: str) -> float:
    """`1m30s`, `500ms`, `2h` → seconds; a ValueError names the expected form."""
    text = text.strip()
    parts = _DURATION.findall(text)
    if not text or "".join(n + u for n, u in parts) != text:
        raise ValueError("a duration such as 30s, 1m30s or 500ms")
    factor = {"ms": 0.001, "s": 1, "m": 60, "h": 3600}
    return sum(float(n) * factor[u] for n, u in parts)


def duration(seconds: float) -> str:
    """Seconds as the platform writes a duration: `90` → `1m30s`, `0.5` → `500ms`."""
    if seconds < 1 and seconds > 0:
        return f"{round(seconds * 1000)}ms"
    s = int(round(seconds))
    out = "".join(f"{v}{u}" for v, u in ((s // 3600, "h"), (s % 3600 // 60, "m"), (s % 60, "s")) if v)
    return out or "0s"
