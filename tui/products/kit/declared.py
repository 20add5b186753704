"""Fields declared once, with their meaning: what a kind's objects hold, where, and what it is.

A `Field` names a key path in the object as the API sends it, a title, and a role: the name, the
id, the state, IP addresses, tags, a reference to a kind of another product (by manifest id), a
time, a size, money, a flag, a count, a place (zone or region) or plain text. A kind's columns and
its detail fields are made from its fields (`columns_of`, `details_of`), and so can anything that
crosses products: a search index reads every field whose role is a name, an id, an address or
tags; "what points here" reads references. A computed value (`show`) is the exception.

The same field reads a listed row (`Row`, the slim dict a list keeps) and a full object (a lenient
model, `raw` and `looked_up`): both expose `raw`. A path is dotted; a list met on the way is read
item by item (`public_ips.address`: every public IP's address), and `*` reads every value of a map
(`volumes.*.id`: each volume's id, whatever its key). No pydantic here: kinds on the console's start
path are made from these. A `Column` is what a list shows: a field's, or a computed one.
"""

from __future__ import annotations

import ipaddress
from typing import TYPE_CHECKING, Any, Callable, Iterator, Literal, TypeAlias, get_args

from rich.text import Text

from ...records import record
from .format import COMMON, Tones, human_bytes
from .times import moment_of, short_age

if TYPE_CHECKING:
    from .rows import Row

    Readable: TypeAlias = Row | dict[str, Any]  # what a field reads: a row, or an object of the API

Role = Literal["name", "id", "state", "ip", "tags", "ref", "time", "size", "money", "flag", "count", "place", "text"]
ROLES: tuple[str, ...] = get_args(Role)
_OWN = object()  # a value a column and the detail each show their own way


@record(frozen=True, eq=False)
class Column:
    key: str
    title: str
    value: Callable[[Any], str | Text]  # a cell's text: a Rich Text whose overall style is drawn (a state)
    width: int | None = None  # fixed width keeps rendering cheap; None = measured
    sort_key: Callable[[Any], Any] | None = None
    field: "Field | None" = None  # the declared field it shows, when it is one

    def __post_init__(self) -> None:
        # The API may send any type where a column expects another (a string for a list): a cell
        # that cannot be read shows "?", and never empties the list or stops the table.
        object.__setattr__(self, "value", _lenient(self.value, "?"))
        if self.sort_key is not None:
            object.__setattr__(self, "sort_key", _lenient(self.sort_key, ""))


def _lenient(fn: Callable[[Any], Any], fallback: Any) -> Callable[[Any], Any]:
    if getattr(fn, "lenient", False):
        return fn

    def read(row: Any) -> Any:
        try:
            return fn(row)
        except Exception:
            return fallback

    read.lenient = True  # type: ignore[attr-defined]
    read.__wrapped__ = fn  # type: ignore[attr-defined]  # what it reads (a test tells a lambda from a named reader)
    return read


