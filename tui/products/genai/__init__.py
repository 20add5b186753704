"""The generative-model API (spec 3 §4.4, §8; spec/4 "Generative-model API"): an OpenAI-compatible
chat at `{genai_url}/v1`, with a bearer key and rate limits reported in every answer's headers."""

from __future__ import annotations
