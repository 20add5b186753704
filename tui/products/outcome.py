"""After a write whose outcome is unknown (timeout after sending, 5xx, unreadable 2xx body): look.

The platform may have applied it. Re-sending would risk a duplicate, so each write is followed by
the read that tells what happened, and the operator is told what was found. This module is the one
place that happens: plain async functions over a ResourceService (no Textual), used by the console's
create, edit, delete and action paths, whole-set editors, pickers, staged batches and product flows.
`create`, `update`, `delete`, `act` and `send` write and, when the answer is lost, look; `after_lost`
looks after a conversation's step lost its answer, `read_back` after a part of an edit did; `send_whole`
sends a whole set and reads it again; `judged` turns a product's own look (a batch's) into what is said.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable, Iterable
from urllib.parse import quote

from ..records import record
from ..api import journal
from ..api.errors import ApiError, NotFound, OutcomeUnknown
from .base import Call, Row
from .diff import changes
from .rows import called_with_id


class Looked(ApiError):
    """A write with an unknown outcome, and what looking found: it was not applied, or cloudtui
    cannot tell. Raised into the form that sent it, which stays open with what was typed."""

    def __init__(self, err: ApiError, found: str, applied: bool | None = None) -> None:
        super().__init__(err.status, f"{err.message}. Looked again: {found}", err.type, err.body, err.method, err.url)
        self.applied = applied  # False: it was not applied; None: cloudtui cannot tell

    @property
    def hint(self) -> str:
        return "Nothing is re-sent on its own; submit again only if what was found says it is safe."


@record
class Found:
    """What a look found: `row` (None when it is not there) and one line saying so."""

    row: Row | None
    says: str
    applied: bool | None  # True: it happened; False: it did not; None: cannot tell
    error: Any = None  # the lost answer (an OutcomeUnknown) the look was made after

    def __post_init__(self) -> None:
        journal.looked(self.says, self.applied)  # the last write of this task, if its answer was lost

    @property
    def told(self) -> str:
        """What the operator is told: the error, and what looking found."""
        return f"{self.error.summary}\nLooked again: {self.says}." if self.error is not None else self.says


class NotApplied(Exception):
    """A batch whose answer was lost looked, and found its changes not applied: they stay staged;
    the message says what was seen."""


class OutcomeUnclear(Exception):
    """A batch was sent, its answer lost, and looking could not tell whether it was applied (the look
    failed too, or what it saw cannot say): the changes stay staged, marked unknown (`?`). The next
    send of a kind's batch looks first, and sends only what the resource does not already hold."""


class PartlySent(Exception):
    """A batch sent as several requests (more changes than one request carries) stopped after some
    were applied: the changes `applied` (their keys) are done; those `unknown` went in a request whose
    answer was lost and that no look could tell — they may be; the rest were not sent. The message says
    what was applied and what stopped it; what was not applied stays staged."""

    def __init__(self, message: str, applied: list[str], unknown: list[str] | None = None) -> None:
        super().__init__(message)
        self.applied, self.unknown = applied, unknown or []


def identity(kind: Any, payload: dict[str, Any]) -> dict[str, Any]:
    """What tells the object a create made from the others in a fresh listing: the kind's own
    `identity(payload)` when it declares one (a payload that wraps the object: `{"rules": [...]}`),
    else its id field when the payload names it (a setting, an attachment by network), else its name,
    else every plain value sent (a flexible IP's server and description)."""
    if kind.writing.identity is not None:
        try:
            found = kind.writing.identity(payload)
        except (KeyError, IndexError, TypeError):
            found = None
        return dict(found) if isinstance(found, dict) else {}
    if _plain(payload.get(kind.id_field)):
        return {kind.id_field: payload[kind.id_field]}
    name = payload.get("name")
    if isinstance(name, str) and name:
        return {"name": name}
    return {k: v for k, v in payload.items() if _plain(v) and v != ""}


def _plain(value: Any) -> bool:
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


async def after_create(service: Any, scope: str, payload: dict[str, Any], known: Iterable[str]) -> Found:
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


async def after_delete(service: Any, scope: str, rid: str) -> Found:
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


