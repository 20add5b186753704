"""What a look finds after a write whose answer was lost (a timeout after sending, a 5xx, an unreadable
2xx body): the platform may have applied it, and sending it again could make a duplicate, so the
read that tells what happened is made and what it found is said (`Found`). Plain async reads over a
ResourceService (no Textual, no journal: the write pipeline, `writes`, records what was found)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable
from urllib.parse import quote

from ...api.errors import ApiError, NotFound, OutcomeUnknown
from ...records import record
from .base import Row
from .diff import changes
from .rows import called_with_id

if TYPE_CHECKING:
    from .base import ResourceKind
    from .service import ResourceService


@record(frozen=True, eq=False)
class Found:
    """What a look found: `row` (None when it is not there) and one line saying so."""

    row: Row | None
    says: str
    applied: bool | None  # True: it happened; False: it did not; None: cannot tell
    error: OutcomeUnknown | None = None  # the lost answer the look was made after

    @property
    def told(self) -> str:
        """What the operator is told: the error, and what looking found."""
        return f"{self.error.summary}\nLooked again: {self.says}." if self.error is not None else self.says

    def after(self, err: OutcomeUnknown) -> Found:
        """This, as found after `err`."""
        return Found(self.row, self.says, self.applied, err)


def identity(kind: ResourceKind, payload: dict[str, Any]) -> dict[str, Any]:
    """What tells the object a create made from the others in a fresh listing: the kind's own
    `identity(payload)` when it declares one (a payload that wraps the object: `{"rules": [...]}`),
    else its id field when the payload names it (a setting, an attachment by network), else its name,
    else every plain value sent (a flexible IP's server and description)."""
    spec = kind.create.get() if kind.create is not None else None
    if spec is not None and spec.identity is not None:
        try:
            found = spec.identity(payload)
        except (KeyError, IndexError, TypeError):
            found = None
        return dict(found) if isinstance(found, dict) else {}
    if _plain(payload.get(kind.id_field)):
        return {kind.id_field: payload[kind.id_field]}
    name = payload.get("name")
    if isinstance(name, str) and name:
        return {"name": name}
    return {k: v for k, v in payload.items() if _plain(v) and v != ""}


def _plain(value: object) -> bool:
    return isinstance(value, (str, int, float, bool)) and value != ""


def holds_sent(row: Row, ident: dict[str, Any], id_field: str) -> bool | None:
    """Whether `row` holds what was sent: True/False on the fields it shows, None when it shows none."""
    seen = False
    for key, value in ident.items():
        have = row.id if key == id_field else row.data.get(key, _ABSENT)
        if have is _ABSENT:
            continue
        seen = True
        if have != value and str(have) != str(value):
            return False
    return True if seen else None


_ABSENT = object()


async def after_create(service: ResourceService, scope: str, payload: dict[str, Any], known: Iterable[str]) -> Found:
    """Was it created? Look, in a fresh listing, for an object that was not there before and holds
    what identifies the one sent (see `identity`); "cannot tell" only when nothing identifies it."""
    kind = service.kind
    ident = identity(kind, payload)
    if not ident:
        return Found(
            None,
            "nothing sent identifies it, so cloudtui cannot tell whether it was created: "
            "refresh (r) and look before creating again",
            None,
        )
    name = ident.get("name")
    params = {kind.writing.name_param: name} if kind.writing.name_param and isinstance(name, str) else None
    try:
        rows = await service.list_rows(scope, params)
    except ApiError as err:
        return Found(
            None, f"looking for it failed too ({err.summary}): refresh (r) and look before creating again", None
        )
    seen = set(known)
    verdicts = [(r, holds_sent(r, ident, kind.id_field)) for r in rows if r.id not in seen]
    fresh = [r for r, ok in verdicts if ok]
    what = ", ".join(f"{k} {v}" for k, v in ident.items())
    if fresh:
        row = fresh[-1]
        return Found(row, f"it was created after all: {called_with_id(row)}", True)
    if rows and all(holds_sent(r, ident, kind.id_field) is None for r in rows):
        return Found(
            None,
            f"the listing does not show {', '.join(ident)}, so cloudtui cannot tell whether it was created: "
            "refresh (r) and look before creating again",
            None,
        )
    if verdicts:  # something new but not as sent (someone else's, renamed, an answer that differs): not "not created"
        others = ", ".join(called_with_id(r) for r, _ in verdicts[:3]) + (" …" if len(verdicts) > 3 else "")
        return Found(
            None,
            f"nothing new with {what} appeared, but {len(verdicts)} new {kind.singular}(s) did "
            f"({others}), so cloudtui cannot tell whether it was created: refresh (r) and look before "
            "creating again",
            None,
        )
    return Found(None, f"nothing new with {what} appeared: it was not created, and may be created again", False)


async def after_delete(service: ResourceService, scope: str, rid: str) -> Found:
    """Is it gone?"""
    try:
        row = await service.get_row(scope, rid)
    except NotFound:
        return Found(None, "it is gone: the delete was applied", True)
    except ApiError as err:
        return Found(
            None, f"looking for it failed too ({err.summary}): refresh (r) to see whether it is still there", None
        )
    if service.kind.is_transitional(row):  # (deleting): the delete may be under way; followed until it goes
        return Found(
            row,
            f"it is {row.state or 'moving'} now: the delete may be under way; it is followed "
            "until it goes — do not delete it again",
            None,
        )
    state = f" ({row.state})" if row.state else ""
    return Found(row, f"it is still there{state}: the delete was not applied", False)


async def after_update(service: ResourceService, scope: str, rid: str, patch: dict[str, Any]) -> Found:
    """Does it now hold what was sent? Fields the API never shows back (a password) cannot say."""
    try:
        data = await service.get_data(scope, rid)
    except ApiError as err:
        return Found(None, f"looking at it failed too ({err.summary}): refresh (r) and check before saving again", None)
    row = service.row_of(data, scope)
    differs = [k for k, v in patch.items() if k in data and data[k] != v]
    if differs:
        return Found(row, f"it was not changed ({', '.join(differs)} still as before)", False)
    unseen = [k for k in patch if k not in data]
    if unseen:
        return Found(
            row,
            f"the API never shows {', '.join(unseen)} back, so cloudtui cannot tell whether it changed; "
            "sending the same again is harmless",
            None,
        )
    return Found(row, "it now holds what was sent: the change was applied", True)


async def after_action(
    service: ResourceService,
    scope: str,
    rid: str,
    before: str | None = None,
    moves_to: frozenset[str] = frozenset(),
    advice: str = "",
    was: dict[str, Any] | None = None,
) -> Found:
    """What state is it in now? A state alone rarely says whether the request was applied (a
    renewed certificate, a snapshot made of it), unless the action declares the states it puts the
    resource in at once (`moves_to`): in one of them it was applied, still `before` it was not — unless it
    comes back there when done (a reboot: it says so in its `advice`), when the state cannot tell.
    Otherwise the state is said with `advice` (what to do when no look can tell), or "check", and what
    changed since `was` (the object as read before); an action applied says its `advice` too (what
    its lost answer carried: a one-time password)."""
    try:
        row = await service.get_row(scope, rid)
    except NotFound:  # gone, unless the action was to bring it to a state (an activation): then not applied
        return (
            Found(None, "it is not there: it was not applied, and may be asked again", False)
            if moves_to
            else Found(None, "it is gone", True)
        )
    except ApiError as err:
        return Found(None, f"looking at it failed too ({err.summary}): refresh (r) and check", None)
    state = row.state or "in an unknown state"
    if moves_to and row.state in moves_to:
        return Found(row, f"it is now {state}: it was applied" + (f"; {advice}" if advice else ""), True)
    if moves_to and before is not None and row.state == before and not advice:
        return Found(row, f"it is still {state}: it was not applied, and may be asked again", False)
    moved = changes(was, row.data)
    since = f"; changed since it was sent: {moved} —" if moved else ", which does not tell whether it was applied:"
    if before is not None and row.state == before:
        return Found(row, f"it is still {state}{since} " + (advice or "check its details before repeating"), None)
    since = f"; changed since it was sent: {moved} —" if moved else ", which may not say whether it was applied:"
    return Found(row, f"it is now {state}{since} " + (advice or "check before repeating"), None)


async def after_lost(
    err: OutcomeUnknown,
    service: ResourceService,
    scope: str,
    rows: list[Any],
    moves_to: frozenset[str] = frozenset(),
    advice: str = "",
) -> Found:
    """A write on `rows` lost its answer (a verb, or a step of a conversation): the one row it acted
    on is read again and its state said (`after_action`); several rows cannot be told apart by one
    look: the list is to be read again (`row` None, `applied` None)."""
    if len(rows) != 1:
        return Found(None, "the list is read again: check it before repeating", None, err)
    first = rows[0]
    if err.method == "DELETE" and str(err.url or "").rstrip("/").endswith("/" + quote(str(first.id), safe="")):
        return (await after_delete(service, scope, first.id)).after(err)  # the row's own delete: is it gone?
    found = await after_action(
        service, scope, first.id, getattr(first, "state", None), moves_to, advice, was=getattr(first, "data", None)
    )
    return found.after(err)


async def read_back(
    err: OutcomeUnknown, service: ResourceService, scope: str, rid: str, holds: Callable[[Row], bool]
) -> Found:
    """A part of an object was sent (one step of an edit sent as several) and its answer lost: read the
    object again; applied when it `holds` what was sent, not when it does not; cannot tell when reading fails."""
    try:
        row = await service.get_row(scope, rid)
    except ApiError as again:
        return Found(None, f"reading it again failed too ({again.summary}): check before saving again", None, err)
    if holds(row):
        return Found(row, "it now holds what was sent: it was applied", True, err)
    return Found(row, "it does not hold what was sent: it was not applied", False, err)
