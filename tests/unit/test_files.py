"""Saving a file the platform answers: where the operator picks, and a write that fails asks again."""

from __future__ import annotations

import base64

import pytest

from tui.products.files import save_file_flow

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
