"""One act on many rows (issue 35: marks and bulk actions): an action that is one request, a delete
or a tag edit, planned, confirmed once, sent a few at a time, and said row by row.

A plan (`Bulk`) splits the marked rows into those it will act on and those it cannot (each with why:
a state that forbids the action, a delete the kind refuses, a tag edit a rule of the kind's own edit
form refuses) before anything is sent. `run` opens the one dialog (`screens.bulk.BulkScreen`) that
lists both, asks (the count typed when data is lost, Cancel focused otherwise), then sends at most
`IN_FLIGHT` requests at once and shows each row's outcome as it comes: done, failed and why, or may
have been applied (the answer was lost and the look could not tell: `products.kit.outcome`). The
dialog stays until dismissed; closed early, the rest is still sent and the end is notified.
Nothing here names a product: every plan is built from the kind's declarations.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import field
from functools import partial
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from ..api.errors import ApiError, OutcomeUnknown
from ..api.safe import clean
from ..api.journal import Act
from ..products.kit import outcome
from ..products.kit.base import ActionSpec, Lazy
from ..products.kit.looks import Found
from ..products.kit.writes import Looked, Write
from ..records import record
from . import asking
from .errors import describe

if TYPE_CHECKING:
    from ..products.kit.base import ResourceKind, Row
    from ..products.kit.flows import ForMany
    from .action_host import ActionHost
    from .flow_ui import ViewFlowUI
    from .screens.bulk import BulkScreen

log = logging.getLogger("cloudtui.ui")
IN_FLIGHT = 4  # requests sent at once: enough to be quick, few enough for the API's rate limits
DONE, FAILED, MAYBE, NOT_SENT = "✓", "✗", "?", "–"
ACCEPTED = "accepted"  # an asynchronous action the platform took on: begun, not over


@record
class Outcome:
    """What came of one row: `mark` (DONE, FAILED or MAYBE), said in `text`; `row` what a look
    found; `gone` when the resource no longer exists (deleted)."""

    mark: str
    text: str
    row: Row | None = None
    gone: bool = False


@record
class Bulk:
    """One act planned on marked rows: `rows` to send it to, `refused` [(row, why)] not sent;
    `send(row)` does it for one. `data_lost`: the count is typed to confirm. `notes` {row id: what
    else it affects} and `said` (one sentence for all) are shown before asking."""

    what: str  # what is done, as a verb: "Power off", "Delete", "Retag"
    rows: list[Row]
    refused: list[tuple[Row, str]]
    send: Callable[[Row, Act], Awaitable[Outcome]]  # one row's requests, journalled as the act given
    data_lost: bool = False
    said: str = ""
    notes: dict[str, str] = field(default_factory=dict)
    stopped: bool = False  # the rest is not sent (the dialog's x)


def failed(err: BaseException) -> Outcome:
    """An error as one row's outcome: a lost answer may have been applied; anything else failed."""
    summary, hint = describe(err)
    if isinstance(err, OutcomeUnknown):
        return Outcome(MAYBE, f"{summary} — it may have been applied: refresh (r) and check before repeating")
    if isinstance(err, Looked):  # a look after a lost answer found it not applied, or cannot tell
        return Outcome(FAILED if err.applied is False else MAYBE, summary)
    if not isinstance(err, ApiError):
        log.error("bulk: %s", summary, exc_info=err)
        return Outcome(FAILED, f"{summary}. {hint}")
    return Outcome(FAILED, f"{summary} — {hint}" if hint else summary)  # the platform's reason, as one row says it


def found(look: Found) -> Outcome:
    """A write whose answer was lost, and what the look found."""
    said = f"the answer was lost; looked again: {look.says}"
    if look.applied:
        return Outcome(DONE, said, look.row, gone=look.row is None)
    return Outcome(FAILED if look.applied is False else MAYBE, said, look.row)


