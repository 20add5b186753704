"""Declarative resource kinds: what the UI needs to list, show, create and act on a resource.

A kind names its path, scope, list key, columns, detail fields, create form, actions and
transitional states; the UI is generic over kinds, so a new product is one module here.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Generic, Literal, TypeVar


from ..api.paging import PagingStyle

if TYPE_CHECKING:
    from pydantic import BaseModel

T = TypeVar("T")

ScopeKind = Literal["zone", "region", "global"]
ALL = "all"

ZONES = ("fr-par-1", "fr-par-2", "fr-par-3", "nl-ams-1", "nl-ams-2", "nl-ams-3", "pl-waw-1", "pl-waw-2", "pl-waw-3")
REGIONS = ("fr-par", "nl-ams", "pl-waw")


class Lazy(Generic[T]):
    """A reference to "module:attribute", imported on first `get()`.

    Models and forms need pydantic, which the list path does not: kinds point at them lazily so
    start-up imports neither.
    """

    def __init__(self, target: str) -> None:
        self.target = target
        self._value: T | None = None

    def get(self) -> T:
        if self._value is None:
            module, _, attr = self.target.partition(":")
            self._value = getattr(importlib.import_module(module), attr)
        return self._value  # type: ignore[return-value]


class Row:
    """One resource as listed: a slim dict of the kind's `row_fields`, read leniently.

    Lists hold tens of thousands of these, so they carry no pydantic model and no more fields than
    the columns, actions and refresh need; the detail view fetches the full object by id.
    """

    __slots__ = ("id", "name", "state", "data")

    def __init__(self, data: dict[str, Any], state_field: str = "state") -> None:
        # Built 50,000 times per large listing: the str case is inlined.
        self.data = data
        get = data.get
        v = get("id")
        self.id = v if v.__class__ is str else _text(v)
        v = get("name")
        self.name = v if v.__class__ is str else _text(v)
        v = get(state_field)
        self.state = v if v.__class__ is str else _text(v)

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def text(self, key: str) -> str:
        return _text(self.data.get(key))

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


def _text(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else str(value)


@dataclass(frozen=True)
class Column:
    key: str
    title: str
    value: Callable[[Any], str]
    width: int | None = None  # fixed width keeps rendering cheap; None = measured
    sort_key: Callable[[Any], Any] | None = None


@dataclass(frozen=True)
class ActionSpec:
    """One action of a kind. `available(resource)` decides whether it is offered now."""

    name: str
    label: str
    available: Callable[[Any], bool] = lambda r: True
    confirm: bool = False  # ask before running (Cancel focused)
    # Why it cannot work now although offered (shown greyed with this reason), or None.
    why_not: Callable[[Any], str | None] = lambda r: None
    # A flow instead of POST .../action: `async def flow(ui: FlowUI, row)`, see products/flows.py.
    flow: "Lazy[Any] | None" = None


Choices = dict[str, list[tuple[str, str]]]  # form field -> [(label, value)]
# Loads a form's select choices and the data its validators need, once per form: (service, scope).
OptionsLoader = Callable[[Any, str], Awaitable[tuple[Choices, dict[str, Any]]]]


@dataclass(frozen=True)
class CreateSpec:
    form_model: type["BaseModel"]
    to_payload: Callable[["BaseModel", "Context"], dict[str, Any]]
    options: OptionsLoader | None = None
    after_create: str | None = None  # form bool field that, when true, triggers `after_action`
    after_action: str | None = None
    field_map: dict[str, str] = field(default_factory=dict)  # API argument name -> form field
    # `async def extend(ui, form, payload, context) -> payload | None`: a further step (dialogs)
    # before sending; None cancels it and the form stays open.
    extend: "Lazy[Any] | None" = None


@dataclass(frozen=True)
class EditSpec:
    form_model: type["BaseModel"]
    from_resource: Callable[[Any], dict[str, Any]]  # initial form values
    to_patch: Callable[["BaseModel", Any], dict[str, Any]]  # only what changed
    options: OptionsLoader | None = None  # select choices, as for create


@dataclass
class Context:
    """What a payload builder needs beyond the form: project, scope and loaded option data."""

    project_id: str
    scope: str
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ResourceKind:
    id: str
    product: str
    title: str
    api: str  # "instance/v1"
    scope: ScopeKind
    collection: str  # path segment: "servers"
    list_key: str
    item_key: str
    model: Lazy[Any]  # the full, lenient pydantic model, for the detail view
    columns: tuple[Column, ...]
    detail_fields: tuple[tuple[str, Callable[[Any], str]], ...] = ()
    paging: PagingStyle = "per_page"
    scopes: tuple[str, ...] = ZONES
    state_field: str = "state"
    transitional: frozenset[str] = frozenset()
    # Parts of a resource that move while the resource itself does not (a NIC syncing on a running
    # server): a row for which this says True is polled like a transitional one.
    moving: Callable[[dict[str, Any]], bool] | None = None
    actions: tuple[ActionSpec, ...] = ()
    create: Lazy[CreateSpec] | None = None
    edit: Lazy[EditSpec] | None = None
    deletable: Callable[[Any], str | None] = lambda r: None  # None = may delete, else why not
    delete_needs_name: bool = False
    delete_warning: Callable[[Any], str | None] = lambda r: None  # what else a delete takes away
    editable: Callable[[Any], str | None] = lambda r: None  # None = may edit, else why not
    delete_flow: Lazy[Any] | None = None  # a flow that replaces the plain confirm-and-delete
    nav: str = ""  # the sidebar's short name (default: title)
    can_delete: bool = True  # False for read-only catalogues (instance types)
    fetch_detail: bool = True  # False: the detail shows the listed object (no GET by id exists)
    # `async def enrich(service, scope, rows) -> None`: adds fields from another endpoint to listed rows
    enrich: Lazy[Any] | None = None
    row_fields: tuple[str, ...] = ()  # keys a list row keeps; empty keeps them all
    summarize: Callable[[dict[str, Any]], dict[str, Any]] | None = None  # derived row fields
    # Cheap change detection: list ordered by this (newest first) and compare `modified_field`.
    delta_order: str | None = None
    modified_field: str | None = None
    # The list filter by name, used to look whether a create whose answer was lost happened.
    name_param: str | None = "name"

    def make_row(self, data: dict[str, Any]) -> Row:
        return self.row_maker()(data)

    def row_maker(self, scope: str | None = None) -> Callable[[dict[str, Any]], Row]:
        """A function from a listed item to its Row, with this kind's settings bound once (it runs
        for every item of every page). Zoned rows without a `zone` get `scope`."""
        fields, summarize, state_field, moving = self.row_fields, self.summarize, self.state_field, self.moving
        fill_zone = scope if scope and self.scope == "zone" else None
        # A catalogue keyed by name (instance types) repeats its names in every zone: with all
        # zones listed, rows are told apart by zone.
        zoned_ids = self.paging == "whole" and fill_zone is not None

        def make(data: dict[str, Any]) -> Row:
            slim = {k: data[k] for k in fields if k in data} if fields else dict(data)
            if summarize is not None:
                slim.update(summarize(data))
            if moving is not None and moving(data):
                slim["_moving"] = True
            if fill_zone is not None and not slim.get("zone"):
                slim["zone"] = fill_zone
            if zoned_ids:
                slim["id"] = f"{fill_zone}/{slim.get('id')}"
            return Row(slim, state_field)

        return make

    def base(self, scope: str) -> str:
        if self.scope == "zone":
            return f"/{self.api}/zones/{scope}"
        if self.scope == "region":
            return f"/{self.api}/regions/{scope}"
        return f"/{self.api}"

    def path(self, scope: str, *parts: str) -> str:
        return "/".join([self.base(scope), self.collection, *parts])

    def is_transitional(self, row: Row) -> bool:
        return row.state in self.transitional or row.data.get("_moving") is True

    def scope_of(self, row: Any) -> str:
        data = row.data if isinstance(row, Row) else getattr(row, "raw", {})
        return _text(data.get("zone") or data.get("region"))