async def after_update(service: Any, scope: str, rid: str, patch: dict[str, Any]) -> Found:
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
    service: Any,
    scope: str,
    rid: str,
    before: str | None = None,
    moves_to: frozenset[str] = frozenset(),
    advice: str = "",
    was: Any = None,
) -> Found:
    """What state is it in now? A state alone rarely says whether the request was applied (a
    renewed certificate, a snapshot made of it), unless the action declares the states it puts the
    resource in at once (`moves_to`): in one of them it was applied, still `before` it was not.
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
    if moves_to and before is not None and row.state == before:
        return Found(row, f"it is still {state}: it was not applied, and may be asked again", False)
    moved = changes(was, row.data)
    since = f"; changed since it was sent: {moved} —" if moved else ", which does not tell whether it was applied:"
    if before is not None and row.state == before:
        return Found(row, f"it is still {state}{since} " + (advice or "check its details before repeating"), None)
    since = f"; changed since it was sent: {moved} —" if moved else ", which may not say whether it was applied:"
    return Found(row, f"it is now {state}{since} " + (advice or "check before repeating"), None)


# ---- write, and look when the answer is lost ------------------------------------------------------
async def create(service: Any, scope: str, payload: dict[str, Any], known: Iterable[str]) -> tuple[Row, str | None]:
    """Create, and when the answer is lost, look (`after_create`, with the ids `known` before
    sending): (the row, None) when answered, (the row found, what the look said) when it was
    created after all; `Looked` (an ApiError) when it was not, or cloudtui cannot tell."""
    try:
        return await service.create(scope, payload), None
    except OutcomeUnknown as err:
        found = await after_create(service, scope, payload, known)
        if found.applied and found.row is not None:
            return found.row, lost(err, found)
        raise Looked(err, found.says, found.applied) from None


async def send(
    service: Any, call: Call, scope: str, row: Any, body: dict[str, Any] | None = None, made: Any = None
) -> tuple[dict[str, Any], str | None]:
    """One verb of `row` with `body` (see `ResourceService.run`), and when the answer is lost, a look:
    an edit (PATCH, PUT) is read back and compared with what was sent; a verb that creates an object
    of another kind (`made`, its service) looks for it as a create does; anything else reports the
    state found. (the answer, None), or ({}, what the look said) when it was applied; `Looked` when
    it was not or cloudtui cannot tell."""
    known = None
    if made is not None:  # what is there before: an older one named alike is not taken for it
        try:
            known = [r.id for r in await made.list_rows(scope)]
        except ApiError:
            known = None  # the look then says the state of the row, as for any verb
    try:
        return await service.run(call, scope, row, body), None
    except OutcomeUnknown as err:
        sent = {**(call.body_for(row, service.context_for(scope)) or {}), **(body or {})}
        if made is not None and known is not None:
            found = await after_create(made, scope, sent, known)
        elif call.method in ("PATCH", "PUT") and call.path in ("{id}", ""):
            found = await after_update(service, scope, row.id, sent)
        else:
            found = await after_action(
                service, scope, row.id, getattr(row, "state", None), was=getattr(row, "data", None)
            )
        if found.applied:
            return {}, lost(err, found)
        raise Looked(err, found.says, found.applied) from None


def lost(err: ApiError, found: Found) -> str:
    """What the operator is told when a write's answer was lost and the look found it applied."""
    return f"{err.summary}\nLooked again: {found.says}."


async def update(
    service: Any, scope: str, row: Row, patch: dict[str, Any], method: str = "PATCH"
) -> tuple[Row, str | None]:
    """Save `patch` on `row`; when the answer is lost, read it back (`after_update`): (the row, None)
    when answered, (the row read, what the look said) when it holds what was sent; `Looked` when not."""
    try:
        return await service.update(scope, row.id, patch, method), None
    except OutcomeUnknown as err:
        found = await after_update(service, scope, row.id, patch)
        if found.applied and found.row is not None:
            return found.row, lost(err, found)
        raise Looked(err, found.says, found.applied) from None


