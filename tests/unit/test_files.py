"""Saving a file the platform answers: where the operator picks, and a write that fails asks again."""

from __future__ import annotations

import base64

import pytest

from tui.products.kit.files import save_file_flow

pytestmark = pytest.mark.anyio


class PickingUI:
    """Answers the file picker with the paths given, in turn; keeps what it was told."""

    def __init__(self, *paths):
        self.paths = list(paths)
        self.asked, self.said = [], []

    async def dialog(self, name, **kw):
        assert name == "file" and kw["mode"] == "save"
        self.asked.append(kw["path"])
        return self.paths.pop(0)

    def notify(self, message, severity="information"):
        self.said.append((severity, message))


async def test_a_file_is_saved_where_picked_and_a_failed_write_asks_again_from_there(tmp_path):
    answer = {"name": "../../ssl_db.pem", "content": base64.b64encode(b"PEM").decode()}
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    ui = PickingUI(blocked / "x.pem", tmp_path / "db.pem")
    saved = await save_file_flow(ui, "Save", answer, default_dir=str(tmp_path))
    assert saved == str(tmp_path / "db.pem") and (tmp_path / "db.pem").read_bytes() == b"PEM"
    assert ui.asked == [
        str(tmp_path / "ssl_db.pem"),
        str(blocked / "x.pem"),
    ]  # the platform's name without its folders, then the failed place
    assert (
        ui.said[0][0] == "error"
        and "Could not write" in ui.said[0][1]
        and ui.said[-1] == ("information", f"Saved 3 bytes to {tmp_path / 'db.pem'}")
    )


async def test_cancelling_the_picker_saves_nothing(tmp_path):
    ui = PickingUI(None)
    assert await save_file_flow(ui, "Save", {"name": "a.pem", "content": ""}, default_dir=str(tmp_path)) is None
    assert list(tmp_path.iterdir()) == []


async def test_nothing_is_written_through_a_link_and_a_file_is_the_owners_alone(tmp_path):
    """A dangling link and a link to an existing file are both refused, saying where they point; what
    is written is readable by its owner only, a file replaced too."""
    import os
    import stat

    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("kept")
    (tmp_path / "dangling.csv").symlink_to(tmp_path / "nowhere.csv")
    (tmp_path / "link.csv").symlink_to(elsewhere)
    replaced = tmp_path / "old.csv"
    replaced.write_text("old")
    os.chmod(replaced, 0o644)
    ui = PickingUI(tmp_path / "dangling.csv", tmp_path / "link.csv", replaced)
    assert await save_file_flow(ui, "Save", {"name": "a.csv", "content": "YQ=="}, default_dir=str(tmp_path))
    refusals = [m for s, m in ui.said if s == "error"]
    assert len(refusals) == 2 and all("symbolic link" in m for m in refusals)
    assert str(tmp_path / "nowhere.csv") in refusals[0] and str(elsewhere) in refusals[1]
    assert not (tmp_path / "nowhere.csv").exists() and elsewhere.read_text() == "kept"
    assert replaced.read_bytes() == b"a" and stat.S_IMODE(replaced.stat().st_mode) == 0o600


def test_the_journal_file_is_the_owners_alone(tmp_path):
    import os
    import stat

    from tui.api.journal import Journal

    path = tmp_path / "journal.jsonl"
    journal = Journal(lambda: "demo")
    assert journal.open_file(str(path)) is None
    journal.answered(journal.sent("DELETE", "https://a.example/x/1", None, "X-Auth-Token"), 204)
    journal.close()
    assert path.read_text() and stat.S_IMODE(os.stat(path).st_mode) == 0o600
