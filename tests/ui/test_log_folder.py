"""A log folder that cannot be written is said once, in the status bar, as soon as the console is up
(issue 32, item 15): before, nothing said it and "this is a bug" named no file."""

from __future__ import annotations

import logging

import pytest

from helpers import loaded, make_app, wait_for
from tui.cli import _FolderLog

pytestmark = pytest.mark.anyio


async def test_the_status_bar_says_the_log_is_not_kept(sandbox, tmp_path, monkeypatch):
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("CLOUDTUI_LOG_DIR", str(tmp_path / "file" / "logs"))
    logging.getLogger("cloudtui").addHandler(_FolderLog())  # as cli.main sets it up; the fixture removes it
    app = make_app(sandbox)
    async with app.run_test(size=(160, 30)) as pilot:
        await loaded(pilot, app)
        bar = app.main.query_one("#status")
        await wait_for(pilot, lambda: "no log kept" in bar.render().plain, what="the status bar note")
        assert app.log_problem and "Not a directory" in app.log_problem
        assert any(n.title == "Log" and "no log is kept" in n.message for n in app.notes), "said at start"


async def test_a_journal_file_that_cannot_be_written_is_said_once_and_logged(sandbox, caplog):
    from helpers import demo_settings, row_named

    app = make_app(sandbox, settings=demo_settings(journal_file="/dev/full"))
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        for name in ("web-01", "web-02"):
            view._do_action(row_named(view, name), next(a for a in view.kind.actions if a.name == "poweroff"))
        await wait_for(pilot, lambda: any(n.title == "Journal" for n in app.notes), what="said")
        await wait_for(pilot, lambda: len([e for e in app.journal.entries if e.outcome == "done"]) == 2)
        app.journal.close()  # every line queued is written (tried)
        said = [n for n in app.notes if n.title == "Journal"]
        assert len(said) == 1 and "/dev/full cannot be written" in said[0].message
        assert any("/dev/full cannot be written" in r.getMessage() for r in caplog.records)
