"""Plausible metric time series (spec/4 "Time series"), the same for the same resource and time:
a daily wave, a slow drift and noise, seeded by the resource, sampled on a fixed grid so two reads
of one window agree."""

from __future__ import annotations

import base64
import math
import random
from datetime import datetime
from typing import TYPE_CHECKING, Any, Callable, Sequence

from .errors import invalid_arguments

if TYPE_CHECKING:
    from starlette.datastructures import QueryParams

MAX_POINTS = 240


def parse_time(value: str | None, name: str) -> float | None:
    if value is None or value == "":
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
    except ValueError:
        raise invalid_arguments((name, "format", f"{name} must be an RFC 3339 date")) from None


def window(query: QueryParams, now: float, start_name: str, end_name: str) -> tuple[float, float]:
    """The asked window (default: the last hour), refused when it is upside down."""
    end = parse_time(query.get(end_name), end_name) or now
    start = parse_time(query.get(start_name), start_name) or end - 3600
    if start >= end:
        raise invalid_arguments((start_name, "constraint", f"{start_name} must be before {end_name}"))
    return start, min(end, now)


def series(
    name: str,
    seed: str,
    start: float,
    end: float,
    iso: Callable[[float], str],
    *,
    base: float,
    swing: float,
    low: float = 0.0,
    high: float = 100.0,
    metadata: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One series of at most MAX_POINTS points between `start` and `end`."""
    span = max(end - start, 60.0)
    step = max(60.0, math.ceil(span / MAX_POINTS / 60.0) * 60.0)
    first = math.ceil(start / step) * step
    points = []
    t = first
    while t <= end:
        rng = random.Random(f"{seed}:{name}:{int(t)}")
        day = math.sin((t % 86_400) / 86_400 * 2 * math.pi)
        drift = math.sin(t / 1_800 + len(seed)) * 0.25 + math.sin(t / 420) * 0.15
        value = base + swing * (0.6 * day + drift) + rng.uniform(-swing, swing) * 0.08  # within base ± 1.08 swing
        points.append([iso(t), round(min(high, max(low, value)), 2)])
        t += step
    return {"name": name, "points": points, "metadata": dict(metadata or {})}


def pick(query: QueryParams, known: Sequence[str]) -> list[str]:
    """The metrics asked (`metric_name`), or every one; an unknown name is refused."""
    wanted = query.get("metric_name")
    if not wanted:
        return list(known)
    if wanted not in known:
        raise invalid_arguments(("metric_name", "constraint", f"metric_name must be one of {', '.join(known)}"))
    return [wanted]


def certificate(name: str, subject: str) -> dict[str, Any]:
    """A certificate file as the platform sends it: base64 of a PEM (not a real key pair)."""
    body = base64.b64encode(f"sandbox certificate for {subject}".encode()).decode()
    pem = (
        "-----BEGIN CERTIFICATE-----\n"
        + "\n".join(body[i : i + 64] for i in range(0, len(body), 64))
        + "\n-----END CERTIFICATE-----\n"
    )
    return {"name": name, "content_type": "application/x-pem-file", "content": base64.b64encode(pem.encode()).decode()}
