"""The console side of product flows (see products/flows.py): dialogs awaited from a worker.

A flow runs in a ResourceView worker; each dialog is pushed and awaited (`push_screen_wait`), so a
flow reads top to bottom like the conversation it is, and the UI keeps drawing while it waits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from ..products.base import ALL, Choices, Column, ParentRef, ResourceKind, Row
from ..products.flows import Submit

if TYPE_CHECKING:
    from .action_host import ActionHost


class ViewFlowUI:
    def __init__(self, view: ActionHost, scope: str, typed: str | None = None) -> None:
        self.view = view
        self.typed = typed  # a production profile: the flow's confirmations take this name typed
        self.app = view.app
        self.scope = scope if scope != ALL else view.create_scope()
        self.project_id = view.context(self.scope).project_id
        self.read_only = bool(view.read_only)
        s = self.app.settings  # where the secret key may go: what a copied command may send it to
        self.origins = tuple(o for o in (s.api_url, s.genai_url, *s.allowed_origins) if o)

    async def run_in_terminal(self, argv: list[str]) -> int | None:
        """The console gives the terminal to a program (ssh) until it ends, then is drawn again as it was."""
        import subprocess

        from textual.app import SuspendNotSupported

        try:
            with self.app.suspend():  # blocks the console's loop: nothing of it runs meanwhile
                return subprocess.call(argv)
        except SuspendNotSupported:
            return None

    def service(self, kind: ResourceKind | None = None, parent: ParentRef | None = None) -> Any:
        if kind is None:
            return self.view.service
        return self.app.service(kind, parent)

    async def dialog(self, name: str, **kwargs: Any) -> Any:
        from .dialogs import wait_dialog

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

        async def send(form: Any, extra: dict[str, Any]) -> Any:
            return await submit(form) if submit is not None else form

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

    async def pick(self, title: str, choices: Sequence[tuple[Any, ...]], current: Any = None) -> Any:
        from .screens.picker import PickerScreen

        if not choices:
            self.notify(f"{title}: nothing to choose from.", "warning")
            return None
        return await self.app.push_screen_wait(PickerScreen(title, list(choices), current=current))

    async def confirm(self, title: str, message: str, label: str, require_text: str | None = None) -> bool:
        from .screens.confirm import ConfirmScreen

        if self.typed is not None:
            require_text = require_text or self.typed
            message += f"\n\nProfile {self.app.settings.profile} is production."
        return bool(await self.app.push_screen_wait(ConfirmScreen(title, message, label, require_text=require_text)))

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
        save: Any = None,
        unique: str | tuple[str, ...] | None = None,
    ) -> list[dict[str, Any]] | None:
        from .screens.records import RecordListScreen

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

    def notify(self, message: str, severity: str = "information") -> None:
        timeout = 6 if severity != "information" else 4
        self.app.notify(message, severity=severity, timeout=timeout)  # type: ignore[arg-type]

    def upsert(self, row: Row) -> None:
        self.view.upsert_row(row)

    def follow(self, row: Row) -> None:
        self.view.follow(row)

    def remove(self, row: Row) -> None:
        self.view.forget(row)

    def reload(self) -> None:
        self.view.reload()
