"""A listed resource (`Row`): what tables, actions and refresh read, kept slim and read leniently."""

from __future__ import annotations

from typing import Any


class Row:
    """One resource as listed: a slim dict of the kind's `row_fields`, read leniently.

    Lists hold tens of thousands of these, so they carry no pydantic model and no more fields than
    the columns, actions and refresh need; the detail view fetches the full object by id.
    """

    __slots__ = ("id", "name", "state", "data")

    def __init__(self, data: dict[str, Any], state_field: str = "state", id_field: str = "id") -> None:
        # Built 50,000 times per large listing: the str case is inlined.
        self.data = data
        get = data.get
        v = get(id_field)
        self.id = v if v.__class__ is str else as_text(v)
        v = get("name")
        self.name = v if v.__class__ is str else as_text(v)
        v = get(state_field)
        self.state = v if v.__class__ is str else as_text(v)

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def text(self, key: str) -> str:
        return as_text(self.data.get(key))

    def items(self, key: str) -> list[Any]:
        value = self.data.get(key)
        return value if isinstance(value, list) else []

    def obj(self, key: str) -> dict[str, Any]:
        value = self.data.get(key)
        return value if isinstance(value, dict) else {}

    @property
    def raw(self) -> dict[str, Any]:
        return self.data

    def __repr__(self) -> str:
        return f"Row({self.id!r}, {self.name!r}, {self.state!r})"


def derive_fields(slim: dict[str, Any], data: dict[str, Any], summarize: Any, moving: Any) -> None:
    """A row's derived fields; an object of an odd shape derives none rather than failing the page."""
    try:
        if summarize is not None:
            slim.update(summarize(data))
        if moving is not None and moving(data):
            slim["_moving"] = True
    except Exception:
        pass


def as_text(value: object) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else str(value)


def called(row: Row) -> str:
    """What a resource is called in words: its name, or its id when it has none."""
    return str(row.name or row.id or "")


def called_with_id(row: Row) -> str:
    """`name (id)`, or the id alone when it has no other name (never `x (x)`)."""
    name, rid = str(row.name or ""), str(row.id or "")
    return f"{name} ({rid})" if name and rid and name != rid else name or rid
