"""The sandbox's fixed identities and zones (no imports: the demo reads these before starting it)."""

from __future__ import annotations

DEMO_SECRET_KEY = "11111111-2222-4333-8444-555555555555"
DEMO_ORGANIZATION_ID = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
DEMO_PROJECT_ID = "7f6e5d4c-3b2a-4190-8f7e-6d5c4b3a2910"

ALL_ZONES = (
    "fr-par-1",
    "fr-par-2",
    "fr-par-3",
    "nl-ams-1",
    "nl-ams-2",
    "nl-ams-3",
    "pl-waw-1",
    "pl-waw-2",
    "pl-waw-3",
)

# Where the sandbox serves the generative-model API: its `genai_url` is `{sandbox address}/genai`,
# and clients call `{genai_url}/v1/...` as they would the real API at its own address.
GENAI_PREFIX = "/genai"
