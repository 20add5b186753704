"""The console's side of the write pipeline (`products.kit.writes`): its questions asked as the
confirmation dialog (Cancel focused; the name typed where the question says), and whether the profile
in use is production. Awaited from a worker (a dialog is pushed and its answer awaited)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from ..products.kit import writes
from ..products.kit.writes import Outcome, Question, Write

if TYPE_CHECKING:
    from .app import CloudApp

T = TypeVar("T")


class DialogAsker:
    """`writes.Asker` for the console: one dialog per question."""

    def __init__(self, app: CloudApp) -> None:
        self.app = app

    @property
    def production(self) -> str | None:
        settings = self.app.settings
        return settings.profile if settings.production else None

    async def ask(self, question: Question) -> bool:
        from .screens.confirm import ConfirmScreen

        dialog = ConfirmScreen(question.title, question.message, question.label, require_text=question.typed)
        # (in `bool(…)` mypy takes the screen's result for an `object`, and a `Screen[bool]` for none of those)
        return bool(await self.app.push_screen_wait(dialog))  # type: ignore[arg-type]


async def send(app: CloudApp, write: Write[T]) -> Outcome[T]:
    """`write` through the pipeline: asked as its profile and act require, journalled, looked at."""
    return await writes.run(write, app.journal, DialogAsker(app))
