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
