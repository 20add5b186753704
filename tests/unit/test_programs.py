"""A program given the terminal: ctrl+c while it runs is the program's, never the console's end."""

from __future__ import annotations

import signal

from tui.ui.programs import run_program


def test_a_ctrl_c_meant_for_the_program_does_not_end_the_console():
    # the terminal sends SIGINT to the whole foreground group: here, the program sends it to us
    status = run_program(["sh", "-c", "kill -INT $PPID; exit 3"])
    assert status == 3  # and no KeyboardInterrupt here
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler, "the console's own handler is back"


def test_the_program_itself_can_still_be_interrupted():
    assert run_program(["sh", "-c", "kill -INT $$; sleep 5"]) == -signal.SIGINT
