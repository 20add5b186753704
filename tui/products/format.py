"""Small display helpers shared by the product modules (plain text, colour via Rich styles)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from rich.text import Text

GOOD = {"running", "ready", "available", "active", "attached", "completed", "success", "in_use"}
BUSY = {"starting", "stopping", "provisioning", "configuring", "deleting", "creating", "updating", "rebooting",
        "initializing", "attaching", "detaching", "snapshotting", "pending", "installing", "to_install", "migrating",
        "backuping", "restarting", "promoting", "exporting", "restoring", "autohealing"}
BAD = {"error", "locked", "failure", "out_of_stock", "disk_full", "invalid_data"}
ALARM = {"disk_full"}  # needs someone now: stands out in any list, colour or not


def state_text(state: str) -> Text:
    """A state with a marker so it reads without colour too (NO_COLOR): ● good, ◐ busy, ✖ bad, ○ other."""
    s = state or "unknown"
    if s in GOOD:
        return Text(f"● {s}", style="green")
    if s in BUSY:
        return Text(f"◐ {s}", style="yellow")
    if s in ALARM:
        return Text(f"✖ {s.upper()}", style="bold reverse red")
    if s in BAD:
        return Text(f"✖ {s}", style="red")
    return Text(f"○ {s}", style="dim")


def gb(value: Any) -> str:
    """Bytes as GB: whole from 100 up, else three significant digits (a GiB is 1.07, not 1.07374)."""
    try:
        v = int(value) / 1_000_000_000
    except (TypeError, ValueError, OverflowError):
        return "?"
    return f"{v:.0f}" if v >= 100 else f"{v:.3g}"


def human_bytes(value: Any) -> str:
    try:
        v = float(value)
    except (TypeError, ValueError):
        return "?"
    for unit in ("B", "kB", "MB", "GB", "TB"):
        if v < 1000 or unit == "TB":
            return f"{v:.0f} {unit}" if unit == "B" or v >= 100 else f"{v:.3g} {unit}"
        v /= 1000
    return f"{v:g} PB"


def date_of(iso: str) -> str:
    """The calendar date of an RFC 3339 timestamp (stable, so snapshots do not drift)."""
    if not iso:
        return ""
    try:
        return datetime.fromisoformat(iso.replace("Z", "+00:00")).strftime("%Y-%m-%d")
    except ValueError:
        return iso[:10]
