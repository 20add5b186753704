"""Notifications as the console shows them: plain text, logged when they are failures, kept for
the tests (`app.notes`), one toast for a message said again. A part the app owns."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from ..api.safe import clean, cut
from ..records import record

LINE_MOST = 300  # characters of a line of a notification: a name from the API may be any length

if TYPE_CHECKING:
    from textual.app import App

log = logging.getLogger("cloudtui.ui")


@record(frozen=True)
class Note:
    """A notification as shown: plain text."""

    title: str
    message: str
    severity: str


class Notices:
    """The app's notifications as said (`app.notices`): each made plain text, cut, logged when a failure,
    kept (`kept`: the last 200, which tests read), and one toast for a message said again."""

    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self.kept: list[Note] = []
        self.hint_keys: dict[str, str] = {}  # a moved binding's default key → the key in force (`keymap.moved`)

    def made(self, message: str, title: str, severity: str) -> Note:
        """The notification as it will be shown. Every notification is plain text: messages carry names and
        errors from the API, which must never be read as markup (`[/]` would raise, `[@click=…]` would become
        a link), and each line is cut at LINE_MOST (a 5,000-character name covered the screen). Its hints
        ("refresh (r)") name the keys in force (`keymap.moved`). The same one still shown is taken down: it
        is shown again, timed anew."""
        if self.hint_keys:
            from .keymap import said_with

            message = said_with(str(message), self.hint_keys)
        lines = clean(message, keep_newlines=True).split("\n")
        note = Note(cut(clean(title), LINE_MOST), "\n".join(cut(line, LINE_MOST) for line in lines), str(severity))
        if note.severity in ("warning", "error"):  # every failure shown is logged too (no secret is ever in one)
            log.warning("%s: %s", note.title or "notice", note.message.replace("\n", " · "))
        self.kept.append(note)
        del self.kept[:-200]
        drop = getattr(self.app, "_unnotify", None)  # (Textual's own: pinned, and guarded should it go)
        for shown in list(getattr(self.app, "_notifications", ())) if drop else ():
            if (shown.title, shown.message, shown.severity) == (note.title, note.message, note.severity):
                drop(shown, refresh=False)  # type: ignore[misc]  # (not None: the loop runs only when it is not)
        return note
