"""Where a resource lives and how it is reached: endpoints, scope types, parents, verbs, probes.

Every kind declares these (see `base.ResourceKind`); nothing here defaults to one product's habits.
A *scope type* is "zone", "region" or "global"; a *scope* is one value of it ("fr-par-1",
"nl-ams", the single global scope) or ALL for every zone or every region at once.
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Any, Callable, Literal, Mapping
from urllib.parse import quote

from ...records import record

if TYPE_CHECKING:
    from .base import Context, Row

ScopeType = Literal["zone", "region", "global"]
ALL = "all"
GLOBAL = "global"  # the one scope of a global kind

ZONES = ("fr-par-1", "fr-par-2", "fr-par-3", "nl-ams-1", "nl-ams-2", "nl-ams-3", "pl-waw-1", "pl-waw-2", "pl-waw-3")
REGIONS = ("fr-par", "nl-ams", "pl-waw")
SCOPES: dict[str, tuple[str, ...]] = {"zone": ZONES, "region": REGIONS, "global": (GLOBAL,)}


def scope_word(scope_type: str) -> str:
    """What the operator picks for a scope type: 'Zone', 'Region'."""
    return scope_type.capitalize()


def scope_label(scope: str, scope_type: str) -> str:
    """A scope as shown: 'all zones', 'all regions', 'global', or the scope itself."""
    if scope == ALL:
        return "all regions" if scope_type == "region" else "all zones"
    return scope


def region_of(zone: str) -> str:
    """'fr-par-1' -> 'fr-par' (a zone's region); a region stays itself."""
    head, _, tail = zone.rpartition("-")
    return head if tail.isdigit() and head else zone


@record(frozen=True, eq=False)
class Endpoint:
    """An API endpoint: which configured base URL (`url_setting` names a Settings field) and how the
    secret key is sent. One client per endpoint."""

    name: str
    url_setting: str
    auth: Literal["X-Auth-Token", "Bearer"]


PLATFORM = Endpoint("platform", "api_url", "X-Auth-Token")  # every product but the generative-model API
GENERATIVE = Endpoint("generative", "genai_url", "Bearer")


@record(frozen=True, eq=False)
class FromContext:
    """A value a verb takes from where it is sent, not from the row: `FromContext("project_id")`
    in a body or params is the context's project id (monitoring bodies, `?project_id=` on a DNS
    zone's delete). Any attribute of `base.Context`: project_id, organization_id, scope."""

    attr: str


@record(frozen=True, eq=False)
class Call:
    """One verb: a method and a path template under the kind's base URL.

    The path may name `{id}` (the row's id), `{parent}` (the parent's id) and any row field in
    braces; `body` is a dict or a function of the row; `body` and `params` values may be
    `FromContext(...)`, filled from the context the verb is sent in. `mutating=False` marks a call
    that changes nothing (a GET, a test POST): read-only mode keeps it."""

    method: str
    path: str
    body: Mapping[str, Any] | Callable[[Any], dict[str, Any]] | None = None
    params: Mapping[str, Any] | None = None
    mutating: bool = True
    # The call goes to the address the row holds in this field (a model's `endpoint`, given by the
    # API), `path` appended, instead of under the kind's base: the client sends the secret key there
    # only when its origin is one the profile trusts (else the console asks first).
    url_field: str | None = None

    def body_for(self, row: Row, context: Context | None = None) -> dict[str, Any] | None:
        if self.body is None:
            return None
        return _resolve(self.body(row) if callable(self.body) else self.body, context)

    def params_for(self, context: Context | None = None) -> dict[str, Any] | None:
        return _resolve(self.params, context) if self.params else None


def _resolve(values: Mapping[str, Any], context: Context | None) -> dict[str, Any]:
    """`values` with each `FromContext` (at any depth of dicts) read from `context`: a verb is never
    sent with a context value missing."""
    out: dict[str, Any] = {}
    for key, value in values.items():
        if isinstance(value, FromContext):
            value = getattr(context, value.attr, None) if context is not None else None
            if not value:
                raise ValueError(f"{key} needs the {values[key].attr.replace('_', ' ')}, which is not set")
        elif isinstance(value, Mapping):
            value = _resolve(value, context)
        out[key] = value
    return out


@record(frozen=True, eq=False)
class Parent:
    """A kind listed under a resource of another kind.

    `list_path` and `item_path` are templates under the product base (`lbs/{parent}/backends`,
    `backends/{id}`); or `query` binds the parent through a list parameter (`namespace_id`), the
    kind's own collection path staying as it is. With `field`, the children have no list of their
    own: they are the array `field` of the parent object read at `list_path` (a database instance's
    read replicas, its settings)."""

    kind: str  # the parent kind's id
    list_path: str | None = None
    item_path: str | None = None
    query: str | None = None
    field: str | None = None


@record(frozen=True, eq=False)
class ParentRef:
    """One parent resource a child list is opened for. A child's child knows its grandparent: `up`
    is the parent's own parent (paths may name `{grandparent}`, its id), and `data` the parent's
    fields as listed (a registry tag's pull command needs its namespace's endpoint)."""

    id: str
    name: str
    scope: str
    up: "ParentRef | None" = None
    data: Mapping[str, Any] | None = None

    @classmethod
    def of(cls, row: Row, scope: str, up: "ParentRef | None" = None, name: str = "") -> "ParentRef":
        """The parent a row is to the lists opened from it (`up`: the parent of the list it is in)."""
        return cls(
            row.id, row.name or name or row.id, scope, up, getattr(row, "data", None) or getattr(row, "raw", None)
        )

    def ids(self) -> dict[str, Any]:
        """What a path template may name: `{parent}` and `{grandparent}`."""
        return {"parent": self.id, "grandparent": self.up.id if self.up is not None else None}


@record(frozen=True, eq=False)
class Probe:
    """A cheap change probe: list ordered by `param=value` (most recently modified first) and compare
    each row's `field` with what is shown."""

    param: str
    value: str
    field: str


@record(frozen=True, eq=False)
class ListParams:
    """List parameters filled from the context: API parameter -> Context attribute."""

    from_context: Mapping[str, str] = field(default_factory=dict)
    fixed: Mapping[str, Any] = field(default_factory=dict)

    def build(self, context: Context | None) -> dict[str, Any]:
        out = dict(self.fixed)
        for param, attr in self.from_context.items():
            value = getattr(context, attr, None)
            if value:
                out[param] = value
        return out


def segment(value: object) -> str:
    """One value placed in a path, percent-encoded whole: an id from an API answer such as
    `x?y=1#` or `a/b` stays inside its segment (dot segments are refused by the client)."""
    return quote(str(value), safe="")


def fill(template: str, values: Mapping[str, Any]) -> str:
    """A path template with `{name}` filled from `values`, each value percent-encoded (`segment`);
    missing names are an error: a verb must not be sent to a half-built path."""
    try:
        return template.format_map(_Strict(values))
    except KeyError as missing:
        raise ValueError(f"path template {template!r} needs {missing}") from None


class _Strict(dict):
    def __init__(self, values: Mapping[str, Any]) -> None:
        super().__init__({k: segment(v) for k, v in values.items() if v is not None})

    def __missing__(self, key: str) -> str:
        raise KeyError(key)
