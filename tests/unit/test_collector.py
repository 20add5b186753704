"""The cyclic collector paused and frozen around a large listing (tui/ui/collector.py)."""

from __future__ import annotations

import gc
import weakref

from tui.ui import collector


class Node:
    """A widget-like object: in a reference cycle, freed only by the cyclic collector."""

    def __init__(self) -> None:
        self.me = self


def test_what_a_listing_froze_and_died_since_is_collected_once_the_operator_is_idle(monkeypatch):
    """Soak: a large listing froze everything alive (so the collector never walks its rows again);
    what died since in a cycle (a closed screen's widgets) was kept for good: +6 MB at one freeze."""
    monkeypatch.setattr(collector, "_settled_at", None)
    try:
        with collector.paused():  # no event loop here: the freeze is settled at once
            kept = [Node() for _ in range(collector.FREEZE_AFTER + 1_000)]
        assert gc.get_freeze_count() > collector.FREEZE_AFTER
        ref = weakref.ref(kept[0])
        del kept
        gc.collect()
        assert ref() is not None  # frozen: the collector does not see it
        assert not collector.resettle(idle=True)  # settled just now: not again so soon
        monkeypatch.setattr(collector, "RESETTLE_EVERY", 0.0)
        assert not collector.resettle(idle=False)  # not while the operator types
        assert ref() is not None
        assert collector.resettle(idle=True)
        assert ref() is None
    finally:
        gc.unfreeze()