@record(frozen=True, eq=False)
class Field:
    """One field of a kind's objects.

    `path`: the key path in the object as sent ("ip_address", "mac_address.status", "public_ips.address").
    `role`: what it holds (see `Role`), or several (`("name", "ip")`: an address that names the resource);
    the first says how it reads. A `ref` names the kind it holds an ID of (`ref="baremetal.servers"`)
    and, when a list looks their names up, the key the name is kept under (`named="server_name"`), or
    when the API sends the name beside the id, its path (`named="server.name"`). A `count` of a list
    reads its length.
    `width`: the width of its column, when the kind lists it (the kind's `columns` name which, in order);
    `head`: the column's heading when shorter than the title; `key`: the column's key (sorting, the
    saved sort), by default its path (or its title, for a computed one).
    `detail`: shown in the detail (True), not (False), or read there its own way, from the object (a
    function: the column shows a state's word, the detail its steps); `empty`: what an empty value
    reads as there, `blank` in a column.
    `words`: what a flag reads as when true and otherwise (not sent: false), when not yes and no
    (`("HA", "—")`). A reference holding several IDs (a list) reads as them all, as sent.
    `as_detail`: how the detail reads the value when not as its role does or `show` computes it (`moment_of`:
    an expiry to the minute). `tones`: a state's tones (good, busy, bad); `show`: a computed value, of a
    row or an object (then `path` names what it reads, or is empty), in its column and the detail."""

    path: str
    title: str
    role: Role | tuple[Role, ...] = "text"
    ref: str = ""
    named: str = ""
    width: int | None = None
    head: str = ""
    key: str = ""
    detail: bool | Callable[[Any], Any] = True
    empty: str = "none"
    blank: str = ""
    as_detail: Callable[[Any], str] | None = None
    words: tuple[str, str] | None = None
    tones: Tones | None = None
    show: Callable[[Any], Any] | None = None

    def __post_init__(self) -> None:
        roles = (self.role,) if isinstance(self.role, str) else tuple(self.role)
        wrong = [r for r in roles if r not in ROLES]
        if wrong or not roles:
            raise ValueError(f"field {self.path!r}: no role {wrong or roles!r} (one of {', '.join(ROLES)})")
        if ("ref" in roles) != bool(self.ref):
            raise ValueError(
                f"field {self.path!r}: a reference names the kind it points at (ref=), and only a reference does"
            )
        if self.words is not None and roles[0] != "flag":
            raise ValueError(f"field {self.path!r}: only a flag reads as words")
        object.__setattr__(self, "role", roles[0])
        object.__setattr__(self, "roles", frozenset(roles))
        if not self.path and self.show is None:
            raise ValueError(f"field {self.title!r}: a path, or a computed value (show=)")
        if not self.key:
            object.__setattr__(self, "key", self.path or self.title.lower())

    def has(self, role: str) -> bool:
        return role in self.roles  # type: ignore[attr-defined]  # (set as it is made: not a parameter)

    # ---- reading --------------------------------------------------------------------------------
    def values(self, obj: Readable) -> list[Any]:
        """Every value at the path in `obj` (a row or an object), leniently: none when the shape differs."""
        path = self.path
        if "." not in path:  # the common case, read for every row a column draws or sorts
            v = _raw(obj).get(path)
            return [] if v is None or v == "" else [v]
        return [v for v in _walk(_raw(obj), path.split(".")) if v is not None and v != ""]

    def value(self, obj: Readable) -> Any:
        """The value at the path (a list's values joined by the caller), or None."""
        found = self.values(obj)
        if not found:
            return None
        return found[0] if len(found) == 1 and not isinstance(found[0], list) else _flat(found)

    def name_of(self, obj: Readable) -> str:
        """A reference's name, looked up (kept by the list's `Lookup`, or the detail's) or sent, or ""."""
        named = self.named
        if not named:
            return ""
        looked_up = getattr(obj, "looked_up", None)
        name = (looked_up or {}).get(named)
        if not name and "." in named:  # sent beside the id ("server.name")
            name = next((v for v in _walk(_raw(obj), named.split(".")) if v), None)
        elif not name:
            name = _raw(obj).get(named)
        return str(name) if name else ""

    # ---- showing --------------------------------------------------------------------------------
    def _said(self, obj: Readable) -> tuple[Any, Any]:
        """The value, and what a column and the detail show alike of it (a computed value, a state's
        word in its tone, a flag's word), or _OWN where each shows it its own way."""
        if self.show is not None:
            return None, self.show(obj)
        value = self.value(obj)
        if self.role == "state":
            return value, (self.tones or COMMON).text(str(value or ""))
        if self.words is not None:
            return value, self.words[0] if value is True else self.words[1]
        return value, _OWN

    def cell(self, row: Row) -> Any:
        """The column's text (a Text for a state)."""
        value, said = self._said(row)
        if said is not _OWN:
            return said
        if self.role == "ref" and not isinstance(value, list):
            return self.name_of(row) or (str(value)[:8] if value else self.blank)
        return _as_text(self.role, value, self.blank)

    def shown(self, obj: Readable) -> Any:
        """The detail's text."""
        if callable(self.detail):  # its own reading there, of the object
            return self.detail(obj)
        if self.as_detail is not None:  # of the value
            value = self.value(obj)
            return (self.as_detail(value) or self.empty) if value is not None else self.empty
        value, said = self._said(obj)
        if said is not _OWN:
            return said
        if self.role == "ref" and not isinstance(value, list):
            # `name (id)`; the id alone when no name was found (one made of the id, too)
            name, rid = self.name_of(obj), str(value or "")
            both = name and rid and name != rid and not rid.startswith(name)
            return (f"{name} ({rid})" if both else rid or name) or self.empty
        return _as_text(self.role, value, self.empty, detail=True)

    def sort_value(self, row: Row) -> Any:
        """What its column sorts by: numbers as numbers, times as sent (RFC 3339 sorts), addresses as
        addresses, else the text; "" when it holds nothing (the table puts those last, either way)."""
        value = self.value(row)
        if self.role == "ref":  # grouped by what it points at, then by name
            several = isinstance(value, list)  # several IDs: as they read
            name = self.name_of(row) or (_as_text("ref", value, "") if several else str(value or ""))
            return f"{name}\t{getattr(row, 'name', '')}" if name else ""
        if value is None or value == "" or value == [] or value == {}:
            return ""
        if self.role == "count" and isinstance(value, list):
            return len(value)
        if self.role in ("size", "count", "money"):
            return value if isinstance(value, (int, float)) and not isinstance(value, bool) else ""
        if self.role in ("time", "state"):
            return str(value)
        if self.has("ip"):
            first = value[0] if isinstance(value, list) else value
            return _address_key(str(first))
        text = self.cell(row)
        return text.plain if hasattr(text, "plain") else str(text)


