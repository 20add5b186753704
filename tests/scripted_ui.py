"""A scripted flow UI: a product's flow (`products.kit.flows.FlowUI`) run against the sandbox over ASGI
with its questions answered from a script, no screen. Where the question is the flow's logic —
what it asks, in what order, what it sends, what it says — this tier sees it for a fraction of a
keyboard test's cost; the screens themselves stay tested through the keyboard elsewhere.

    ui = ScriptedUI(sandbox, INSTANCES, "fr-par")
    await ui.act("orders-db", "Endpoints", pick("Add a private-network endpoint"), form(service_ip="…"))

Each answer is taken by the next question of its kind, in order; a question with no answer left, or
of another kind than the next answer, fails the test (the flow asked something unexpected). What was
asked is kept in `asked`, what was said in `notes`.
"""

from __future__ import annotations

from typing import Any, Callable

import httpx

from tui.api.client import ApiClient, RetryPolicy
from tui.products.kit.base import Context, ParentRef, ResourceKind
from tui.products.kit import writes
from tui.products.kit.flows import Refused
from tui.products.kit.writes import Outcome, Question, Write
from tui.products.kit.service import ResourceService
from tui.sandbox import DEMO_PROJECT_ID, DEMO_SECRET_KEY, Sandbox


class Answer:
    def __init__(self, kind: str, value: Any) -> None:
        self.kind, self.value = kind, value


def form(**values: Any) -> Answer:
    """Fill the next form: these fields over what it shows first (its `initial`), then submit."""
    return Answer("form", values)


def pick(label: str | Callable[[str], bool]) -> Answer:
    """Choose the entry whose label starts with `label` (or for which it answers True)."""
    return Answer("pick", label)


def confirm(yes: bool = True) -> Answer:
    """Answer the next confirmation (with the name typed, where it asks for it)."""
    return Answer("confirm", yes)


def records(change: Callable[[list[dict[str, Any]]], list[dict[str, Any]]]) -> Answer:
    """Edit the next record list: `change` is given the records shown and returns those to save."""
    return Answer("records", change)


def cancel(kind: str) -> Answer:
    """Close the next question of this kind ("form", "pick", "confirm", "records") without answering."""
    return Answer(kind, None)


def _among_choices(values: dict[str, Any], choices: Any) -> None:
    """A choice field takes one of its choices, as its select does."""
    for name, value in values.items():
        if choices and name in choices:
            assert value in [v for _, v in choices[name]], f"{name}={value!r} is not among its choices"


class NotProduction:
    """The write pipeline's questions (`writes.Asker`), answered from the script as confirmations."""

    production = None

    def __init__(self, ui: ScriptedUI) -> None:
        self.ui = ui

    async def ask(self, question: Question) -> bool:
        return await self.ui.confirm(question.title, question.message, question.label, question.typed)


