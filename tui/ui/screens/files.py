"""A file to load or a place to save (`ui.dialog("file", title=..., mode="open"|"save", path=...)`):
the path as text, typed or completed by browsing Textual's `DirectoryTree`. The answer is a `Path`,
or None when cancelled. Opening needs a readable file; saving over a file asks first (Cancel
focused). Keys: tab between the path and the tree, enter on a file picks it, on a folder opens
it, enter in the path confirms, esc cancels.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DirectoryTree, Input, Static
from textual.widgets.input import Selection

from ...api.safe import clean
from .. import styles
from ..widgets.dialog_title import DialogTitle
from ..widgets.line_input import LineInput


class SafeTree(DirectoryTree):
    """Textual's directory tree, its names shown as they are: a file name is anyone's text (a shared folder
    such as /tmp), never markup, and its control characters shown as escapes, never sent to the terminal."""

    def process_label(self, label: str | Text) -> Text:
        return Text(clean(str(label.plain if isinstance(label, Text) else label)), no_wrap=True)


class FilePickerScreen(ModalScreen["Path | None"]):
    CSS_PATH = styles.DIALOGS
    TYPE_AHEAD = True  # keys typed before it focuses a field wait for it (ui/typeahead.py)
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="cancel")]
    DEFAULT_CSS = """
    FilePickerScreen #dialog { height: 80%; }
    FilePickerScreen SafeTree { height: 1fr; min-height: 4; }
    """

    def __init__(self, title: str, mode: Literal["open", "save"] = "open", path: str | Path = "") -> None:
        super().__init__(id="file-dialog")
        self.title_text = title
        self.mode = mode
        start = Path(path or os.getcwd()).expanduser()
        self.folder = start if start.is_dir() else (start.parent if start.parent.is_dir() else Path.cwd())
        self.initial = "" if start.is_dir() else str(start)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="file-picker"):
            yield DialogTitle(self.title_text)
            example = f"~/{Path(self.initial).name}" if self.initial else "~/payload.json"
            yield LineInput(
                self.initial or str(self.folder) + os.sep, id="file-path", placeholder=f"a path, e.g. {example}"
            )
            yield Static("", id="file-error", classes="error", markup=False)
            yield SafeTree(self.folder, id="file-tree")
            verb = "open" if self.mode == "open" else "save"
            yield Static(
                f"enter {verb} · tab browse · enter on a folder opens it · esc cancel", classes="hint", markup=False
            )

    def on_mount(self) -> None:
        field = self.query_one("#file-path", Input)
        field.focus()
        if self.initial:  # a name offered: typing replaces it whole, an arrow or end edits it
            field.selection = Selection(0, len(field.value))
        else:  # a folder: what is typed is the name in it
            field.cursor_position = len(field.value)

    def on_directory_tree_file_selected(self, event: DirectoryTree.FileSelected) -> None:
        field = self.query_one("#file-path", Input)
        field.value = str(event.path)
        if self.mode == "open":
            self._choose(event.path)
        else:
            field.focus()

    def on_directory_tree_directory_selected(self, event: DirectoryTree.DirectorySelected) -> None:
        self.query_one("#file-path", Input).value = str(event.path) + os.sep

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._choose(Path(event.value.strip()).expanduser())

    def _choose(self, path: Path) -> None:
        if not str(path).strip():
            return self._error("Give a path.")
        if path.is_dir():  # a folder: browse it
            self.query_one("#file-tree", DirectoryTree).path = path
            self.query_one("#file-path", Input).value = str(path) + os.sep
            return self._error("")
        if self.mode == "open":
            if not path.is_file():
                return self._error(f"{path} is not a file that exists.")
            if not os.access(path, os.R_OK):
                return self._error(f"{path} cannot be read (permissions).")
            self.dismiss(path)
            return
        if not path.parent.is_dir():
            return self._error(f"{path.parent} is not a folder that exists.")
        if path.is_symlink():  # (a link pointing nowhere does not "exist"): nothing is written through one
            return self._error(
                f"{path} is a symbolic link (to {os.readlink(path)}): nothing is written through a link; "
                "choose another name."
            )  # (`_error` shows any name as text: its escapes made visible)
        if path.exists():
            from .confirm import ConfirmScreen

            def replace(yes: bool | None) -> None:
                if yes:
                    self.dismiss(path)

            self.app.push_screen(
                ConfirmScreen("Replace the file?", f"{path} exists and will be replaced.", "Replace"), replace
            )
            return None
        self.dismiss(path)
        return

    def _error(self, text: str) -> None:
        self.query_one("#file-error", Static).update(clean(text))  # a path is anyone's text

    def action_cancel(self) -> None:
        self.dismiss(None)
