"""Notifications as the console shows them: plain text, logged when they are failures, kept for
the tests (`app.notes`), one toast for a message said again. A mixin of the App."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from ..api.safe import clean, cut
from ..records import record

LINE_MOST = 300  # characters of a line of a notification: a name from the API may be any length

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel

log = logging.getLogger("cloudtui.ui")


@record(frozen=True)
class Note:
    """A notification as shown: plain text."""

    title: str
    message: str
    severity: str


class Notes:
    notes: list[Note]
    hint_keys: dict[str, str] = {}  # a moved binding's default key → the key in force (`keymap.moved`)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Every notification is plain text: messages carry names and errors from the API, which
        must never be read as markup (`[/]` would raise, `[@click=…]` would become a link), and each
        line is cut at LINE_MOST (a 5,000-character name covered the screen). Its hints ("refresh (r)")
        name the keys in force (`keymap.moved`)."""
        if self.hint_keys:
            from .keymap import said_with

            message = said_with(str(message), self.hint_keys)
        lines = clean(message, keep_newlines=True).split("\n")
        note = Note(cut(clean(title), LINE_MOST), "\n".join(cut(line, LINE_MOST) for line in lines), str(severity))
        if note.severity in ("warning", "error"):  # every failure shown is logged too (no secret is ever in one)
            log.warning("%s: %s", note.title or "notice", note.message.replace("\n", " · "))
        self.notes.append(note)
        del self.notes[:-200]
        drop = getattr(self, "_unnotify", None)  # (Textual's own: pinned, and guarded should it go)
        for shown in list(getattr(self, "_notifications", ())) if drop else ():  # said again: one toast, timed anew
            if (shown.title, shown.message, shown.severity) == (note.title, note.message, str(severity)):
                drop(shown, refresh=False)  # type: ignore[misc]  # (not None: the loop runs only when it is not)
        super().notify(  # type: ignore[misc]  # (a mixin: App's own, after it in the app's MRO)
            note.message, title=note.title, severity=severity, timeout=timeout, markup=False
        )
