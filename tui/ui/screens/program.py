"""A program's output as it comes (a command of the operator's own with `output = "screen"`): plain text,
escapes made visible, scrollable, its end kept when long. Esc stops the program while it runs (what it
wrote so far stays, with "stopped"), and closes the screen once it has ended; its time limit stops it too.
The program is run by what the screen is given (`run`: `own_commands.stream_output`), never a shell."""

from __future__ import annotations

from typing import TYPE_CHECKING, Awaitable, Callable

from textual.widgets import Static
from textual.worker import Worker, WorkerState

from ...api.safe import clean
from .result import ResultScreen

if TYPE_CHECKING:
    Run = Callable[[list[str], float, Callable[[str], None]], Awaitable[str]]

MOST_SHOWN = 200_000  # characters of its output kept on screen (its end)
DRAWN_EVERY = 0.1  # seconds between two draws of what it wrote meanwhile


class ProgramScreen(ResultScreen):
    def __init__(self, title: str, argv: list[str], timeout: float, run: Run) -> None:
        super().__init__(title, "")
        self.argv, self.timeout, self.run = argv, timeout, run
        self.ended: str | None = None  # how it ended, once it has
        self._worker: Worker[str] | None = None
        self._pending: list[str] = []  # what it wrote since it was last drawn

    def on_mount(self) -> None:
        super().on_mount()
        self._hint(f"running {clean(self.argv[0])} ({self.timeout:g} s at most) · esc stops it")
        self._worker = self.run_worker(self._run(), group="program", exit_on_error=False)
        self._drawing = self.set_interval(DRAWN_EVERY, self._flush)

    async def _run(self) -> str:
        return await self.run(self.argv, self.timeout, self._pending.append)

    def _flush(self) -> None:
        """What came since the last frame, shown at once (a program writing line by line is drawn a few
        times a second, not once a line)."""
        if not self._pending:
            return
        came, self._pending = "".join(self._pending), []
        text = self.text + clean(came, keep_newlines=True)
        self.text = "…" + text[-MOST_SHOWN:] if len(text) > MOST_SHOWN else text
        self._draw()

    def _draw(self) -> None:
        body = self.query("#result-scroll")
        if not body:
            return
        scroll = body.first()
        at_end = scroll.scroll_y >= scroll.max_scroll_y  # following its output unless scrolled back
        self.query_one("#result-text", Static).update(self.text or "(no output yet)")
        if at_end:
            scroll.call_after_refresh(scroll.scroll_end, animate=False)

    def _hint(self, text: str) -> None:
        for hint in self.query(".hint").results(Static):
            hint.update(text)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is not self._worker or event.state not in (
            WorkerState.SUCCESS,
            WorkerState.CANCELLED,
            WorkerState.ERROR,
        ):
            return
        self._flush()
        self._drawing.stop()
        if event.state == WorkerState.SUCCESS:
            self.ended = str(event.worker.result or "")
        elif event.state == WorkerState.CANCELLED:
            self.ended = "… stopped (esc)"
        else:
            self.ended = f"… it could not be run: {event.worker.error}"
        said = "\n".join(s for s in (self.text or "(no output)", self.ended) if s)
        self.text = said
        self._draw()
        self._hint("y copy · esc close")

    def action_close(self) -> None:
        if self.ended is None and self._worker is not None:  # running: esc stops it, the screen stays
            self._worker.cancel()
            return
        super().action_close()
