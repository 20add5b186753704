"""Declarative resource kinds: what the UI needs to list, show, create and act on a resource.

A kind declares where it lives (endpoint, scope type and scopes, parent, paths: see `location`),
how it is listed (envelope, id field, paging, list parameters, change probe), its verbs (delete and
actions as method + path + body, each mutating or not), its secret fields, and what the UI shows
(columns, detail fields, forms, transitional states). The UI and the service are generic over kinds:
nothing defaults to one product's conventions; a product says its own once (`kinds_of`)."""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Literal

from ...api.paging import PagingStyle
from ...records import fields, record
from .declared import Column  # noqa: F401  (re-exported: products import it from here)
from .kind_options import (  # noqa: F401  (re-exported)
    ONE_OF_COLLECTION,
    RESOURCE,
    Item,
    Reading,
    Rows,
    Secrets,
    Singleton,
    Writing,
    data_lost,
    over,
)
from .lazy import Lazy  # noqa: F401  (re-exported: products import it from here)
from .location import (  # noqa: F401  (re-exported: products import them from here)
    ALL,
    GLOBAL,
    PLATFORM,
    REGIONS,
    SCOPES,
    ZONES,
    Call,
    Endpoint,
    ListParams,
    Parent,
    ParentRef,
    Probe,
    ScopeType,
    fill,
    segment,
)
from .nouns import one_of, title_of
from .own_columns import kept
from .panels import DetailPanel, Metric, Metrics  # noqa: F401  (re-exported: products import them from here)
from .rows import Row, as_text, derive_fields  # noqa: F401  (Row re-exported: products import it from here)
from .shared_values import SharedValues

if TYPE_CHECKING:
    from pydantic import BaseModel


@record(frozen=True, eq=False)
class ActionSpec:
    """One action of a kind. `available(resource)` decides whether it is offered now."""

    name: str
    label: str
    available: Callable[[Any], bool] = lambda r: True
    # Ask before running (Cancel focused); a text says what the action does beyond its label
    # ("every client needs the new certificate"); a `Lazy` of `async (service, scope, row) -> str`
    # says it from what is there now (the other IPs that keep a shared MAC).
    confirm: "bool | str | Lazy[Any]" = False
    # What it will do to this resource, in a line its confirmation (and a production profile's) shows:
    # the command of the operator's own it runs, as it will run.
    shows: Callable[[Any], str] | None = None
    # Why it cannot work now although offered (shown greyed with this reason), or None.
    why_not: Callable[[Any], str | None] = lambda r: None
    # What it does: one request (`call`); a declared shape (`products/kit/shapes.py`: a value to show,
    # a file to save, a form then one request, a whole set edited then sent); or a flow (`async def
    # flow(ui: FlowUI, row)`, see products/kit/flows.py) for a real conversation. Exactly one of the three.
    call: Call | None = None
    flow: "Lazy[Any] | None" = None
    shape: Any = None
    mutating: bool = True  # False: changes nothing (a GET-only flow): offered in read-only mode
    # When its answer is lost: the states it puts the resource in at once (a pause: pausing,
    # paused), so the look can tell applied from not; and what to say when no look can tell (a
    # reset password: whether the old one still works), or once applied, what the lost answer
    # carried (an activation's one-time password).
    moves_to: frozenset[str] = frozenset()
    if_lost: str = ""
    # Acts on several rows at once: the flow is `async def flow(ui, rows: list[Row])`, given the
    # rows the user marked (space), or the one under the cursor when none is marked; it returns
    # True when it sent something (the marks are then cleared).
    many: bool = False
    # The name of an action of the kind run on the resource once it settles after this one: an
    # export's URL shown when made, rather than on a second trip to the menu.
    then: str = ""

    def __post_init__(self) -> None:
        if sum(x is not None for x in (self.call, self.flow, self.shape)) != 1:
            raise ValueError(f"action {self.name!r}: give exactly one of call, shape and flow")
        if self.many and self.flow is None:
            raise ValueError(f"action {self.name!r}: an action on marked rows is a flow")
        declared = self.call if self.call is not None else self.shape
        if declared is not None and declared.mutating != self.mutating:
            object.__setattr__(self, "mutating", declared.mutating)

    def runner(self) -> Callable[..., Awaitable[Any]] | None:
        """What runs it as a conversation (`async (ui, row)`): its shape or its flow; None for a call."""
        return self.shape if self.shape is not None else self.flow.get() if self.flow is not None else None


@record(frozen=True, eq=False)
class Child:
    """A child list opened from a row: `kind` is "module:ATTR" of a ResourceKind with a `parent`."""

    label: str
    kind: str
    why_not: Callable[[Any], str | None] = lambda r: None  # shown greyed with this reason

    def get(self) -> "ResourceKind":
        return Lazy[ResourceKind](self.kind).get()