def why_not(spec: ActionSpec, row: Row) -> str | None:
    """Why `spec` cannot act on `row` now, as the one-row menu says it (greyed with its reason)."""
    said = spec.why_not(row)
    if said:
        return said
    return None if spec.available(row) else f"not while {row.state or 'in this state'}"


def bulkable(spec: ActionSpec) -> str | None:
    """Why an action cannot be run on several rows at once, or None: one request can; a form or a
    conversation asks for each resource, and is run on one."""
    if spec.many or spec.call is not None:
        return None
    return "asks about each: one at a time"


async def _texts(rows: list[Row], say: Callable[[Row], Awaitable[str | None]]) -> dict[str, str]:
    """What a confirmation read from the API says of each row (a few reads at a time)."""
    gate = asyncio.Semaphore(IN_FLIGHT)

    async def one(row: Row) -> tuple[str, str | None]:
        async with gate:
            try:
                return row.id, await say(row)
            except ApiError as err:
                return row.id, f"what else it affects could not be read ({err.summary})"

    return {rid: text for rid, text in await asyncio.gather(*(one(r) for r in rows)) if text}


def scope_of(host: ActionHost, row: Row) -> str:
    return host.kind.scope_of(row) or host.scope


async def of_action(host: ActionHost, spec: ActionSpec, rows: list[Row]) -> Bulk:
    """An action that is one request (`spec.call`), for each row it may act on now."""
    refused = [(r, why) for r in rows if (why := why_not(spec, r))]
    sending = [r for r in rows if not why_not(spec, r)]
    said = spec.confirm if isinstance(spec.confirm, str) else ""
    notes: dict[str, str] = {}
    if isinstance(spec.confirm, Lazy):
        ask = spec.confirm.get()
        notes = await _texts(sending, lambda r: ask(host.service, scope_of(host, r), r))
    call = spec.call
    assert call is not None

    async def send(row: Row, act: Act) -> Outcome:
        service = host.service.acting(act)
        look = await outcome.act(service, call, scope_of(host, row), row, spec.moves_to, spec.if_lost)
        return Outcome(DONE, ACCEPTED) if look is None else found(look)

    return Bulk(spec.label.rstrip("…"), sending, refused, send, said=said, notes=notes)


def deletable_at_once(kind: ResourceKind) -> str | None:
    """Why marked rows of `kind` cannot be deleted at once, or None: a delete that asks about each
    one (its `Deleting.flow`) can only when the flow says what it makes of many (`flows.for_many`)."""
    flow = kind.writing.deleting.flow
    if flow is None or getattr(flow.get(), "many", None) is not None:
        return None
    return "asks about each: one at a time"


async def of_delete(host: ActionHost, rows: list[Row]) -> Bulk | None:
    """The kind's delete, for each row it may delete (`Writing.deletable`); data lost when the kind
    says so (`data_lost`). A kind whose delete asks questions asks them once for all (`flows.for_many`):
    None when they are cancelled."""
    writing = host.kind.writing
    refused = [(r, why) for r in rows if (why := writing.refuses.delete(r))]
    sending = [r for r in rows if not writing.refuses.delete(r)]
    if writing.deleting.flow is not None:
        return await _of_delete_flow(host, writing.deleting.flow.get().many, sending, refused)
    warn = writing.deleting.warning
    if isinstance(warn, Lazy):
        ask = warn.get()
        notes = await _texts(sending, lambda r: ask(host.service, scope_of(host, r), r))
    else:
        notes = {r.id: text for r in sending if (text := warn(r))}

    async def send(row: Row, act: Act) -> Outcome:
        look = await outcome.delete(host.service.acting(act), scope_of(host, row), row)
        return Outcome(DONE, "deleted", gone=True) if look is None else found(look)

    return Bulk(
        "Delete",
        sending,
        refused,
        send,
        data_lost=writing.deleting.needs_name,
        said="This cannot be undone.",
        notes=notes,
    )


