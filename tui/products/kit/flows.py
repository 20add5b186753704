"""Flows: what an action does when it is more than one request — pick a server, confirm a
warning, edit a list of records, then send. A flow is a plain async function

    async def flow(ui: FlowUI, row: Row) -> None

written in a product module, with no Textual in sight: the console supplies `ui` (it runs the flow
in a worker, so every await on the network or on a dialog keeps the UI responsive). An ApiError
raised by a flow becomes a notification with its status, message and hint.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Awaitable, Callable, Protocol, Sequence, TypeVar

from .base import Choices, Column, ParentRef, ResourceKind, Row

if TYPE_CHECKING:
    from ...api.journal import Act
    from .service import ResourceService
    from .writes import Outcome, Write

T = TypeVar("T")

Submit = Callable[[Any], Awaitable[Any]]


class Refused(Exception):
    """A rule checked before sending refuses what the user asked; the message says which and why.
    Raised from a record list's `save`, it is shown in the editor, whose edits stay."""

    nothing = "Nothing was sent."  # what it means, said after the message (a local program: nothing ran)


class NothingToDo(Refused):
    """What was asked is already so (no remote access open to revoke): said, nothing sent."""


class StepCancelled(Exception):
    """A later step of a create (e.g. the volumes editor) was cancelled: the form stays open with
    what was typed, and nothing was sent."""


def confirms_first(flow: Any) -> Any:
    """Marks a flow that asks its own confirmation before it sends anything. On a production
    profile that confirmation takes the name typed (with what the flow says goes with it), and no
    generic one is asked before it; a flow not marked is confirmed, name typed, before it starts."""
    flow.confirms = True
    return flow


def asks_at_send(flow: Any) -> Any:
    """Marks a flow whose every send goes through a form's ctrl+s (`ui.form(submit=…)`), an editor's save
    (`ui.edit_records(save=…)`), a confirmation or `ui.cleared`: on a production profile the name is
    typed there, at each send and after the form, with what the send does; nothing is asked before
    the flow starts. A flow not marked is confirmed, name typed, before it starts (and a form re-sent
    after a lost answer asks again)."""
    flow.asks_at_send = True
    return flow


class ForMany:
    """What a flow asked once for many rows makes of each (a server's delete: its volumes kept or not):
    `said`, one sentence for all; `note(ui, row)`, what goes with that row, read before asking (a
    `Refused` keeps the row out, with why); `send(ui, row)`, its requests, returning what a look found
    when the last answer was lost (`looks.Found`) or None. `ui` is for the row's own zone or region."""

    def __init__(
        self,
        said: str,
        note: Callable[[Any, Row], Awaitable[str]],
        send: Callable[[Any, Row], Awaitable[Any]],
    ) -> None:
        self.said, self.note, self.send = said, note, send


def for_many(many: Callable[[Any, list[Row]], Awaitable[ForMany | None]]) -> Callable[[Any], Any]:
    """Marks a row's flow (a kind's `Deleting.flow`) that marked rows can run at once: `many(ui, rows)`
    asks its questions once for all (None: cancelled) and gives each row's part (`ForMany`); the
    console confirms once (the count typed where data is lost) and says each row's outcome."""

    def mark(flow: Any) -> Any:
        flow.many = many
        return flow

    return mark


async def confirm_loss(ui: "FlowUI", title: str, message: str, label: str, name: str) -> None:
    """Before a data-losing act (restore over, install or reinstall over): a confirmation with
    Cancel focused that takes `name` typed. Raises StepCancelled when not confirmed, so a form that
    asks it from its submit stays open with what was typed, and nothing is sent."""
    if not await ui.confirm(title, message, label, require_text=name):
        raise StepCancelled("Not confirmed: nothing was sent. ctrl+s asks again; esc closes.")


class FlowUI(Protocol):
    scope: str  # the row's zone or region
    project_id: str
    read_only: bool  # --read-only: a flow marked mutating=False shows, and never offers a change
    origins: tuple[str, ...]  # the profile's origins (API URLs, allowed_origins): where the secret key may go

    async def write(self, write: Write[T]) -> Outcome[T]:
        """A change of its own, journalled apart (`writes.run`): asked as its profile requires, looked at."""

    def acting(self, act: Act | None) -> FlowUI:
        """This, for `act`: what is sent through it is journalled as that act (a change of its own)."""

    def service(self, kind: ResourceKind | None = None, parent: ParentRef | None = None) -> ResourceService:
        """The ResourceService of `kind` (default: the view's own), for `parent` when a child."""

    async def dialog(self, name: str, **kwargs: Any) -> Any:
        """A dialog of the console's registry (`tui.ui.dialogs`): "secret" (title, secrets: shown
        once, reveal on request, copy), "result" (title, text, confirm_label=None: read, copy, or
        review then go: True), "json" (title, value). Its answer, None when closed."""

    async def form(
        self,
        title: str,
        model: type,
        *,
        initial: dict[str, Any] | None = None,
        choices: Choices | None = None,
        context: dict[str, Any] | None = None,
        submit: Submit | None = None,
        submit_label: str = "Save",
    ) -> Any:
        """A form for `model`. With `submit`, it is called with the validated form inside the dialog
        (an API error keeps the dialog open with the fields named) and its result is returned; without,
        the validated form is. None when cancelled."""

    async def pick(self, title: str, choices: Sequence[tuple[Any, ...]], current: Any = None) -> Any:
        """One value of `choices` — (label, value), or (label, value, why not) for a choice shown
        greyed with its reason because it cannot work — or None when cancelled."""

    async def confirm(self, title: str, message: str, label: str, require_text: str | None = None) -> bool: ...

    async def cleared(self, what: str) -> None:
        """Before a send the flow makes itself: on a production profile, the name typed, saying `what`
        the send does (unless asked for it already); `StepCancelled` when not."""

    async def edit_records(
        self,
        title: str,
        model: type,
        records: list[dict[str, Any]],
        columns: Sequence[Column],
        *,
        ordered: bool = False,
        choices: Choices | None = None,
        describe: str = "",
        context: dict[str, Any] | None = None,
        number_from: int | None = None,
        save: Callable[[list[dict[str, Any]]], Awaitable[Any]] | None = None,
        unique: str | tuple[str, ...] | None = None,
    ) -> list[dict[str, Any]] | None:
        """A list of records to add to, edit, delete from (and reorder when `ordered`); the new list
        on save, None when cancelled. With `save`, the list is sent from inside the editor: an API
        error or a `Refused` is shown there and the edits stay, so nothing typed is lost. With
        `unique` (a field, or fields), a record that repeats another's is refused in its form."""

    def notify(self, message: str, severity: str = "information") -> None: ...

    async def run_in_terminal(self, argv: list[str]) -> int | None:
        """Run a program in the terminal, the console suspended until it ends; its exit status, or
        None where the console cannot give the terminal away (a test, a web browser)."""

    def upsert(self, row: Row) -> None:
        """Show a fresh row in the view (and follow it while it is transitional)."""

    def follow(self, row: Row) -> None:
        """Refresh this row now and poll it until it settles."""

    def remove(self, row: Row) -> None: ...

    def reload(self) -> None: ...
