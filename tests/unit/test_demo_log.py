"""cloudtui's log: made on the first record; the demo's embedded server writes to it, and what `--faults`
does on purpose is said in one line there, not as a server traceback."""

from __future__ import annotations

import logging
import sys

from tui.cli import _injected_fault_in_one_line


def test_a_connection_dropped_on_purpose_by_the_demo_faults_is_one_line_in_the_log():
    try:
        raise ConnectionResetError("fault injection: connection dropped mid-body")
    except ConnectionResetError:
        record = logging.LogRecord(
            "uvicorn.error", logging.ERROR, __file__, 1, "Exception in ASGI application", None, sys.exc_info()
        )
    assert _injected_fault_in_one_line(record)
    assert record.exc_info is None and record.getMessage() == "sandbox: fault injection: connection dropped mid-body"
    plain = logging.LogRecord(
        "uvicorn.error",
        logging.ERROR,
        __file__,
        1,
        "Exception in ASGI application",
        None,
        (ValueError, ValueError("a bug"), None),
    )
    assert _injected_fault_in_one_line(plain) and plain.exc_info is not None  # a real error keeps its traceback


def test_the_log_folder_is_made_on_the_first_record_and_one_that_cannot_be_says_so_once(tmp_path, monkeypatch):
    from tui.cli import _FolderLog

    monkeypatch.setenv("CLOUDTUI_LOG_DIR", str(tmp_path / "logs"))
    handler = _FolderLog()
    assert not (tmp_path / "logs").exists()  # nothing logged, nothing made
    handler.handle(logging.LogRecord("cloudtui", logging.WARNING, __file__, 1, "kept", None, None))
    handler.close()
    assert "kept" in (tmp_path / "logs" / "cloudtui.log").read_text()
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("CLOUDTUI_LOG_DIR", str(tmp_path / "file" / "logs"))  # under a file: cannot be made
    broken = _FolderLog()
    for _ in range(2):
        broken.handle(logging.LogRecord("cloudtui", logging.ERROR, __file__, 1, "lost", None, None))
    assert broken.inner is None and str(tmp_path / "file" / "logs") in (broken.problem or "")
    assert "no log is kept" in broken.problem and "Not a directory" in broken.problem


def test_a_log_folder_that_cannot_be_written_is_said_on_stderr_at_exit(tmp_path, monkeypatch, capsys):
    """Issue 32, item 15: it was accepted silently. The console opens the log after its first frame
    (`log_problem(open_now=True)`, off the UI thread); the command line says it once when it ends."""
    from tui import cli
    from tui.ui.app import CloudApp

    (tmp_path / "file").write_text("")
    monkeypatch.setenv("CLOUDTUI_LOG_DIR", str(tmp_path / "file" / "logs"))
    monkeypatch.setenv("CLOUDTUI_API_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("CLOUDTUI_SECRET_KEY", "k")

    def run(app: CloudApp, **how: object) -> None:  # the console ran and a failure was logged
        logging.getLogger("cloudtui.ui").error("a failure")

    monkeypatch.setattr(CloudApp, "run", run)
    assert cli.main([]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("cloudtui: no log is kept: cannot write ") and "file/logs" in err[0]
