"""One action runner for every view that offers a kind's actions (lists, details, panels): why not
→ confirm → send → when the answer is lost, look → notify → follow.

An action is one request (`call`), or a conversation (a declared shape or a product's flow, both
run with a `ViewFlowUI`). The host is the view: what it provides is `action_host.ActionHost`.
Run it from a worker: a confirmation and a flow's dialogs are awaited. One-time
secrets an answer carried are revealed here too (`reveal_once`), for every view alike.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from ..api.journal import Act
from ..products.kit import before_retry, looks
from ..products.kit.base import ActionSpec, Child, Lazy
from ..products.kit.looks import Found
from ..products.kit.rows import called, called_with_id
from ..products.kit.writes import Look, Question, Write
from . import asking
from .errors import notify_error, notify_lost

if TYPE_CHECKING:
    from typing import Iterable

    from ..products.kit.base import Row
    from .action_host import ActionHost


async def run(host: ActionHost, spec: ActionSpec, target: Row | list[Row], asked: bool = False) -> Any:
    """Run `spec` on `target`: a row, or a list of rows for an action that takes several (its flow
    answers True when it sent something). Returns what a conversation returned, else None. Keys
    typed until its first dialog opens wait for it (`TypeAhead.expect_screen`). `asked`: confirmed
    already with what it follows (a create's power-on), so a production profile does not ask again."""
    host.app.type_ahead.expect_screen()
    try:
        return await _run(host, spec, target, asked)
    finally:
        host.app.type_ahead.expect_done()


async def _run(host: ActionHost, spec: ActionSpec, target: Row | list[Row], asked: bool = False) -> Any:
    app = host.app
    what = spec.label.rstrip("…")  # the menu's "…" (more to come) is not part of the act
    if not offered(spec, host.read_only):
        return None
    why = None if isinstance(target, list) else spec.why_not(target)
    if why:
        app.notify(f"{what}: {why}.", severity="warning", timeout=8)
        return None
    if spec.many and not isinstance(target, list):  # an action on marked rows, run on the cursor's
        target = [target]
    rows = target if isinstance(target, list) else [target]
    first = rows[0]
    name = (first.name or first.id or host.kind.title) if len(rows) == 1 else host.kind.counted(len(rows))
    scope = host.kind.scope_of(first) or host.scope
    # a product's own page (a singleton) is not named after what is done to it ("Activate monitoring")
    doing = what if host.kind.singleton else f"{what} ({name})"
    on_production = host.app.settings.production and not asked
    production = on_production and spec.mutating  # every change asked, name typed
    conversation = spec.runner()
    # a conversation that confirms before it sends, or asks at each of its sends (a form's ctrl+s, an
    # editor's save, a grid's), takes the name typed there, with what the send does — one that mostly
    # reads (a grid shown read-only in read-only mode) too; any other is asked here first
    own = on_production and not spec.confirm and asks_itself(conversation)
    typed = str(len(rows)) if len(rows) > 1 else called(first) or host.kind.title
    named = host.kind.counted(len(rows)) if len(rows) > 1 else called(first)  # in the journal
    try:
        question = await _question(host, spec, rows, scope) if spec.confirm or production else None
    except Exception as err:  # what the confirmation says could not be read: nothing is sent
        notify_error(app, err, doing)
        return None
    look = partial(looks.after_lost, service=host.service, scope=scope, rows=rows, moves_to=spec.moves_to)
    write: Write[Any]
    if conversation is not None:
        from .flow_ui import ViewFlowUI

        async def converse(act: Act) -> Any:
            # on a production profile every send of the conversation asks the name typed, at the send
            ui = ViewFlowUI(
                host,
                scope,
                typed=typed if production or own else None,
                covered=production and not own,
                gates=own,
                act=act,
            )
            return await conversation(ui, target)

        write = _write(host, spec, named, typed, converse, partial(look, advice=spec.if_lost), question, asked or own)
    else:
        call = spec.call
        assert call is not None
        ready = partial(before_retry.before_action, host.service, scope, first.id, spec)  # a retry reads first

        async def sent(act: Act) -> dict[str, Any]:
            host.app.type_ahead.expect_done()  # asked, or nothing to ask: no dialog comes; keys typed now go on
            return await host.service.acting(act).run(call, scope, first)

        look = partial(look, advice=spec.if_lost)
        write = _write(host, spec, named, typed, sent, look, question, asked, ready)
    from ..products.kit.flows import StepCancelled

    try:
        done = await asking.send(app, write)
    except StepCancelled:  # a flow's confirmation answered no: nothing was sent
        return None
    except Exception as err:
        notify_error(app, err, doing)
        return None
    if done.cancelled:
        return None
    if done.found is not None:  # the answer was lost: what a look found
        _said(host, doing, done.found, rows)
        return None
    if conversation is not None:
        reveal_once(host, first)
        return done.answer
    app.notify(f"{what} — accepted" if host.kind.singleton else f"{what}: {name} — accepted", timeout=4)
    reveal_once(host, first)
    after = next((a for a in host.kind.actions if spec.then and a.name == spec.then), None)
    if after is not None:
        host.run_when_settled(first, after)
    host.follow(first)
    return None


def _write(
    host: ActionHost,
    spec: ActionSpec,
    named: str,
    typed: str,
    send: Callable[[Act], Awaitable[Any]],
    look: Look,
    question: Question | None,
    asked: bool,
    ready: Callable[[], Awaitable[Any]] | None = None,
) -> Write[Any]:
    """An action as the pipeline sends it, `named` in the journal by what it acts on."""
    return Write(
        spec.label.rstrip("…"),
        host.kind.product,
        named,
        send,
        look=look,
        ready=ready,
        confirm=question,
        typed=typed,
        asked=asked,
        changes=spec.mutating,
    )


def _said(host: ActionHost, doing: str, found: Found, rows: list[Row]) -> None:
    notify_lost(host.app, doing, found.told)
    if len(rows) != 1:
        host.reload()
    elif found.row is None and found.applied:
        host.forget(rows[0])
    else:
        host.follow(found.row or rows[0])


def asks_itself(conversation: object) -> bool:
    """Whether a conversation asks before its sends itself (`flows.confirms_first`, `flows.asks_at_send`)."""
    return bool(getattr(conversation, "confirms", False) or getattr(conversation, "asks_at_send", False))


def offered(spec: ActionSpec, read_only: bool) -> bool:
    """Whether an action is offered: in read-only mode only what changes nothing, or what shows a
    set it would otherwise edit (a whole-set editor opens to read)."""
    return not (read_only and spec.mutating and not getattr(spec.shape, "viewable", False))


def label_of(spec: ActionSpec, read_only: bool) -> str:
    """An action's label in a menu. In read-only mode a set editor opens to read: its label says so,
    not what it would change ("ACL rules (replace the set)…" reads "ACL rules (read-only)…", as its dialog says)."""
    if not (read_only and spec.mutating):
        return spec.label
    return f"{spec.label.split(' (')[0].rstrip('…')} (read-only)…"


def reveal_once(host: ActionHost, row: Row, credentials: dict[str, str] | None = None) -> bool:
    """The one-time secrets an answer carried for `row` (a new token, an activation's password),
    with any `credentials` (inside its URLs, masked elsewhere): shown masked, `v` reveals, `y`
    copies; taken from the service, so they are given once. False when there was nothing."""
    once = host.service.take_secrets(row.id)
    given = tuple(once)  # the one-time secrets themselves (a configuration made with one holds it)
    extras = host.service.take_extras(row.id)
    if (
        once and host.kind.secrets.once_view is not None
    ):  # the product adds what the secret is for (a push configuration)
        once, extras = host.kind.secrets.once_view.get()(row, once, extras, host.service.parent)
    secrets = {**(credentials or {}), **once}
    if not secrets:
        return False
    from .dialogs import open_dialog

    named = called(row)
    title = (
        f"{host.kind.singular.capitalize()} {named}".strip()
        if row.id and str(named).lower() != host.kind.singular.lower()
        else host.kind.title
    )
    note = (
        "Shown once: the platform will not give it again. Copy it now (y)."
        if once
        else "v reveals, y copies the highlighted one."
    )
    open_dialog(host.app, "secret", title=title, secrets=secrets, note=note, extra=extras, once=given)
    return True


async def _question(host: ActionHost, spec: ActionSpec, rows: list[Row], scope: str) -> Question:
    """What is asked before the action (Cancel focused): its own words, read first where the action
    says (`Lazy`); the pipeline adds the name typed on a production profile (the count, for several)."""
    row = rows[0]
    what = spec.label.rstrip("…")
    named = called_with_id(row)
    where = f"{named} in {scope}" if row.id and host.kind.scope_type != "global" else (row.name or host.kind.title)
    said = await spec.confirm.get()(host.service, scope, row) if isinstance(spec.confirm, Lazy) else spec.confirm
    said = said if isinstance(said, str) else ""
    if spec.shows is not None:
        said = "\n\n".join(s for s in (said, spec.shows(row)) if s)
    message = (said or f"{what}.") if host.kind.singleton else f"{what}: {where}." + (f"\n\n{said}" if said else "")
    return Question(f"{what}?", message, what.split(" (")[0])


def open_menu(
    host: ActionHost,
    row: Row,
    actions: Iterable[ActionSpec],
    children: list[Child],
    title: str,
    run: Callable[[ActionSpec], object],
    open_child: Callable[[Child], object],
) -> None:
    """A row's actions menu, for lists, details and panels: what can run now, what cannot greyed
    with why (read-only keeps what changes nothing), then the child lists (›). `run(spec)` and
    `open_child(child)` act on the pick."""
    specs = [a for a in actions if offered(a, host.read_only) and (a.available(row) or a.why_not(row))]
    if not specs and not children:
        host.app.notify(
            f"No action is allowed while {row.name or row.id or 'it'} is {row.state or 'as it is'}.", severity="warning"
        )
        return
    from .screens.picker import PickerScreen

    def picked(spec: ActionSpec | Child | None) -> None:
        if isinstance(spec, ActionSpec):  # its worker may open a dialog later: keys typed meanwhile wait for it
            host.app.type_ahead.expect_screen()
        if isinstance(spec, Child):
            why = spec.why_not(row)
            if why:
                host.app.notify(f"{spec.label}: {why}.", severity="warning", timeout=8)
            else:
                open_child(spec)
        elif spec is not None:
            run(spec)

    choices: list[tuple[str, ActionSpec | Child, str | None]] = [
        (label_of(a, host.read_only), a, a.why_not(row)) for a in specs
    ]
    choices += [(f"{c.label} ›", c, c.why_not(row)) for c in children]  # the child lists, after the actions
    host.app.push_screen(
        PickerScreen(f"{title or called(row) or host.kind.title}: actions", choices, id="actions-menu"), picked
    )
