"""States that advance with the clock, for any sandbox object: a plan of (when, changes) steps
applied when the object is next read. `GONE` in a step's changes removes the object."""

from __future__ import annotations

from typing import Any, Callable

GONE = "_gone"


def plan(obj: dict[str, Any], now: float, *steps: tuple[float, dict[str, Any]]) -> None:
    """Queue `steps` (delay from now, changes) after what the object already has planned."""
    queue = obj.setdefault("_plan", [])
    start = max([now, *(at for at, _ in queue)])
    at = start
    for delay, changes in steps:
        at += delay
        queue.append((at, changes))


def settle(obj: dict[str, Any], now: float, iso: Callable[[float], str], on_step: Callable[[dict[str, Any], dict[str, Any]], None] | None = None) -> bool:
    """Apply the steps the clock has reached; True when the object is gone. `on_step(obj, changes)`
    sees each step as it applies (a backup ready makes its instance ready again)."""
    queue = obj.get("_plan") or []
    while queue and queue[0][0] <= now:
        at, changes = queue.pop(0)
        if changes.get(GONE):
            return True
        for key, value in changes.items():
            obj[key] = value
        if "updated_at" in obj:
            obj["updated_at"] = iso(at)
        if on_step is not None:
            on_step(obj, changes)
    return False

