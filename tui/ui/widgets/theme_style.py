"""Theme colours as Rich styles, for what is drawn as Rich text rather than styled by Textual CSS."""

from __future__ import annotations

from rich.style import Style
from textual.color import Color


def theme_colour(value: str | None, *, background: bool = False) -> Style:
    """A theme colour as a Rich style. Theme values are Textual colours ("ansi_magenta", "#ff0",
    "rgb(…)") that Rich cannot always parse (the ansi-dark and ansi-light themes left the console
    deaf with MissingStyle): parsed by Textual, and no colour when even that fails."""
    if not value:
        return Style()
    try:
        colour = Color.parse(value).rich_color
    except Exception:
        return Style()
    return Style(bgcolor=colour) if background else Style(color=colour)
