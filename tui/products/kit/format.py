"""Small display helpers shared by the product modules (plain text, colour via Rich styles)."""

from __future__ import annotations

from typing import Any, Iterable

from rich.text import Text


class Tones:
    """Which states read as good (●), busy (◐), bad (✖) or alarm (✖ LOUD, needs someone now); any
    other ○. Every kind reads the common words (`COMMON`); a product adds its own states to them
    (`Tones(busy={"converting"}, alarm={"disk_full"})`) rather than editing a global list."""

    def __init__(
        self,
        good: Iterable[str] = (),
        busy: Iterable[str] = (),
        bad: Iterable[str] = (),
        alarm: Iterable[str] = (),
        base: Tones | None = None,
    ) -> None:
        self.tone: dict[str, str] = dict(base.tone) if base is not None else {}
        for tone, states in (("good", good), ("busy", busy), ("bad", bad), ("alarm", alarm)):
            self.tone.update(dict.fromkeys(states, tone))

    def of(self, state: str) -> str:
        return self.tone.get(state or "unknown", "other")

    def text(self, state: str) -> Text:
        """A state with a marker so it reads without colour too (NO_COLOR)."""
        s = state or "unknown"
        tone = self.tone.get(s)
        if tone == "good":
            return Text(f"● {s}", style="green")
        if tone == "busy":
            return Text(f"◐ {s}", style="yellow")
        if tone == "alarm":
            return Text(f"✖ {s.upper()}", style="bold reverse red")
        if tone == "bad":
            return Text(f"✖ {s}", style="red")
        return Text(f"○ {s}", style="dim")


COMMON = Tones(
    good={"running", "ready", "available", "active", "attached", "completed", "success", "in_use"},
    busy={
        "starting",
        "stopping",
        "provisioning",
        "configuring",
        "deleting",
        "creating",
        "updating",
        "rebooting",
        "initializing",
        "attaching",
        "detaching",
        "snapshotting",
        "pending",
        "migrating",
        "restarting",
    },
    bad={"error", "locked", "failure", "out_of_stock"},
)


def state_text(state: str, tones: Tones = COMMON) -> Text:
    """A state with a marker so it reads without colour too (NO_COLOR): ● good, ◐ busy, ✖ bad, ○ other."""
    return tones.text(state)


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
    from .times import date_of

    return date_of(iso)
