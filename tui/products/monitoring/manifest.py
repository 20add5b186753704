"""Monitoring's view (imports nothing: targets load on first open). Its tokens, contact points and
dashboard users open from the panel (a → …), as they exist only once monitoring is activated."""

from __future__ import annotations

from ..manifest import Entry

SECTION = "Observability"

ENTRIES = (
    Entry(
        "monitoring.cockpit",
        "Monitoring",
        "Monitoring",
        "global",
        "panel",
        "tui.products.monitoring.kinds:COCKPIT",
        title="Monitoring: metrics, logs, alerts, dashboard",
    ),
)