Choices = dict[str, list[tuple[str, str]]]  # form field -> [(label, value)]
# Loads a form's select choices and the data its validators need, once per form: (service, scope).
OptionsLoader = Callable[[Any, str], Awaitable[tuple[Choices, dict[str, Any]]]]


@record(frozen=True, eq=False)
class CreateSpec:
    form_model: type["BaseModel"]
    to_payload: Callable[[Any, "Context"], dict[str, Any]]  # (the form: an instance of `form_model`)
    options: OptionsLoader | None = None
    after_create: str | None = None  # form bool field that, when true, triggers `after_action`
    after_action: str | None = None
    field_map: dict[str, str] = field(default_factory=dict)  # API argument name -> form field
    # `async def extend(ui, form, payload, context) -> payload | None`: a further step (dialogs)
    # before sending; None cancels it and the form stays open.
    extend: "Lazy[Any] | None" = None
    # Where it is sent when not to the list path (a template under the base, `{parent}` allowed:
    # "instances/{parent}/acls"), and how the created object is found in the answer when the answer is
    # not it: `created(answer, payload) -> object | None` (an answer listing the rules).
    path: str | None = None
    created: Callable[[dict[str, Any], dict[str, Any]], Any] | None = None
    # What identifies the created object in a listing, from the payload sent, when the payload wraps it
    # (`{"rules": [rule]}` -> rule), for the look after a lost answer; default: the id field, the name,
    # or the plain values sent.
    identity: Callable[[dict[str, Any]], dict[str, Any]] | None = None


@record(frozen=True, eq=False)
class EditSpec:
    """An edit form and what it sends. PATCH (the default) sends only what changed from the values
    the form opened with; PUT sends the whole object, as APIs that replace it ask (name and
    description required). `to_patch(form, row)` builds the body instead, where it differs. With
    `steps` (`edit_steps.EditStep`), the edit is several requests, each sent when its part changed."""

    form_model: type["BaseModel"]
    from_resource: Callable[[Any], dict[str, Any]]  # initial form values
    to_patch: Callable[[Any, Any], dict[str, Any]] | None = None  # (form, row)
    options: OptionsLoader | None = None  # select choices, as for create
    method: Literal["PATCH", "PUT"] = "PATCH"
    steps: tuple[Any, ...] = ()
    confirm: Callable[["BaseModel", Any], str | None] | None = (
        None  # asked (Cancel focused) before sending when it says something
    )

    def body(self, form: "BaseModel", row: Row) -> dict[str, Any]:
        from .fields import changed, form_body

        if self.to_patch is not None:
            return self.to_patch(form, row)
        values = form_body(form)
        return values if self.method == "PUT" else changed(values, self.from_resource(row))


@record
class Context:
    """What a payload builder or a list needs beyond the form: project, organization, scope, the
    parent of a child list, and loaded option data."""

    project_id: str
    scope: str
    organization_id: str = ""
    parent: ParentRef | None = None
    extra: dict[str, Any] = field(default_factory=dict)


COLLECTION = "<the collection's name>"  # a list's envelope by the convention (`ResourceKind.list_key`)