async def _of_delete_flow(
    host: ActionHost,
    many: Callable[[ViewFlowUI, list[Row]], Awaitable[ForMany | None]],
    rows: list[Row],
    refused: list[tuple[Row, str]],
) -> Bulk | None:
    """A delete flow's answers for many rows (asked once), what goes with each row read before asking,
    then each row's own requests."""
    from ..products.kit.flows import Refused
    from .flow_ui import ViewFlowUI

    if not rows:  # none can be: said by `run`, as for any act
        return Bulk("Delete", [], refused, _nothing)
    uis = {sc: ViewFlowUI(host, sc) for sc in {scope_of(host, r) for r in rows}}  # each row's own zone
    planned = await many(next(iter(uis.values())), rows)
    if planned is None:
        return None
    gate, notes = asyncio.Semaphore(IN_FLIGHT), {}

    async def read(row: Row) -> None:
        async with gate:
            try:
                notes[row.id] = await planned.note(uis[scope_of(host, row)], row)
            except Refused as why:
                refused.append((row, str(why)))

    await asyncio.gather(*(read(r) for r in rows))

    async def send(row: Row, act: Act) -> Outcome:
        look = await planned.send(uis[scope_of(host, row)].acting(act), row)
        return Outcome(DONE, "deleted", gone=True) if look is None else found(look)

    sending = [r for r in rows if r.id in notes]
    return Bulk("Delete", sending, refused, send, data_lost=True, said=planned.said, notes=notes)


async def _nothing(row: Row, act: Act) -> Outcome:
    return Outcome(NOT_SENT, "not sent")


def tags_editable(kind: ResourceKind) -> str | None:
    """Why tags cannot be edited on several rows of `kind`, or None: its own edit form holds them,
    and saves in one request."""
    if kind.edit is None:
        return "it cannot be edited"
    spec = kind.edit.get()
    if "tags" not in spec.form_model.model_fields:
        return "its edit has no tags"
    if spec.steps:
        return "its edit is several requests: edit one at a time"
    return None


async def of_tags(host: ActionHost, rows: list[Row], add: list[str], remove: list[str]) -> Bulk:
    """Tags added and removed on each row, through the kind's own edit: its form's rules checked for
    each row (a refusal said before anything is sent), what changed sent as its edit sends it."""
    from pydantic import ValidationError

    from .widgets.form_fields import first_error

    assert host.kind.edit is not None  # (asked only where the kind has an edit: `tags_editable`)
    spec = host.kind.edit.get()
    writing = host.kind.writing
    contexts: dict[str, dict[str, Any]] = {}
    for sc in sorted({scope_of(host, r) for r in rows}):
        contexts[sc] = (await spec.options(host.service, sc))[1] if spec.options else {}
    patches: dict[str, dict[str, Any]] = {}
    notes: dict[str, str] = {}
    refused: list[tuple[Row, str]] = []
    for row in rows:
        why = writing.refuses.edit(row)
        if why:
            refused.append((row, why))
            continue
        values = spec.from_resource(row)
        tags = [t for t in values.get("tags") or [] if t not in remove]
        tags += [t for t in add if t not in tags]
        values["tags"] = tags
        try:
            form = spec.form_model.model_validate(values, context={**contexts[scope_of(host, row)], "current": row})
        except ValidationError as err:
            refused.append((row, first_error(err, spec.form_model)))
            continue
        patch = spec.body(form, row)
        if patch:
            patches[row.id] = patch
            notes[row.id] = f"{', '.join(str(t) for t in row.items('tags')) or 'no tags'} → {', '.join(tags) or 'none'}"
        else:
            refused.append((row, "nothing to change: its tags are so already"))
    sending = [r for r in rows if r.id in patches]

    async def send(row: Row, act: Act) -> Outcome:
        service = host.service.acting(act)
        new, told = await outcome.update(service, scope_of(host, row), row, patches[row.id], spec.method)
        tags = ", ".join(str(t) for t in new.items("tags")) or "none"
        return Outcome(DONE, f"tags: {tags}" + (f" ({told})" if told else ""), new)

    what = " and ".join(
        part
        for part in (f"add {', '.join(add)}" if add else "", f"remove {', '.join(remove)}" if remove else "")
        if part
    )
    return Bulk("Retag", sending, refused, send, said=f"Tags: {what}.", notes=notes)