def _address_key(text: str) -> str:
    """An address (or network) as text that sorts in address order: IPv4 before IPv6, 9 before 10."""
    try:
        address = ipaddress.ip_address(text.split("/")[0].strip())
    except ValueError:
        return text
    return f"{address.version}:{int(address):039d}"


def _raw(obj: Readable) -> dict[str, Any]:
    raw = obj if isinstance(obj, dict) else getattr(obj, "raw", None)
    return raw if isinstance(raw, dict) else {}


def _walk(value: object, parts: list[str]) -> Iterator[Any]:
    if not parts:
        yield value
        return
    if isinstance(value, list):
        for item in value:
            yield from _walk(item, parts)
    elif isinstance(value, dict):
        if parts[0] == "*":
            for item in value.values():
                yield from _walk(item, parts[1:])
        else:
            yield from _walk(value.get(parts[0]), parts[1:])


def _flat(values: list[Any]) -> list[Any]:
    out: list[Any] = []
    for v in values:
        out.extend(v) if isinstance(v, list) else out.append(v)
    return out


def _as_text(role: str | tuple[str, ...], value: Any, empty: str, detail: bool = False) -> str:
    if role == "count" and isinstance(value, list):
        return str(len(value))
    if value is None or value == [] or value == {}:
        return empty
    if role == "time":
        return moment_of(value) if detail else short_age(value)
    if role == "size":
        return human_bytes(value)
    if role == "flag":
        return "yes" if value is True else "no" if value is False else str(value)
    if isinstance(value, list):
        return (", " if detail or role != "tags" else ",").join(str(v) for v in value)
    if isinstance(value, dict):
        name, rid = value.get("name") or "", value.get("id") or ""
        return f"{name} ({rid})".strip() if name or rid else empty
    return str(value)


def busy_while(fields: tuple[Field, ...], transitional: frozenset[str]) -> tuple[Field, ...]:
    """The state fields' tones with each state the kind polls as moving read as busy (◐ resizing): a
    product's tones named some, and the others read as "other" (○) though the list polled them."""
    from ...records import replace

    out = []
    for f in fields:
        tones = f.tones or COMMON
        missing = {s for s in transitional if tones.of(s) == "other"} if f.has("state") else set()
        out.append(replace(f, tones=Tones(busy=missing, base=tones)) if missing else f)
    return tuple(out)


def columns_of(fields: tuple[Field, ...], keys: tuple[str, ...]) -> tuple[Column, ...]:
    """The columns a kind lists, in the order `keys` names them (each a field's key)."""
    by_key = {f.key: f for f in fields if f.width is not None}  # a detail's own reading may share the key
    missing = [k for k in keys if k not in by_key]
    if missing:
        raise ValueError(f"no field with a column width for {', '.join(missing)}")
    return tuple(
        Column(f.key, f.head or f.title, f.cell, width=f.width, sort_key=f.sort_value, field=f)
        for f in (by_key[k] for k in keys)
    )


def details_of(fields: tuple[Field, ...]) -> tuple[tuple[str, Callable[[Any], Any]], ...]:
    """The detail's (title, value) pairs, in the fields' order."""
    return tuple((f.title, f.detail if callable(f.detail) else f.shown) for f in fields if f.detail)


def columns(*fields: Field) -> tuple[Column, ...]:
    """The columns of rows that are no kind's (a set editor's): one a field, in order."""
    return columns_of(fields, tuple(f.key for f in fields))


ID = Field("id", "ID", "id")  # the id most objects hold under "id", shown in the detail