@record(frozen=True, eq=False)
class ResourceKind:
    id: str  # "<product>.<collection>": "instance.servers"
    product: str
    singular: str  # "server": forms and confirmations
    api: str  # the product's base path: "instance/v1"
    scope_type: ScopeType
    # The list's columns: a declared field's key (see `fields`), or a Column for a computed one.
    columns: tuple[Column | str, ...]
    # Named from the one noun where the API follows its convention: titled by the plural of
    # `singular` ("Security groups"), listed under the collection the id ends with ("security_groups").
    title: str = ""  # plural, as a list is titled
    collection: str = ""  # the list path under the base
    paging: PagingStyle = "page_size"
    # The envelope the API wraps a list in, named from the collection by its convention: under the last
    # word of its path, dashes as underscores (`contact-points` → `{"contact_points": [...]}`); another
    # key, or None for a bare list. (One object's: `Item.envelope`.)
    list_key: str | None = COLLECTION
    scopes: tuple[str, ...] | None = None  # None: every scope of its type (cache: six zones only)
    parent: Parent | None = None  # a child kind: listed under one resource of another kind
    delete: Call | None = None  # how to delete one; None: cannot be deleted from here
    children: tuple[Child, ...] = ()
    panels: tuple[DetailPanel, ...] = ()
    # What its objects hold, declared once with their meaning (`declared.Field`): columns named by
    # key, the detail (`detail_fields`), and which field is its id and which its state, are made from them.
    fields: tuple[Any, ...] = ()
    transitional: frozenset[str] = frozenset()
    actions: tuple[ActionSpec, ...] = ()
    create: Lazy[CreateSpec] | None = None
    edit: Lazy[EditSpec] | None = None
    # The options only some kinds need, in named groups (products/kit/kind_options.py): how it is listed
    # and read, what its rows hold beyond the object, how writes are checked and looked for, its
    # one-time secrets, and whether it is one object (a panel) rather than a list.
    reading: Reading = Reading()
    rows: Rows = Rows()
    writing: Writing = Writing()
    secrets: Secrets = Secrets()
    singleton: Singleton | None = None

    def __post_init__(self) -> None:
        if not self.title:
            object.__setattr__(self, "title", title_of(self.singular))
        if not self.collection:
            object.__setattr__(self, "collection", self.id.partition(".")[2])
        if self.list_key is COLLECTION:
            object.__setattr__(self, "list_key", self.collection.rsplit("/", 1)[-1].replace("-", "_"))
        if self.reading.item.envelope is ONE_OF_COLLECTION:  # named now that the list's is known
            one = Reading(item=Item(envelope=one_of(self.list_key or "")))
            object.__setattr__(self, "reading", self.reading | one)
        if self.fields and self.transitional:  # a state it polls reads as busy (◐), whatever the product's tones say
            from .declared import busy_while

            object.__setattr__(self, "fields", busy_while(self.fields, self.transitional))
        for role, default in (("id", "id"), ("state", "state")):  # the first field of the role, or the convention
            path = next((f.path for f in self.fields if f.has(role) and f.path), default)
            object.__setattr__(self, f"_{role}_field", path)
        if self.fields:
            from .declared import columns_of, details_of

            made = iter(columns_of(self.fields, tuple(c for c in self.columns if isinstance(c, str))))
            object.__setattr__(self, "columns", tuple(next(made) if isinstance(c, str) else c for c in self.columns))
            object.__setattr__(self, "_details", details_of(self.fields))
        elif any(isinstance(c, str) for c in self.columns):
            raise ValueError(f"{self.id}: a column named by key needs the kind's declared fields")
        if self.scope_type == "global" and self.scopes not in (None, (GLOBAL,)):
            raise ValueError(f"{self.id}: a global kind has no scopes to choose")
        if self.delete is not None and not self.delete.mutating:
            raise ValueError(f"{self.id}: a delete is mutating")
        names = {a.name for a in self.actions}
        if any(a.then and a.then not in names for a in self.actions):
            raise ValueError(f"{self.id}: an action's `then` names an action of the kind")

    @property
    def id_field(self) -> str:
        """The key its objects are told apart by: the path of its first field whose role is an id ("id")."""
        path: str = self.__dict__["_id_field"]
        return path

    @property
    def state_field(self) -> str:
        """The key of its state: the path of its first field whose role is a state ("state"); what a row's
        state reads, polls while transitional, and filters by."""
        path: str = self.__dict__["_state_field"]
        return path

    @property
    def detail_fields(self) -> tuple[tuple[str, Callable[[Any], str]], ...]:
        """The detail's lines, (title, reader): made from the declared fields (`declared.details_of`)."""
        details: tuple[tuple[str, Callable[[Any], str]], ...] = self.__dict__.get("_details", ())
        return details

    @property
    def title_in_text(self) -> str:
        """Its title in running text ("2 flexible IPs", "DNS zones"): `nouns.in_text`."""
        from .nouns import in_text

        return in_text(self.title)

    def named(self, row: Row) -> str:
        """What the operator calls one of its objects: its label where its name does not tell it apart (a
        record unnamed at the zone's root is `@ A …`: `Staged.label`), else its name, else its id."""
        label = self.writing.staged.label if self.writing.staged is not None else None
        return (label(row.data) if label is not None else "") or str(row.name or row.id or "")

    def counted(self, n: int) -> str:
        """A count of it in running text: "1 bare-metal server", "2 bare-metal servers"."""
        return f"{n:,} {self.singular if n == 1 else self.title_in_text}"

    @property
    def all_scopes(self) -> tuple[str, ...]:
        return self.scopes if self.scopes is not None else SCOPES[self.scope_type]

    def make_row(self, data: dict[str, Any]) -> Row:
        return self.row_maker()(data)

    def row_maker(self, scope: str | None = None) -> Callable[[dict[str, Any]], Row]:
        """A function from a listed item to its Row, with this kind's settings bound once (it runs
        for every item of every page). Rows of a zone or region without one get `scope`; secret
        fields never reach a row."""
        fields, summarize, moving = self.rows.row_fields, self.rows.summarize, self.rows.moving
        if fields:  # and what the operator's own columns read (`own_columns`)
            fields = (*fields, *(k for k in kept(self) if k not in fields))
        state_field, secrets, id_field = self.state_field, self.secrets.fields, self.id_field
        where = "zone" if self.scope_type == "zone" else "region" if self.scope_type == "region" else None
        fill_scope = scope if scope and scope != ALL and where else None
        # A catalogue repeats its names in every scope: with all scopes listed, its rows are told
        # apart by scope (the row's id only: what it says, and the paths, keep its own id).
        scoped_ids = (self.reading.per_scope or self.paging == "whole") and fill_scope is not None

        shared = SharedValues(f for f in fields if f not in secrets) if fields else None

        def make(data: dict[str, Any]) -> Row:
            slim = {k: data[k] for k in fields if k in data} if fields else dict(data)
            for k in secrets:
                slim.pop(k, None)
            if shared is not None:
                shared.share(slim)
            if summarize is not None or moving is not None:
                derive_fields(slim, data, summarize, moving)
            if fill_scope is not None and where is not None and not slim.get(where):
                slim[where] = fill_scope
            row = Row(slim, state_field, id_field)
            if scoped_ids:
                row.id = f"{fill_scope}/{row.id}"
            return row

        return make

    # ---- paths ----------------------------------------------------------------------------------
    def base(self, scope: str) -> str:
        if self.scope_type == "zone":
            return f"/{self.api}/zones/{segment(scope)}"
        if self.scope_type == "region":
            return f"/{self.api}/regions/{segment(scope)}"
        return f"/{self.api}"

    def under(self, scope: str, *parts: str) -> str:
        """A path under the product base: `under("fr-par-1", "products", "servers")`."""
        return "/".join([self.base(scope), *(p.strip("/") for p in parts if p)])

    def list_path(self, scope: str, parent: ParentRef | None = None) -> str:
        p = self.parent
        if p is not None and p.list_path:
            if parent is None:
                raise ValueError(f"{self.id} is listed under a {p.kind}: open it from one")
            return self.under(scope, fill(p.list_path, parent.ids()))
        return self.under(scope, self.collection)

    def list_query(self, context: Context | None, parent: ParentRef | None = None) -> dict[str, Any]:
        listed = self.reading.list_params
        params = listed.build(context) if context is not None else dict(listed.fixed)
        if self.parent is not None and self.parent.query:
            if parent is None:
                raise ValueError(f"{self.id} is listed under a {self.parent.kind}: open it from one")
            params[self.parent.query] = parent.id
        return params

    def own_id(self, rid: str) -> str:
        """A row's id as the platform knows it: a catalogue's rows carry their scope too (`row_maker`)."""
        return (rid.partition("/")[2] or rid) if self.reading.per_scope or self.paging == "whole" else rid

    def item_path(self, scope: str, rid: str, parent: ParentRef | None = None) -> str:
        p = self.parent
        rid = self.own_id(rid)
        item = self.reading.item
        if item.key is not None:
            rid = item.key(rid)
        if item.template:
            return self.under(scope, fill(item.template, {"id": rid}))
        if p is not None and p.item_path:
            return self.under(scope, fill(p.item_path, {"id": rid, **(parent.ids() if parent else {"parent": None})}))
        if self.singleton:
            return self.under(scope, self.collection)
        return self.list_path(scope, parent) + "/" + segment(rid)

    def call_path(self, call: Call, scope: str, row: Row, parent: ParentRef | None = None) -> str:
        data = dict(row.data) if isinstance(row, Row) else dict(getattr(row, "raw", {}) or {})
        data["id"] = row.id
        data.update(parent.ids() if parent else {"parent": None, "grandparent": None})
        if call.url_field is not None:  # an address from the API: used as given, only checked
            url = str(data.get(call.url_field) or "")
            if not url.startswith(("https://", "http://")) or any(c.isspace() for c in url):
                raise ValueError(f"this {self.singular} has no {call.url_field.replace('_', ' ')} address to call yet")
            return url.rstrip("/") + fill(call.path, data)
        if call.path.startswith("{id}"):  # relative to the item's own path
            return self.item_path(scope, row.id, parent) + fill(call.path[len("{id}") :], data)
        return self.under(scope, fill(call.path, data))

    def is_transitional(self, row: Row) -> bool:
        return row.state in self.transitional or row.data.get("_moving") is True

    def scope_of(self, row: Row) -> str:
        if self.scope_type == "global":
            return GLOBAL
        data = row.data if isinstance(row, Row) else getattr(row, "raw", {})
        return as_text(data.get(self.scope_type))


def kinds_of(**defaults: Any) -> Callable[..., ResourceKind]:
    """A product's defaults for its kinds (product, API prefix, scope type, paging, page size, model...):
    a kind says only what differs; an argument given wins (a group of options, option by option:
    `kind_options`). A name that is no field of a kind is refused at once."""
    unknown = sorted(defaults.keys() - set(fields(ResourceKind)))
    if unknown:
        raise TypeError(f"kinds_of: ResourceKind has no field {', '.join(map(repr, unknown))}")

    def kind(**fields: Any) -> ResourceKind:
        return ResourceKind(**over(defaults, fields))

    return kind
