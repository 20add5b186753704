"""The options of a kind that only some kinds need, in named groups (`ResourceKind.reading`, `rows`,
`writing`), and the records of features a kind may have (`Item`, `Lookup`, `Cost`, `FileFormat`,
`Secrets`, `Singleton`). A kind gives a group only when it differs from the platform's
convention — listed at its collection, one object at `collection/{id}`, rows holding the object as
listed, written with a plain confirm, no secret — and within it only what differs.

A group keeps which options were given: a product's defaults (`kinds_of(reading=Reading(list_params=BY_PROJECT))`)
and a kind's own (`reading=Reading(item=Item(fetch=False))`) combine option by option (`|`), the kind's
winning, so a kind may also give an option back its usual value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, ClassVar

from ...records import record
from .lazy import Lazy
from .location import PLATFORM, Endpoint, ListParams, Probe

if TYPE_CHECKING:
    from .base import ActionSpec


def _never(_: Any) -> None:
    return None


class Options:
    """A group of options: each given one is set, the others keep the class's default."""

    names: ClassVar[tuple[str, ...]] = ()
    given: frozenset[str]  # the options given (set once, in __init__)

    def __init__(self, **given: Any) -> None:
        unknown = sorted(given.keys() - set(self.names))
        if unknown:
            raise TypeError(f"{type(self).__name__} has no option {', '.join(map(repr, unknown))}")
        defaults = type(self).__dict__  # held by the instance: a default function is not bound as a method
        self.__dict__.update({n: defaults[n] for n in self.names}, **given)
        self.__dict__["given"] = frozenset(given)

    def __init_subclass__(cls) -> None:
        cls.names = tuple(n for n in cls.__annotations__ if n not in ("names", "given"))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __or__(self, other: Options) -> Any:
        """These options, with the ones `other` gives over them (a group within a group, option by option)."""
        if type(other) is not type(self):
            return NotImplemented
        merged = {n: getattr(self, n) for n in self.given}
        for n in other.given:
            mine, theirs = merged.get(n), getattr(other, n)
            merged[n] = mine | theirs if isinstance(mine, Options) and type(mine) is type(theirs) else theirs
        return type(self)(**merged)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{n}={getattr(self, n)!r}' for n in sorted(self.given))})"