async def run(host: ActionHost, bulk: Bulk) -> bool:
    """Ask, then send `bulk` a few rows at a time, each row's outcome shown as it comes; True when
    something was sent. The host follows what moved and forgets what is gone."""
    from .screens.bulk import BulkScreen

    app = host.app
    if not bulk.rows and not bulk.refused:
        app.type_ahead.expect_done()  # no question comes (keys typed for it were awaiting it)
        return False
    if not bulk.rows:
        first, why = bulk.refused[0]
        app.notify(
            f"{bulk.what}: none of the {len(bulk.refused)} marked can be — "
            f"{first.name or first.id}: {why}" + (" (and others)" if len(bulk.refused) > 1 else "") + ".",
            severity="warning",
            timeout=10,
        )
        app.type_ahead.expect_done()  # refused: the keys typed for its question are dropped
        return False
    if app.settings.production:  # every change on a production profile is confirmed by typing
        bulk.data_lost = True
        bulk.said = (bulk.said + "\n" if bulk.said else "") + f"Profile {app.settings.profile} is production."
    screen = BulkScreen(bulk, host.kind)
    app.push_screen(screen)
    if not await screen.answer:
        return False
    app.bulks.append(bulk)  # under way: no quit or switch of profile meanwhile (`profiles.ProfileSwitch`)
    try:
        return await _send(host, bulk, screen)
    finally:
        app.bulks.remove(bulk)


async def _send(host: ActionHost, bulk: Bulk, screen: BulkScreen) -> bool:
    app = host.app
    gate = asyncio.Semaphore(IN_FLIGHT)
    done: list[Outcome] = []

    async def one(row: Row) -> Outcome:
        async with gate:
            if bulk.stopped:
                result = Outcome(NOT_SENT, "not sent: the rest was stopped")
            else:
                screen.sending(row)
                # asked once for all (the count typed where data is lost or the profile is production)
                write = Write(
                    bulk.what, host.kind.product, str(row.name or row.id), partial(bulk.send, row), asked=True
                )
                try:
                    result = (await asking.send(app, write)).answer or failed(ApiError(0, "no outcome"))
                except Exception as err:
                    result = failed(err)
            done.append(result)
            if result.mark == MAYBE:  # in the log too, as a single write's unknown outcome is
                log.warning("%s %s: %s", bulk.what, clean(str(row.name or row.id)), result.text)
            screen.show(row, result, tally(done))
            return result

    results = await asyncio.gather(*(one(r) for r in bulk.rows))
    _settle(host, bulk.rows, results)
    screen.finished()
    if not screen.is_attached:  # closed while sending: the end is said
        said = tally(done)
        app.notify(said, title=bulk.what, severity="warning" if "failed" in said else "information", timeout=12)
    return True


def tally(outcomes: list[Outcome]) -> str:
    """`3 done, 1 failed, 1 may have been applied`: what came of it so far."""
    marks = [o.mark for o in outcomes]
    accepted = sum(1 for o in outcomes if o.mark == DONE and o.text == ACCEPTED)  # begun, not over: not "done"
    counts = (
        (marks.count(DONE) - accepted, "done"),
        (accepted, ACCEPTED),
        (marks.count(FAILED), "failed"),
        (marks.count(MAYBE), "may have been applied"),
        (marks.count(NOT_SENT), "not sent"),
    )
    return ", ".join(f"{n} {w}" for n, w in counts if n) or "none done yet"


def _settle(host: ActionHost, rows: list[Row], results: list[Outcome]) -> None:
    """What the list shows after: gone rows out, the others read again and followed while they move."""
    for row, result in zip(rows, results):
        if result.gone:
            host.forget(row)
        elif result.row is not None:
            host.upsert_row(result.row)
        elif result.mark in (DONE, MAYBE):
            host.follow(row)
