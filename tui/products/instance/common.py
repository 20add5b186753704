"""Pieces the Instance kinds share: display helpers for their columns and detail fields (no pydantic
here: this module is on the start path)."""

from __future__ import annotations

from typing import Any, Callable

from ..base import Call, Column, Lazy, kinds_of
from ..format import COMMON, Tones, date_of, human_bytes

API = "instance/v1"
DELETE_BY_ID = Call("DELETE", "{id}")
TONES = Tones(busy={"exporting", "importing"}, bad={"invalid_data"}, base=COMMON)  # a snapshot's own states


def action_call(action: str) -> Call:
    """An Instance action: POST {item}/action with the action's name."""
    return Call("POST", "{id}/action", {"action": action})


RESOURCE = Lazy("tui.products.models:Resource")  # a lenient model: the detail shows raw fields
# What every Instance kind shares; a kind says only what differs (types: read whole; servers: their own model).
instance_kind = kinds_of(product="Instance", api=API, scope_type="zone", paging="per_page", model=RESOURCE)


def raw(key: str, empty: str = "none") -> Callable[[Any], str]:
    """A detail field read from the object as sent."""

    def get(s: Any) -> str:
        value = s.raw.get(key)
        if value is None or value == "" or value == [] or value == {}:
            return empty
        if isinstance(value, list):
            return ", ".join(str(v) for v in value)
        if isinstance(value, dict):
            return named(value)
        return str(value)

    return get


def named(obj: Any) -> str:
    if not isinstance(obj, dict) or not obj:
        return "none"
    return f"{obj.get('name') or ''} ({obj.get('id', '')})".strip()


def name_col(width: int = 22) -> Column:
    return Column("name", "Name", lambda r: r.name, width=width)


def state_col(width: int = 16) -> Column:
    return Column("state", "State", lambda r: TONES.text(r.state), width=width, sort_key=lambda r: r.state)


def size_col(key: str = "size") -> Column:
    return Column(key, "Size", lambda r: human_bytes(r.get(key)), width=9, sort_key=lambda r: r.get(key) or 0)


def server_col(width: int = 18) -> Column:
    return Column("server", "Server", lambda r: (r.obj("server").get("name") or "—"), width=width)


def zone_col() -> Column:
    return Column("zone", "Zone", lambda r: r.text("zone"), width=8)


def created_col() -> Column:
    return Column("created", "Created", lambda r: date_of(r.text("creation_date")), width=10, sort_key=lambda r: r.text("creation_date"))


def tags_col(width: int = 16) -> Column:
    return Column("tags", "Tags", lambda r: ",".join(map(str, r.items("tags"))), width=width)


def detail_common() -> tuple[tuple[str, Callable[[Any], Any]], ...]:
    return (
        ("Tags", raw("tags")),
        ("Created", raw("creation_date", "?")),
        ("Modified", raw("modification_date", "?")),
        ("Zone", raw("zone", "?")),
        ("Project", raw("project", "?")),
    )