async def delete(service: Any, scope: str, row: Row) -> Found | None:
    """Delete `row`: None when answered; when the answer is lost, what a look found (`after_delete`)."""
    try:
        await service.delete(scope, row)
    except OutcomeUnknown as err:
        return _after(err, await after_delete(service, scope, row.id))
    return None


async def act(
    service: Any, call: Call, scope: str, row: Row, moves_to: frozenset[str] = frozenset(), advice: str = ""
) -> Found | None:
    """One verb of `row`: None when answered; when the answer is lost, the state found (`after_action`)."""
    try:
        await service.run(call, scope, row)
    except OutcomeUnknown as err:
        return await after_lost(err, service, scope, [row], moves_to, advice)
    return None


async def after_lost(
    err: OutcomeUnknown,
    service: Any,
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
        return _after(err, await after_delete(service, scope, first.id))  # the row's own delete: is it gone?
    found = await after_action(
        service, scope, first.id, getattr(first, "state", None), moves_to, advice, was=getattr(first, "data", None)
    )
    return _after(err, found)


async def send_whole(
    service: Any,
    call: Call,
    scope: str,
    row: Row,
    body: dict[str, Any],
    read: Callable[[], Awaitable[Any]],
    holds: Callable[[Any], bool],
) -> tuple[dict[str, Any], str | None]:
    """Send a whole set (`body`, by `call`); when the answer is lost, read the set again (`read`):
    ({}, what to say) when it `holds` what was sent; `Looked` when it does not, or reading failed too."""
    answer, told = await checked(service.run(call, scope, row, body), read, holds, "the set")
    return (answer, None) if told is None else ({}, told)


async def checked(
    sending: Awaitable[Any], read: Callable[[], Awaitable[Any]], holds: Callable[[Any], bool], what: str
) -> tuple[Any, str | None]:
    """`sending` awaited; when its answer is lost, `what` it changed read again (`read`) and compared
    (`holds`): (the answer, None) when answered; (what was read, what to say) when it holds what was
    sent; `Looked` when it does not, or reading failed too (a form or an editor stays open then)."""
    try:
        return await sending, None
    except OutcomeUnknown as err:
        try:
            now = await read()
        except ApiError as again:
            said = f"reading {what} again failed too ({again.summary}): check before saving again"
            journal.looked(said, None)
            raise Looked(err, said) from None
        if not holds(now):
            said = f"{what} is not what was sent: it was not applied"
            journal.looked(said, False)  # its entry says so
            raise Looked(err, said, False) from None
        return now, lost(err, Found(None, f"{what} now holds what was sent: it was applied", True))


async def read_back(err: OutcomeUnknown, service: Any, scope: str, rid: str, holds: Callable[[Row], bool]) -> Found:
    """A part of an object was sent (one step of an edit sent as several) and its answer lost: read the
    object again; applied when it `holds` what was sent, not when it does not; cannot tell when reading fails."""
    try:
        row = await service.get_row(scope, rid)
    except ApiError as again:
        return Found(None, f"reading it again failed too ({again.summary}): check before saving again", None, err)
    if holds(row):
        return Found(row, "it now holds what was sent: it was applied", True, err)
    return Found(row, "it does not hold what was sent: it was not applied", False, err)


def judged(err: OutcomeUnknown, applied: bool | None, saw: str) -> str:
    """A product's own look after a batch lost its answer (`ResourceKind.batch`), said: the text when
    it was applied; `NotApplied` when it was not; `OutcomeUnclear` when the look cannot tell."""
    told = f"{err.summary}\nLooked: {saw}"
    journal.looked(saw, applied)
    if applied is None:
        raise OutcomeUnclear(told) from None
    if not applied:
        raise NotApplied(told) from None
    return told


def _after(err: OutcomeUnknown, found: Found) -> Found:
    return Found(found.row, found.says, found.applied, err)


def tell(ui: Any, done: tuple[Any, str | None], done_said: str) -> None:
    """Say how a write a flow sent ended: what the look found when its answer was lost (a warning),
    else `done_said`."""
    looked = done[1]
    ui.notify(looked or done_said, "warning" if looked else "information")