def over(defaults: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """A kind's arguments: `defaults` with what is `given` over them, a group of options option by option."""
    return {
        **defaults,
        **{k: defaults[k] | v if isinstance(v, Options) and k in defaults else v for k, v in given.items()},
    }


RESOURCE: Lazy[Any] = Lazy("tui.products.kit.models:Resource")  # the lenient model every detail reads by default
ONE_OF_COLLECTION = "<one of the collection>"  # one object's envelope: `{"server": …}` (`Item.envelope`)


class Item(Options):
    """How one object is read by id, where it differs from the platform's convention (a GET of the list
    path + its id, answered bare, read with the lenient model): `fetch` False where there is no such GET
    (the detail shows the listed object); the `envelope` it is answered under (`{"server": {...}}`, or
    ONE_OF_COLLECTION where a product wraps each object under the singular of its list's envelope); the
    pydantic `model` a detail reads it with; at `template` under the base ("server-type/{id}"); by the
    path segment `key(row key)` gives, for rows keyed by more than the paths name (a zone's certificates:
    by zone and creation time); a 403, not a 404, answered for one deleted (`forbidden_is_gone`)."""

    fetch: bool = True
    envelope: str | None = None
    model: Lazy[Any] = RESOURCE
    template: str | None = None
    key: Callable[[str], str] | None = None
    forbidden_is_gone: bool = False


@record(frozen=True, eq=False)
class Lookup:
    """What rows get from other endpoints (the names of what they reference): `listed`, a `Lazy` of
    `async (service, scope, rows) -> None` adding fields to listed rows; `detail`, the same for the detail
    only (names no column shows, read when a detail opens rather than with every listing); `names_from`,
    the kind whose names `listed` looks up (`service.names_of`: read alongside the list's first page, once
    per refresh cycle, rather than after it)."""

    listed: Lazy[Any] | None = None
    detail: Lazy[Any] | None = None
    names_from: Lazy[Any] | None = None


class Order(Options):
    """The order a list opens in and where a row made here goes, where they differ from the API's: `by`, a
    column's key and whether reversed (`("created", True)`: a timeline, newest first); `newest_first`, the
    API lists the newest first, so one created here is shown at the top, where a listing puts it."""

    by: tuple[str, bool] | None = None
    newest_first: bool = False


class Reading(Options):
    """How its objects are listed and read, where they differ from the product's convention."""

    page_size: int | None = None  # None: the paging style's largest page
    list_params: ListParams = ListParams()
    probe: Probe | None = None  # the cheap change probe, or none (a full re-list each slow tick)
    endpoint: Endpoint = PLATFORM  # which API: the platform's, or the generative-model API
    item: Item = Item()  # how one object is read by id, where the product differs (`Item`)
    per_scope: bool = False  # a catalogue: the same names in every zone (rows told apart by it: `fr-par-1/M2-M`)
    order: Order = Order()  # the order a list opens in, and where a row made here goes (`Order`)


class Cost:
    """What a resource costs a month, estimated from a price list the platform publishes: the row's
    `key` field names an entry of the `catalogue` kind (listed in the row's zone or region) whose `match`
    field holds it; `monthly(entry)` is that entry's monthly price in euros (None: not priced); `source`
    names the price list, said with every estimate. `idle`: states in which what is billed may be less
    than the price (a powered-off instance): such rows are counted, and said apart."""

    def __init__(
        self,
        key: str,
        catalogue: Lazy[Any],
        match: str,
        monthly: Callable[[Any], float | None],
        source: str,
        idle: tuple[str, ...] = (),
    ) -> None:
        self.key, self.catalogue, self.match, self.monthly, self.source = key, catalogue, match, monthly, source
        self.idle = idle


class FileFormat:
    """A standard file a list is written as, beside CSV and JSON (a DNS zone file): `dump` is a `Lazy`
    of `(rows, parent) -> str`, `name` what it is called, `suffix` its file name's ending.

    With `load` and `key` a file is read back into a staged list (`products.kit.file_plan`): `load` is a
    `Lazy` of `(text, parent) -> [object as created]` (run in a worker thread; a file it refuses raises
    `flows.Refused`), `key` of `(object, parent) -> hashable`, what tells an object read and a row's data
    apart (a record's name, type and data). What the file lacks is staged as deletes, what it adds as
    creates, and an object whose `fields` (what else the file carries: a record's TTL) differ from its
    row's as a change. `holds` (`(row) -> bool`): a row the file can hold — others are never deleted,
    nor an object standing for one staged. `where` (`(text, object read) -> str`): where it stands in
    the file ("line 7: …"). `vital` (`(row) -> str | None`): what deleting the row takes away, said
    before anything is staged (a zone's own name servers)."""

    def __init__(
        self,
        name: str,
        suffix: str,
        dump: Lazy[Any],
        load: Lazy[Any] | None = None,
        key: Lazy[Any] | None = None,
        fields: tuple[str, ...] = (),
        holds: Lazy[Any] | None = None,
        where: Lazy[Any] | None = None,
        vital: Lazy[Any] | None = None,
    ) -> None:
        self.name, self.suffix, self.dump, self.load, self.key, self.holds = name, suffix, dump, load, key, holds
        self.fields, self.where, self.vital = fields, where, vital


class Rows(Options):
    """What a listed row holds beyond the object as listed: kept keys, derived fields, names looked up."""

    row_fields: tuple[str, ...] = ()  # keys a list row keeps; empty keeps them all (but secrets)
    summarize: Callable[[dict[str, Any]], dict[str, Any]] | None = None  # derived row fields
    # Parts of a resource that move while the resource itself does not (a NIC syncing on a running
    # server): a row for which this says True is polled like a transitional one.
    moving: Callable[[dict[str, Any]], bool] | None = None
    lookup: Lookup = Lookup()  # fields added from other endpoints (`Lookup`)
    # `async about(service, scope) -> str`: a line under the list, read from the API with it (the
    # service's name and version; what a list's flags say).
    about: Lazy[Any] | None = None
    # A monthly estimate from a published price list (`Cost`): `$` on a list or in a detail.
    cost: Cost | None = None
    # A standard file the list is also exported as (`FileFormat`: a zone file), `E` on the list.
    file: FileFormat | None = None


@record(frozen=True, eq=False)
class Deleting:
    """The delete feature, where a kind's differs from a plain confirm-then-delete: `needs_name`, a delete
    that loses data, its name typed to confirm; `warning`, what else it takes away, from the row (or a
    `Lazy` of `async (service, scope, row)`, read before asking); `flow`, a flow that replaces the plain
    confirm-and-delete (a server's: its volumes kept or not)."""

    needs_name: bool = False
    warning: Callable[[Any], str | None] | Lazy[Any] = _never
    flow: Lazy[Any] | None = None


@record(frozen=True, eq=False)
class Staged:
    """The staged-editing feature: create, edit and delete are staged in a ChangeSet and sent together by
    `batch`, a `Lazy` of `async (service, scope, changes, rows) -> str | None` (DNS records; any whole-list
    PUT) — after a lost answer it returns what the look found applied, or says the look (`outcome.judged`),
    and changes marked unknown are looked for before a send. `rule`: a rule between the objects of a staged
    list, `(rows, changed) -> (index, why) | None`, the first of `rows` (as staged) at the positions
    `changed` that breaks it among the others, in one pass (an undo or a review that would break it is
    refused: a CNAME stands alone at its name; the form checks the same rule itself). `label`: an object's
    name in a review, when its name does not tell it apart."""

    batch: Lazy[Any]
    rule: Lazy[Any] | None = None
    label: Callable[[dict[str, Any]], str] | None = None


class Refuses(Options):
    """Why a change is refused before anything is sent, each None when it is not: `delete(row)` and
    `edit(row)`, from the row (a running server, a public image); `locked(parent)`, every change of a
    child list, from its parent (records of a zone whose name servers are elsewhere)."""

    delete: Callable[[Any], str | None] = _never
    edit: Callable[[Any], str | None] = _never
    locked: Callable[[Any], str | None] = _never


class Writing(Options):
    """How writes are checked, confirmed, sent and looked for, where a kind differs from a plain
    create at the list path, edit and confirm-then-delete."""

    refuses: Refuses = Refuses()  # why an edit, a delete or any change is refused, where some are
    deleting: Deleting = Deleting()  # the delete, where it differs from a plain confirm-then-delete
    # The list filter by name, used to look whether a create whose answer was lost happened.
    name_param: str | None = None
    staged: Staged | None = None  # its lists are edited as staged changes, sent together (`Staged`)


def data_lost(
    warning: str | Callable[[Any], str | None] | None = None, flow: Lazy[Any] | None = None, **more: Any
) -> Writing:
    """The writes of a kind whose delete loses data: confirmed with the name typed, saying what else
    goes with it (`warning`: a sentence, or one made from the row), or asked by its own `flow`; the rest
    as `Writing` takes it."""
    said = warning if warning is None or callable(warning) else (lambda r: warning)
    return Writing(deleting=Deleting(True, said or _never, flow), **more)


@record(frozen=True, eq=False)
class Secrets:
    """The one-time secrets feature: fields the platform answers once (a password, a token), stripped
    from rows, JSON and logs, shown once on request."""

    fields: tuple[str, ...] = ()
    # The action that gives a new one-time secret (a password reset), said when a create's answer,
    # and the secret in it, was lost; without one the operator is told to delete and create again.
    renewal: str = ""
    # Fields of the same answer shown plainly beside its one-time secrets (the dashboard's login and address).
    extras: tuple[str, ...] = ()
    # `once_view(row, secrets, extras, parent) -> (secrets, extras)`: what the one-time dialog shows,
    # when more than the fields themselves (a token's push configuration, made with its secret).
    once_view: Lazy[Any] | None = None


@record(frozen=True, eq=False)
class Singleton:
    """The panel feature: the collection path is one object (a product's page, shown as a panel), not a list."""

    # One that may not exist yet (monitoring before activation): its GET answers 404 and the panel
    # says `absent` and offers `absent_actions` (Activate) instead of the object's.
    absent: str | None = None
    absent_actions: tuple[ActionSpec, ...] = ()
