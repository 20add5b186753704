"""Model inference's view (imports nothing: targets load on first open)."""

from __future__ import annotations

from ..manifest import Entry

SECTION = "AI"

ENTRIES = (
    Entry(
        "inference.models",
        "Models",
        "Inference",
        "global",
        "list",
        "tui.products.inference.kinds:MODELS",
        title="Inference models",
    ),
)
