"""The detail of the row under the cursor, beside the list (below it on a narrow terminal): its kind's
declared detail fields that the row the list holds has, so moving down a list reads each row's details without
a request or a screen of its own. It follows the cursor a moment after it stops (a held key draws the
pane once), keeps what it drew by row (a row read again is a new object: drawn again), and `enter`
still opens the full detail. Nothing here names a product; values are shown as text, never markup."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from ...api.safe import clean

FOLLOW = 0.08  # seconds the cursor rests before the pane follows it
KEPT = 256  # rows' texts kept (the most recent), so going back up costs nothing


class DetailPane(VerticalScroll, can_focus=False):
    DEFAULT_CSS = """
    DetailPane { width: 1fr; height: 1fr; border: round $primary-darken-2; padding: 0 1; display: none; }
    DetailPane.-shown { display: block; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._kept: dict[int, Text] = {}  # id(row) -> its text
        self._rows: dict[int, Any] = {}  # id(row) -> row: a row kept keeps its id from being reused
        self._due: Any = None
        self.shown_row: Any = None

    def compose(self) -> Any:
        yield Static(id="pane-body", markup=False)

    def follow(self, kind: Any, row: Any) -> None:
        """The row under the cursor: drawn a moment after the cursor rests."""
        if self._due is not None:
            self._due.stop()
        self._due = self.set_timer(FOLLOW, lambda: self.show(kind, row))

    def show(self, kind: Any, row: Any) -> None:
        self._due = None
        self.shown_row = row
        if row is None:
            self.border_title = ""
            self.query_one("#pane-body", Static).update("")
            return
        text = self._kept.get(id(row))
        if text is None or self._rows.get(id(row)) is not row:
            text = _text_of(kind, row)
            if len(self._kept) >= KEPT:
                oldest = next(iter(self._kept))
                self._kept.pop(oldest)
                self._rows.pop(oldest, None)
            self._kept[id(row)], self._rows[id(row)] = text, row
        self.border_title = clean(str(row.name or row.id))
        self.query_one("#pane-body", Static).update(text)
        self.scroll_home(animate=False)


def _text_of(kind: Any, row: Any) -> Text:
    """The kind's declared fields the row holds, one per key and line: its title, then the value as the
    detail reads it, or as the list's column does when only the column's reading is in the row (a
    server's state, its address); what the list does not keep is the full detail's (`enter`)."""
    out, done = Text(), set()
    for f in kind.fields:
        if f.key in done:
            continue
        for g in sorted((g for g in kind.fields if g.key == f.key), key=lambda g: not g.detail):
            line = _line(g, row)
            if line is not None:
                done.add(f.key)
                out.append(f"{clean(g.title)}: ", style="bold")
                out.append_text(line)
                out.append("\n")
                break
    return out


def _line(field: Any, row: Any) -> Text | None:
    if field.path and not field.values(row):
        return None
    try:
        value = field.shown(row) if field.detail else field.cell(row)
    except Exception:  # a computed value that needs the full object: the full detail shows it
        return None
    text = str(value if value is not None else "")
    line = value if isinstance(value, Text) else Text(clean(text, keep_newlines=True))  # lines stay lines
    return line if line.plain.strip() else None
