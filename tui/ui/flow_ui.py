"""The console side of product flows (see products/kit/flows.py): dialogs awaited from a worker.

A flow runs in a ResourceView worker; each dialog is pushed and awaited (`push_screen_wait`), so a
flow reads top to bottom like the conversation it is, and the UI keeps drawing while it waits.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Sequence, TypeVar

from ..api.journal import Act
from ..products.kit.base import ALL, Choices, Column, ParentRef, ResourceKind, Row
from ..products.kit.flows import StepCancelled, Submit
from ..products.kit.writes import Outcome, Question, Write
from . import asking

if TYPE_CHECKING:
    from pydantic import BaseModel

    from ..products.kit.service import ResourceService
    from .action_host import ActionHost

T = TypeVar("T")
Saving = Callable[[list[dict[str, Any]]], Awaitable[Any]]  # an editor's save: the records, sent


class ViewFlowUI:
    """A flow's dialogs, for a view. On a production profile (`typed`: the name to type) every send is
    asked, at the send. A flow that `gates` itself (`flows.asks_at_send`) calls `cleared` before each
    of its sends, after its own questions; for any other, a form's ctrl+s that sends and an editor's
    save that sends ask the name first each time (a form left open after a lost answer asks again),
    the first send being `covered` by the question asked before the flow started. A confirmation
    takes the name typed. Its services are bound to the act it runs for (`act`): what it sends, from
    the flow or a dialog's own worker, is journalled as that act."""

    def __init__(
        self,
        view: ActionHost,
        scope: str,
        typed: str | None = None,
        covered: bool = False,
        gates: bool = False,
        act: Act | None = None,
    ) -> None:
        self.view = view
        self.typed = typed  # a production profile: the flow's confirmations take this name typed
        self.covered = covered  # the name was typed for the send about to be made
        self.gates = gates  # the flow asks before each of its sends itself (`cleared`)
        self.act = act  # the act its sends are journalled as (its services are bound to it)
        self.app = view.app
        self.scope = scope if scope != ALL else view.create_scope()
        self.project_id = view.context(self.scope).project_id
        self.read_only = bool(view.read_only)
        s = self.app.settings  # where the secret key may go: what a copied command may send it to
        self.origins = tuple(o for o in (s.api_url, s.genai_url, *s.allowed_origins) if o)

    async def run_in_terminal(self, argv: list[str]) -> int | None:
        """The console gives the terminal to a program (ssh) until it ends, then is drawn again as it was;
        ctrl+c in it is the program's (`programs.run_program`)."""
        from .programs import run_suspended

        return run_suspended(self.app, argv)

    def service(self, kind: ResourceKind | None = None, parent: ParentRef | None = None) -> ResourceService:
        service = self.view.service if kind is None else self.app.service(kind, parent)
        return service.acting(self.act)

    def acting(self, act: Act | None) -> ViewFlowUI:
        """This, for one act (a row of a bulk act): what its flow sends is journalled as `act`."""
        bound = copy.copy(self)
        bound.act = act
        return bound

    async def write(self, write: Write[T]) -> Outcome[T]:
        """A change of its own (an act the journal names apart), through the pipeline."""
        return await asking.send(self.app, write)

    async def dialog(self, name: str, **kwargs: Any) -> Any:
        """A dialog by name (`dialogs.py`). One that sends from inside (`save=`: a grid's ctrl+s) is asked
        at each send on a production profile, as an editor's save is (a flow that gates itself asks there)."""
        from .dialogs import wait_dialog

        save = kwargs.get("save")
        if save is not None:
            title = str(kwargs.get("title") or name)

            async def saving(*args: Any) -> Any:
                if not self.gates:
                    await self.cleared(f"Send: {title}")
                try:
                    return await save(*args)
                finally:
                    self.covered = False  # sent (or tried): the next send asks again

            kwargs["save"] = saving
        return await wait_dialog(self.app, name, **kwargs)

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
        from .screens.form import FormScreen

        async def send(form: BaseModel, extra: dict[str, Any]) -> object:
            if submit is None:
                return form
            if not self.gates:  # (a flow that gates itself asks after its own questions)
                said = title if title.lower().startswith(submit_label.lower()) else f"{submit_label}: {title}"
                await self.cleared(said)  # what this ctrl+s sends
            try:
                return await submit(form)
            finally:
                self.covered = False  # sent (or tried): the next ctrl+s asks again

        async def load() -> tuple[Choices, dict[str, Any]]:
            return choices or {}, context or {}

        result = await self.app.push_screen_wait(
            FormScreen(
                title,
                model,
                send,
                initial=initial,
                loader=load if (choices or context) else None,
                submit_label=submit_label,
                lost_closes=True,
            )
        )
        if isinstance(result, BaseException):  # the answer was lost: the flow stops, the runner looks
            raise result
        return result[0] if result else None

    async def pick(self, title: str, choices: Sequence[tuple[Any, ...]], current: object = None) -> Any:
        from .screens.picker import PickerScreen

        if not choices:
            self.notify(f"{title}: nothing to choose from.", "warning")
            return None
        return await self.app.push_screen_wait(PickerScreen(title, list(choices), current=current))

    async def confirm(self, title: str, message: str, label: str, require_text: str | None = None) -> bool:
        asks = self.typed is not None and not self.covered
        if asks:
            require_text = require_text or self.typed
            message += f"\n\nProfile {self.app.settings.profile} is production."
        yes = await asking.DialogAsker(self.app).ask(Question(title, message, label, require_text))
        if yes and asks:
            self.covered = True  # the send it leads to was asked
        return yes

    async def cleared(self, what: str) -> None:
        """Before a send, on a production profile: the name typed (Cancel focused), saying `what` the send
        does, unless it was asked for this send already. `StepCancelled` when not: nothing is sent,
        and a form or an editor stays open with what was typed."""
        if self.typed is None or self.covered:
            return
        said = what if "\n" in what else f"{what}."  # (what it says may list records, one a line)
        message = f"{said}\n\nProfile {self.app.settings.profile} is production."
        title = what.split("\n", 1)[0].split(": ", 1)[0]  # what it acts on; the body says what changes
        if not await asking.DialogAsker(self.app).ask(Question(f"{title}?", message, "Send", self.typed)):
            raise StepCancelled("Not confirmed: nothing was sent. ctrl+s asks again; esc closes.")
        self.covered = True

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
        save: Saving | None = None,
        unique: str | tuple[str, ...] | None = None,
    ) -> list[dict[str, Any]] | None:
        from .screens.records import RecordListScreen

        if save is not None:
            save = self._cleared_save(save, records, title)
        result = await self.app.push_screen_wait(
            RecordListScreen(
                title,
                model,
                records,
                columns,
                ordered=ordered,
                choices=choices,
                describe=describe,
                context=context,
                number_from=number_from,
                save=save,
                read_only=self.read_only,
                unique=unique,
            )
        )
        if isinstance(result, BaseException):
            raise result
        return result

    def _cleared_save(self, save: Saving, before: list[dict[str, Any]], title: str) -> Saving:
        """An editor's save that sends: asked first on a production profile, each time (a list as it was
        sends nothing, so it is not asked); journalled as the act that opened the editor."""
        before = [dict(r) for r in before]

        async def saving(records: list[dict[str, Any]]) -> object:
            if records != before and not self.gates:
                await self.cleared(f"Send: {title}")
            try:
                return await save(records)
            finally:
                self.covered = False

        return saving

    def notify(self, message: str, severity: str = "information") -> None:
        timeout = 6 if severity != "information" else 4
        # (a flow says its severity as text, `FlowUI.notify`: one of Textual's three)
        self.app.notify(message, severity=severity, timeout=timeout)  # type: ignore[arg-type]

    def upsert(self, row: Row) -> None:
        self.view.upsert_row(row)

    def follow(self, row: Row) -> None:
        self.view.follow(row)

    def remove(self, row: Row) -> None:
        self.view.forget(row)

    def reload(self) -> None:
        self.view.reload()