class ScriptedUI:
    def __init__(
        self,
        sandbox: Sandbox,
        kind: ResourceKind,
        scope: str,
        *,
        parent: ParentRef | None = None,
        read_only: bool = False,
    ) -> None:
        async def no_sleep(_: float) -> None:
            return None

        self.client = ApiClient(
            "http://sb",
            DEMO_SECRET_KEY,
            transport=httpx.ASGITransport(sandbox.app),
            retry=RetryPolicy(deadline=60),
            sleep=no_sleep,
            read_only=read_only,
        )
        self.kind, self.parent, self.scope, self.read_only = kind, parent, scope, read_only
        self.project_id = DEMO_PROJECT_ID
        self.origins = ("http://sb",)
        self.answers: list[Answer] = []
        self.asked: list[tuple[str, str, Any]] = []  # (kind, title, what it showed: message, choices, initial)
        self.notes: list[str] = []
        self.shown: list[Any] = []  # rows the flow showed (upsert, follow) or removed
        self.dialog_answer: Any = None  # what every dialog answers (a "result" dialog's confirm: True)
        self.ran: list[list[str]] = []  # programs run in the terminal

    def context(self, scope: str) -> Context:
        return Context(project_id=DEMO_PROJECT_ID, scope=scope, parent=self.parent)

    def service(self, kind: ResourceKind | None = None, parent: ParentRef | None = None) -> ResourceService:
        kind = kind or self.kind
        return ResourceService(
            self.client, kind, parent if kind is not self.kind else parent or self.parent, context=self.context
        )

    async def act(self, name: str, label: str, *answers: Answer) -> Any:
        """Run the action of this kind whose label starts with `label` on the row named `name`, with
        these answers; every answer must have been taken."""
        spec = next(a for a in self.kind.actions if a.label.startswith(label))
        row = next(r for r in await self.service().list_rows(self.scope) if name in (r.name, r.id))
        assert spec.why_not(row) is None, spec.why_not(row)
        self.answers = list(answers)
        flow = spec.runner()
        result = await flow(self, row) if flow is not None else await self.service().run(spec.call, self.scope, row)
        assert not self.answers, f"not asked: {[a.kind for a in self.answers]}"
        return result

    def _next(self, kind: str, title: str, shown: Any) -> Any:
        self.asked.append((kind, title, shown))
        assert self.answers, f"unexpected {kind}: {title!r}"
        answer = self.answers.pop(0)
        assert answer.kind == kind, f"asked a {kind} ({title!r}), the script answers a {answer.kind}"
        return answer.value

    # ---- FlowUI ---------------------------------------------------------------------------------
    async def dialog(self, name: str, **kwargs: Any) -> Any:
        self.asked.append(("dialog", name, kwargs))
        return self.dialog_answer

    async def run_in_terminal(self, argv: list[str]) -> int | None:
        self.ran.append(argv)
        return 0

    async def form(
        self,
        title: str,
        model: type,
        *,
        initial: dict[str, Any] | None = None,
        choices: Any = None,
        context: dict[str, Any] | None = None,
        submit: Any = None,
        submit_label: str = "Save",
    ) -> Any:
        values = self._next("form", title, initial)
        if values is None:
            return None
        _among_choices(values, choices)
        validated = model.model_validate(  # type: ignore[attr-defined]
            {**(initial or {}), **values}, context=context or None
        )
        return await submit(validated) if submit is not None else validated

    async def pick(self, title: str, choices: Any, current: Any = None) -> Any:
        labels = [c[0] for c in choices]
        wanted = self._next("pick", title, labels)
        if wanted is None:
            return None
        found = [c for c in choices if (wanted(c[0]) if callable(wanted) else c[0].startswith(wanted))]
        assert found, f"no {wanted!r} among {labels}"
        assert len(found[0]) < 3 or not found[0][2], f"{found[0][0]!r} is greyed: {found[0][2]}"
        return found[0][1]

    async def confirm(self, title: str, message: str, label: str, require_text: str | None = None) -> bool:
        return bool(self._next("confirm", title, message))

    async def cleared(self, what: str) -> None:  # not a production profile: nothing to ask
        return None

    async def write(self, write: Write[Any]) -> Outcome[Any]:
        """A change of the flow's own, through the write pipeline (not a production profile)."""
        return await writes.run(write, None, NotProduction(self))

    def acting(self, act: Any) -> ScriptedUI:
        return self

    async def edit_records(
        self,
        title: str,
        model: type,
        records: list[dict[str, Any]],
        columns: Any,
        *,
        save: Any = None,
        choices: Any = None,
        context: Any = None,
        **_: Any,
    ) -> list[dict[str, Any]] | None:
        change = self._next("records", title, records)
        if change is None:
            return None
        edited = change([dict(r) for r in records])
        for record in edited[len(records) :]:  # a record added through its form
            _among_choices(record, choices)
        new = [
            model.model_validate(r, context=context or None).model_dump()  # type: ignore[attr-defined]
            for r in edited
        ]
        if save is not None:
            try:
                await save(new)
            except Refused as err:  # the editor shows it and keeps the edits; the script ends there
                self.notes.append(f"refused: {err}")
                return None
        return new

    def notify(self, message: str, severity: str = "information") -> None:
        self.notes.append(message)

    def upsert(self, row: Any) -> None:
        self.shown.append(row)

    def follow(self, row: Any) -> None:
        self.shown.append(row)

    def remove(self, row: Any) -> None:
        self.shown.append(("removed", row))

    def reload(self) -> None:
        self.shown.append("reload")

    async def aclose(self) -> None:
        await self.client.aclose()
