"""A dialog's title: plain text (never markup), cut to TITLE_MOST characters — a title names what the
dialog acts on, and a name from the API may be any length (a 5,000-character one pushed a form's
fields and buttons out of sight)."""

from __future__ import annotations

from textual.widgets import Label

from ...api.safe import cut

TITLE_MOST = 160  # two lines of a dialog at 80 columns


class DialogTitle(Label):
    def __init__(self, text: str) -> None:
        super().__init__(cut(text, TITLE_MOST), id="dialog-title", markup=False)
