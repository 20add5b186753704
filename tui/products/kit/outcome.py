"""A write's steps, each sent through the pipeline (`writes.attempt`) and looked at when its answer is
lost, said the way a form, an editor or a flow needs it: `create`, `update`, `send` (a verb), `act`,
`delete`, `send_whole` (a whole set) and `checked` (anything read back) return what was answered, or
what the look found when it was applied, and raise `Looked` when it was not or no one can tell, so a
form or an editor stays open with what was typed. A service bound to an act (`service.acting(act)`)
journals each request as that act, and its entry says what the look found. `judged` says a batch's
own look (`NotApplied`, `OutcomeUnclear`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Awaitable, Callable, Iterable

from ...api.errors import ApiError, OutcomeUnknown
from .base import Call, Row
from .looks import Found, after_action, after_create, after_delete, after_lost, after_update
from .writes import attempt

if TYPE_CHECKING:
    from ...api.journal import Act
    from .flows import FlowUI
    from .service import ResourceService


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


async def create(
    service: ResourceService, scope: str, payload: dict[str, Any], known: Iterable[str]
) -> tuple[Row, str | None]:
    """Create, and when the answer is lost, look (`after_create`, with the ids `known` before
    sending): (the row, None) when answered, (the row found, what the look said) when it was
    created after all; `Looked` (an ApiError) when it was not, or cloudtui cannot tell."""
    known = list(known)
    done = await attempt(
        service.act, lambda: service.create(scope, payload), lambda _: after_create(service, scope, payload, known)
    )
    if done.lost is None:
        assert done.answer is not None
        return done.answer, None
    return done.found_row(), done.told


async def send(
    service: ResourceService,
    call: Call,
    scope: str,
    row: Row,
    body: dict[str, Any] | None = None,
    made: ResourceService | None = None,
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

    async def look(_: OutcomeUnknown) -> Found:
        sent = {**(call.body_for(row, service.context_for(scope)) or {}), **(body or {})}
        if made is not None and known is not None:
            return await after_create(made, scope, sent, known)
        if call.method in ("PATCH", "PUT") and call.path in ("{id}", ""):
            return await after_update(service, scope, row.id, sent)
        return await after_action(service, scope, row.id, getattr(row, "state", None), was=getattr(row, "data", None))

    done = await attempt(service.act, lambda: service.run(call, scope, row, body), look)
    if done.lost is None:
        return done.answer or {}, None
    done.applied_or_raise()
    return {}, done.told


async def update(
    service: ResourceService, scope: str, row: Row, patch: dict[str, Any], method: str = "PATCH"
) -> tuple[Row, str | None]:
    """Save `patch` on `row`; when the answer is lost, read it back (`after_update`): (the row, None)
    when answered, (the row read, what the look said) when it holds what was sent; `Looked` when not."""
    done = await attempt(
        service.act,
        lambda: service.update(scope, row.id, patch, method),
        lambda _: after_update(service, scope, row.id, patch),
    )
    if done.lost is None:
        assert done.answer is not None
        return done.answer, None
    return done.found_row(), done.told


async def delete(service: ResourceService, scope: str, row: Row) -> Found | None:
    """Delete `row`: None when answered; when the answer is lost, what a look found (`after_delete`)."""
    done = await attempt(
        service.act, lambda: service.delete(scope, row), lambda _: after_delete(service, scope, row.id)
    )
    return done.found


async def act(
    service: ResourceService, call: Call, scope: str, row: Row, moves_to: frozenset[str] = frozenset(), advice: str = ""
) -> Found | None:
    """One verb of `row`: None when answered; when the answer is lost, the state found (`after_action`)."""
    done = await attempt(
        service.act,
        lambda: service.run(call, scope, row),
        lambda err: after_lost(err, service, scope, [row], moves_to, advice),
    )
    return done.found


async def send_whole(
    service: ResourceService,
    call: Call,
    scope: str,
    row: Row,
    body: dict[str, Any],
    read: Callable[[], Awaitable[Any]],
    holds: Callable[[Any], bool],
) -> tuple[dict[str, Any], str | None]:
    """Send a whole set (`body`, by `call`); when the answer is lost, read the set again (`read`):
    ({}, what to say) when it `holds` what was sent; `Looked` when it does not, or reading failed too."""
    answer, told = await checked(service.act, service.run(call, scope, row, body), read, holds, "the set")
    return (answer, None) if told is None else ({}, told)


async def checked(
    act: Act | None,
    sending: Awaitable[Any],
    read: Callable[[], Awaitable[Any]],
    holds: Callable[[Any], bool],
    what: str,
) -> tuple[Any, str | None]:
    """`sending` awaited (a request of `act`); when its answer is lost, `what` it changed read again
    (`read`) and compared (`holds`): (the answer, None) when answered; (what was read, what to say) when it
    holds what was sent; `Looked` when it does not, or reading failed too (a form or an editor stays open)."""

    seen: list[Any] = []  # what the look read

    async def look(_: OutcomeUnknown) -> Found:
        try:
            seen.append(await read())
            now = seen[-1]
        except ApiError as again:
            return Found(None, f"reading {what} again failed too ({again.summary}): check before saving again", None)
        if not holds(now):
            return Found(None, f"{what} is not what was sent: it was not applied", False)
        return Found(None, f"{what} now holds what was sent: it was applied", True)

    async def sent() -> Any:
        return await sending

    done = await attempt(act, sent, look)
    if done.lost is None:
        return done.answer, None
    done.applied_or_raise()
    return seen[-1], done.told


def judged(err: OutcomeUnknown, found: Found) -> str:
    """A product's own look after a batch lost its answer (`ResourceKind.batch`), said: the text when
    it was applied; `NotApplied` when it was not; `OutcomeUnclear` when the look cannot tell."""
    told = f"{err.summary}\nLooked: {found.says}"
    if found.applied is None:
        raise OutcomeUnclear(told) from None
    if not found.applied:
        raise NotApplied(told) from None
    return told


def tell(ui: FlowUI, done: tuple[Any, str | None], done_said: str) -> None:
    """Say how a write a flow sent ended: what the look found when its answer was lost (a warning),
    else `done_said`."""
    looked = done[1]
    ui.notify(looked or done_said, "warning" if looked else "information")
