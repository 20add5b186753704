"""A program given the terminal (ssh, an operator's own command): the console suspended until it ends,
then drawn again as it was.

While it runs, ctrl+c and ctrl+\\ belong to the program: the terminal sends SIGINT (SIGQUIT) to its
whole foreground process group, the console included, and Python's default would raise
KeyboardInterrupt in the console's loop and end it. The console catches them with a handler that does
nothing (not SIG_IGN: an ignored signal stays ignored across exec, so the program could not be
interrupted; a handled one is reset to its default in the program).
"""

from __future__ import annotations

import signal
import subprocess
from types import FrameType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App

CAUGHT = (signal.SIGINT, signal.SIGQUIT)


def _not_ours(signum: int, frame: FrameType | None) -> None:
    """A ctrl+c (or ctrl+\\) meant for the program in front: nothing for the console to do."""


def run_program(argv: list[str]) -> int:
    """Run `argv` (no shell) in the terminal as it is, until it ends; its exit status (negative: the
    signal that ended it). Call from the main thread: the console's signal handlers are set there."""
    before = {sig: signal.signal(sig, _not_ours) for sig in CAUGHT}
    try:
        return subprocess.call(argv)
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


def run_suspended(app: App[Any], argv: list[str]) -> int | None:
    """`argv` with the console suspended (`App.suspend`), or None where it cannot give the terminal
    away (a test's headless app, a web browser)."""
    from textual.app import SuspendNotSupported

    try:
        with app.suspend():  # blocks the console's loop: nothing of it runs meanwhile
            return run_program(argv)
    except SuspendNotSupported:
        return None
