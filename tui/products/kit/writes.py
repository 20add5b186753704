"""One path for every change the console sends (issue 50): a write is a value (`Write`): what is done,
to which resource of which product, the request(s) it sends and how to look when an answer is lost.
`run` asks what the profile and the act require, at the send — on a production profile the resource's
name typed; where data is lost the name or the count typed; Cancel focused — then opens the act the
journal records its requests under, sends, and when the answer is lost looks and says what was found
(`Outcome`). `attempt` is one send inside an act (a part of an edit, a step of a flow, a chunk of a
batch) with its own look. This module is the one place a lost answer (`OutcomeUnknown`) is caught.

    done = await writes.run(Write("Power off", "Instance", "web-01", send, look=look), journal, asker)
    if done.cancelled: ...       # nothing was sent
    elif done.lost: ...          # say done.told: what the look found (done.applied: True, False or None)
    else: ...                    # done.answer

No Textual here: the UI gives an `Asker` (its confirmation dialog), and the journal is passed in.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable, Generic, Protocol, TypeVar

from ...api.errors import ApiError, OutcomeUnknown
from ...api.journal import Act, Doing, Journal
from ...records import record, replace
from .base import Row
from .looks import Found

T = TypeVar("T")
Look = Callable[[OutcomeUnknown], Awaitable[Found]]  # what to read when the answer to a send was lost
NO_LOOK = "nothing can tell whether it was applied: refresh (r) and look before repeating"


@record(frozen=True)
class Question:
    """What is asked before a send: a title, what it does, the button's word, and what is typed to
    confirm it (a name, a count; None: a plain yes with Cancel focused)."""

    title: str
    message: str
    label: str
    typed: str | None = None


class Asker(Protocol):
    """The console's side of `run`: its confirmation dialog, and whether the profile is production."""

    @property
    def production(self) -> str | None:
        """The profile's name when it is a production profile (every send asks the name typed), else None."""
        ...

    async def ask(self, question: Question) -> bool:
        """The question asked (Cancel focused); whether it was answered yes."""
        ...


@record(frozen=True, eq=False)
class Write(Generic[T]):
    """One change: `what` is done to `resource` of `product` by `send` (its requests, journalled as this
    act: `send` takes the act and sends through services bound to it, `service.acting(act)`); `look`
    reads what happened when an answer is lost; `ready` makes the look a retry from the journal needs,
    read just before that retry. `confirm`: what is asked first (a delete, an action that asks);
    `typed`: what a production profile asks typed (the resource's name unless said); `asked`: asked
    already for this send (with the act it follows); `retry` False: never offered again from the journal;
    `changes` False: it changes nothing (an action that only reads), so production asks no name; `says`:
    what a production profile's question says it does ("Create server web-01 in fr-par-1"); `label`: its
    button ("Send"; the act's words by default)."""

    what: str
    product: str
    resource: str
    send: Callable[[Act], Awaitable[T]]
    look: Look | None = None
    ready: Callable[[], Awaitable[Any]] | None = None
    confirm: Question | None = None
    typed: str = ""
    asked: bool = False
    retry: bool = True
    changes: bool = True
    says: str = ""
    label: str = ""


class Looked(ApiError):
    """A write with an unknown outcome, and what looking found: it was not applied, or cloudtui
    cannot tell. Raised into the form that sent it, which stays open with what was typed."""

    def __init__(self, err: ApiError, found: str, applied: bool | None = None) -> None:
        super().__init__(err.status, f"{err.message}. Looked again: {found}", err.type, err.body, err.method, err.url)
        self.applied = applied  # False: it was not applied; None: cloudtui cannot tell

    @property
    def hint(self) -> str:
        return "Nothing is re-sent on its own; submit again only if what was found says it is safe."


@record(frozen=True, eq=False)
class Outcome(Generic[T]):
    """How a write ended: answered (`answer`), not sent (`cancelled`), or its answer `lost` and what the
    look after it `found`."""

    answer: T | None = None
    lost: OutcomeUnknown | None = None
    found: Found | None = None
    cancelled: bool = False

    @property
    def applied(self) -> bool | None:
        """True when answered or found applied; False when found not applied; None when no one can tell."""
        if self.cancelled:
            return False
        return True if self.lost is None else (self.found.applied if self.found is not None else None)

    @property
    def told(self) -> str:
        """What the operator is told of a lost answer: the error, and what looking found."""
        if self.lost is None:
            return ""
        says = self.found.says if self.found is not None else NO_LOOK
        return f"{self.lost.summary}\nLooked again: {says}."

    def applied_or_raise(self) -> None:
        """`Looked` when the answer was lost and the look did not find it applied (not, or no one can
        tell): raised into the form or the editor that sent it, which stays open with what was typed."""
        if self.lost is not None and not self.applied:
            raise Looked(self.lost, self.found.says if self.found is not None else NO_LOOK, self.applied)

    def found_row(self) -> Row:
        """The row a look after a lost answer found the write applied to; `Looked` when there is none."""
        found = self.found
        if self.lost is None or found is None or not found.applied or found.row is None:
            lost = self.lost or OutcomeUnknown(0, "no answer")
            raise Looked(lost, found.says if found is not None else NO_LOOK, self.applied)
        return found.row


def question(write: Write[Any], production: str | None) -> Question | None:
    """What is asked before `write` is sent: its own confirmation, with the name typed on a production
    profile (every send there asks, unless asked already with what it follows); None: sent at once."""
    if write.asked:
        return None
    if production is None or not write.changes:
        return write.confirm
    typed = write.typed or write.resource or write.what
    where = f"Profile {production} is production."
    if write.confirm is not None:
        return replace(write.confirm, message=f"{write.confirm.message}\n\n{where}", typed=write.confirm.typed or typed)
    title = f"{write.what} · {write.resource}?" if write.resource else f"{write.what}?"  # as the journal names it
    said = write.says or f"{write.what} {write.resource}".strip()
    return Question(title, f"{said}.\n\n{where}", write.label or write.what.split(" (")[0], typed)


async def run(write: Write[T], journal: Journal | None, asker: Asker) -> Outcome[T]:
    """Ask what `write` requires (`question`), send it as one act of `journal`, and when its answer is
    lost, look (`write.look`): the act's entry says what was found."""
    asked = question(write, asker.production)
    if asked is not None and not await asker.ask(asked):
        return Outcome(cancelled=True)
    doing = Doing(write.what, write.product, write.resource, write.retry, write.look, write.ready)
    with Act(journal, doing) as act:
        return await attempt(act, lambda: write.send(act), write.look)


async def attempt(act: Act | None, send: Callable[[], Awaitable[T]], look: Look | None) -> Outcome[T]:
    """One send of an act (`act`: whose last entry is told what a look found): answered, or lost and
    looked at (`look`; without one, no one can tell)."""
    try:
        return Outcome(answer=await send())
    except OutcomeUnknown as err:
        found = (await look(err)).after(err) if look is not None else Found(None, NO_LOOK, None, err)
        if act is not None:
            act.looked(found.says, found.applied)
        return Outcome(lost=err, found=found)
