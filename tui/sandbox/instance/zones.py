"""Helpers every Instance route uses: the zone of a request, JSON for spliced pages."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request

from ..core import ALL_ZONES
from ..errors import invalid_arguments
from .state import InstanceStore


def zone_of(store: InstanceStore, request: Request) -> str:
    """The request's zone, checked; due transitions are applied first."""
    zone = request.path_params["zone"]
    if zone not in ALL_ZONES:
        raise invalid_arguments(("zone", "constraint", f"unknown zone {zone}; use one of {', '.join(ALL_ZONES)}"))
    store.run_due()
    return zone


def encode(obj: dict[str, Any]) -> bytes:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()
