"""The generative-model chat: the console's chat screen on `{genai_url}/v1` (OpenAI-compatible),
with the minute's request and token limits as gauges from the `x-ratelimit-*` headers."""

from __future__ import annotations

from ..kit.location import GENERATIVE
from ..kit.views import ChatSpec, Gauge

CHAT = ChatSpec(
    "Generative models: chat",
    GENERATIVE,
    "/v1/models",
    "/v1/chat/completions",
    gauges=(
        Gauge("Requests", "x-ratelimit-remaining-requests", "x-ratelimit-limit-requests", "x-ratelimit-reset-requests"),
        Gauge("Tokens", "x-ratelimit-remaining-tokens", "x-ratelimit-limit-tokens", "x-ratelimit-reset-tokens"),
    ),
)
