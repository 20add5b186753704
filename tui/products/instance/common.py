"""Pieces the Instance kinds share: their defaults, and the shared columns and detail fields
(`products/columns.py`) as Instance draws them (no pydantic here: this module is on the start path)."""

from __future__ import annotations

from typing import Any, Callable

from .. import columns
from ..base import Call, Column, Lazy, kinds_of
from ..columns import name_col, named, raw, size_col, tags_col  # noqa: F401 — the Instance kinds' names for the shared ones
from ..format import COMMON, Tones

API = "instance/v1"
DELETE_BY_ID = Call("DELETE", "{id}")
TONES = Tones(busy={"exporting", "importing"}, bad={"invalid_data"}, base=COMMON)  # a snapshot's own states


def action_call(action: str) -> Call:
    """An Instance action: POST {item}/action with the action's name."""
    return Call("POST", "{id}/action", {"action": action})


RESOURCE = Lazy("tui.products.models:Resource")  # a lenient model: the detail shows raw fields
# What every Instance kind shares; a kind says only what differs (types: read whole; servers: their own model).
instance_kind = kinds_of(product="Instance", api=API, scope_type="zone", paging="per_page", model=RESOURCE)


def state_col(width: int = 16) -> Column:
    return columns.state_col(TONES, width)


def server_col(width: int = 18) -> Column:
    return Column("server", "Server", lambda r: (r.obj("server").get("name") or "—"), width=width)


def zone_col() -> Column:
    return columns.scope_col("zone")


def created_col() -> Column:
    return columns.created_col("creation_date")


def detail_common() -> tuple[tuple[str, Callable[[Any], Any]], ...]:
    return (
        ("Tags", raw("tags")),
        ("Created", raw("creation_date", "—")),  # an IP has neither: "—", as every detail says of a date it lacks
        ("Modified", raw("modification_date", "—")),
        ("Zone", raw("zone", "?")),
        ("Project", raw("project", "?")),
    )
