"""Helpers every Instance route uses: the zone of a request, an object of a zone, JSON for spliced pages."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request

from ..core import ALL_ZONES, json_body
from ..errors import invalid_arguments, or_not_found
from .state import InstanceStore


def zone_of(store: InstanceStore, request: Request) -> str:
    """The request's zone, checked; due transitions are applied first."""
    zone = request.path_params["zone"]
    if zone not in ALL_ZONES:
        raise invalid_arguments(("zone", "constraint", f"unknown zone {zone}; use one of {', '.join(ALL_ZONES)}"))
    store.run_due()
    return zone


def find_in(table: dict[str, dict[str, dict[str, Any]]], kind: str, zone: str, oid: str) -> dict[str, Any]:
    """The object `oid` of a zone's `table` (404 as a `kind` where there is none)."""
    return or_not_found(table[zone].get(oid), kind, oid)


def in_path(
    store: InstanceStore, request: Request, table: dict[str, dict[str, dict[str, Any]]], kind: str, key: str
) -> tuple[str, dict[str, Any]]:
    """The request's zone, and the object of that zone's `table` its path names (`{key}`)."""
    zone = zone_of(store, request)
    return zone, find_in(table, kind, zone, request.path_params[key])


async def list_in_body(request: Request, key: str, shape: str) -> list[Any]:
    """The list a PUT of a whole set sends as its only field (`{key: [...]}`, described by `shape`)."""
    body = await json_body(request)
    items = body.get(key)
    if not isinstance(items, list) or set(body) - {key}:
        raise invalid_arguments((key, "required", f"the body is {shape}"))
    return items


def encode(obj: dict[str, Any]) -> bytes:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()
