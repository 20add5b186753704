"""The generative-model API's view (imports nothing: the chat loads on first open)."""

from __future__ import annotations

from ..manifest import Entry

SECTION = "AI"

ENTRIES = (
    Entry(
        "genai.chat",
        "Chat",
        "Generative",
        "global",
        "chat",
        "tui.products.genai.chat:CHAT",
        title="Generative models: chat",
    ),
)
