"""The demo's embedded server writes to cloudtui's log: what `--faults` does on purpose is said in
one line there, not as a server traceback."""

from __future__ import annotations

import logging
import sys

from tui.cli import _injected_fault_in_one_line


def test_a_connection_dropped_on_purpose_by_the_demo_faults_is_one_line_in_the_log():
    try:
        raise ConnectionResetError("fault injection: connection dropped mid-body")
    except ConnectionResetError:
        record = logging.LogRecord("uvicorn.error", logging.ERROR, __file__, 1, "Exception in ASGI application", None, sys.exc_info())
    assert _injected_fault_in_one_line(record)
    assert record.exc_info is None and record.getMessage() == "sandbox: fault injection: connection dropped mid-body"
    plain = logging.LogRecord("uvicorn.error", logging.ERROR, __file__, 1, "Exception in ASGI application", None, (ValueError, ValueError("a bug"), None))
    assert _injected_fault_in_one_line(plain) and plain.exc_info is not None  # a real error keeps its traceback
