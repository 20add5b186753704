"""A diff to review (`ui.dialog("diff", title=..., entries=[...])`): what is added, changed (old →
new) and deleted, from `products.kit.diff`. Each line keeps its marker (+ ~ -) so it reads without
colour; colour adds green, yellow and red. Lines are drawn as they scroll into view (`TextLines`),
so a review of hundreds of changes opens as fast as one of three. Text from the API is cleaned,
never markup. `y` copies the plain lines; with `confirm_label` it asks (Cancel focused) and answers
True for that button."""

from __future__ import annotations

from typing import Any

from textual.widget import Widget

from ...products.kit.diff import as_lines, counts
from ..widgets.text_lines import TextLines
from .result import ResultScreen

STYLE = {"+": "green", "~": "yellow", "-": "red"}


class DiffScreen(ResultScreen):
    def __init__(self, title: str, entries: list[Any], *, confirm_label: str | None = None) -> None:
        super().__init__(
            f"{title} ({counts(entries)})",
            "\n".join(as_lines(entries)) or "Nothing differs.",
            confirm_label=confirm_label,
        )
        self.entries = entries

    def body(self) -> Widget:
        return TextLines([(line, STYLE.get(line[:1], "")) for line in self.text.splitlines()], id="result-scroll")
