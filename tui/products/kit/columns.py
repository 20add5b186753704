"""Columns and detail fields products draw the same way: a name, a state in the product's tones, a
size, a zone or region, a creation date, tags, and a detail field read from the object as sent.
No pydantic here: kinds on the start path use them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from .base import Column
from .format import COMMON, Tones, human_bytes
from .times import short_age

if TYPE_CHECKING:
    from .base import Row
    from .models import Resource


def raw(key: str, empty: str = "none") -> Callable[[Any], str]:
    """A detail field read from the object as sent: a list joined, an object named."""

    def get(s: Row | Resource) -> str:
        value = s.raw.get(key)
        if value is None or value == "" or value == [] or value == {}:
            return empty
        if isinstance(value, list):
            return ", ".join(str(v) for v in value)
        if isinstance(value, dict):
            return named(value)
        return str(value)

    return get


def named(obj: object) -> str:
    """An embedded object as `name (id)`."""
    if not isinstance(obj, dict) or not obj:
        return "none"
    return f"{obj.get('name') or ''} ({obj.get('id', '')})".strip()


def named_ref(name: Any, rid: Any) -> str:
    """A referenced resource in a detail: `name (id)` when its name was looked up, else its id."""
    name, rid = str(name or ""), str(rid or "")
    return f"{name} ({rid})" if name and rid and name != rid and not rid.startswith(name) else rid or name


def name_col(width: int = 22) -> Column:
    return Column("name", "Name", lambda r: r.name, width=width)


def state_col(tones: Tones = COMMON, width: int = 16, key: str = "state", title: str = "State") -> Column:
    """The state with its mark (● good, ◐ busy…), in the product's tones; sorted by the state itself."""
    return Column(key, title, lambda r: tones.text(r.state), width=width, sort_key=lambda r: r.state)


def size_col(key: str = "size") -> Column:
    return Column(key, "Size", lambda r: human_bytes(r.get(key)), width=7, sort_key=lambda r: r.get(key) or 0)


def scope_col(scope_type: str = "zone", width: int = 8) -> Column:
    """The zone or the region a row is in (`all zones` lists mix them)."""
    return Column(scope_type, scope_type.capitalize(), lambda r: r.text(scope_type), width=width)


def created_col(key: str = "created_at") -> Column:
    return Column("created", "Created", lambda r: short_age(r.text(key)), width=10, sort_key=lambda r: r.text(key))


def tags_col(width: int = 16) -> Column:
    return Column("tags", "Tags", lambda r: ",".join(map(str, r.items("tags"))), width=width)
