"""The console's own themes, beside Textual's: one in the terminal's 16 colours (its own palette, so
a light terminal and a dark one both read well) and a high-contrast one; and the theme chosen, kept
in the config's `[ui]` table for the next start (written off the UI thread)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.segment import Segment
from textual.filter import LineFilter
from textual.theme import Theme

if TYPE_CHECKING:
    from rich.terminal_theme import TerminalTheme
    from textual.app import App
    from textual.color import Color

    from .app import CloudApp

TERMINAL = Theme(
    name="terminal",
    ansi=True,
    primary="ansi_blue",
    secondary="ansi_cyan",
    warning="ansi_yellow",
    error="ansi_red",
    success="ansi_green",
    accent="ansi_magenta",
    foreground="ansi_default",
    background="ansi_default",
    surface="ansi_default",
    panel="ansi_default",
    boost="ansi_default",
    dark=True,
    variables={
        "ansi-background": "ansi_default",
        "ansi-foreground": "ansi_default",
        "border": "ansi_blue",
        "border-blurred": "ansi_bright_black",
        "block-cursor-foreground": "ansi_bright_white",
        "block-cursor-background": "ansi_blue",
        "block-cursor-text-style": "bold",
        "input-cursor-background": "ansi_blue",
        "input-cursor-foreground": "ansi_bright_white",
        "input-selection-background": "ansi_cyan",
        "footer-key-foreground": "ansi_blue",
        "button-color-foreground": "ansi_default",
    },
)

HIGH_CONTRAST = Theme(
    name="high-contrast",
    primary="#FFFF00",
    secondary="#00FFFF",
    warning="#FFAA00",
    error="#FF5555",
    success="#55FF55",
    accent="#FFFF00",
    foreground="#FFFFFF",
    background="#000000",
    surface="#000000",
    panel="#1A1A1A",
    boost="#000000",
    dark=True,
    variables={
        "border": "#FFFFFF",
        "border-blurred": "#BBBBBB",
        "block-cursor-foreground": "#000000",
        "block-cursor-background": "#FFFF00",
        "block-cursor-text-style": "bold",
        "text-muted": "#DDDDDD",
        "input-cursor-background": "#FFFF00",
        "input-cursor-foreground": "#000000",
        "footer-key-foreground": "#FFFF00",
    },
)

OWN = (TERMINAL, HIGH_CONTRAST)


def register(app: App[Any], chosen: str) -> None:
    """The console's themes made available, and the one last chosen put on (a name no longer known
    is left: the default stays)."""
    for theme in OWN:
        app.register_theme(theme)
    if chosen and chosen in app.available_themes:
        app.theme = chosen


def unknown(app: CloudApp) -> str:
    """The config's theme when it is none the console knows ("" when it is)."""
    chosen = app.settings.theme
    if chosen and chosen not in app.available_themes:
        return f"Theme {chosen!r} is not one of the console's: the default is used (the palette's Theme lists them)."
    return ""


def no_colour(app: App[Any]) -> None:
    """`NO_COLOR`: no colour escape at all. Textual draws such a terminal in greys (256-colour escapes);
    its filter that sends none is put in their place, and what colour alone showed (a cursor, a
    highlighted choice, a focused field) is shown by reverse video instead (`styles/app.tcss`, `:nocolor`)."""
    if not app.no_color:
        return
    from textual.filter import Monochrome, NoColor

    app._filters = [Colourless() if isinstance(f, (Monochrome, NoColor)) else f for f in app._filters]


# What colour alone showed, by text style when there is no colour (`CloudApp.get_css_variables`).
# Textual draws its own reverse video by swapping colours, which are gone: underline and bold stay.
NO_COLOUR_STYLES = {
    "block-cursor-text-style": "bold underline",
    "block-cursor-blurred-text-style": "underline",
    "input-cursor-text-style": "underline",
    "button-focus-text-style": "bold underline",
}


class Colourless(LineFilter):
    """Every segment without its colours (not even "default": no colour escape is sent at all), its
    other attributes (bold, reverse, underline) kept."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [Segment(t, None if s is None else s.without_color, c) for t, s, c in segments]


# A production profile's own accent, on every screen and in every theme: borders, focus, the key bar.
PRODUCTION = {
    "primary": "#E5484D",
    "accent": "#E5484D",
    "border": "#E5484D",
    "footer-key-foreground": "#E5484D",
}


REDS = (1, 9)  # red and bright red of a 16-colour terminal: production's own there


YELLOW = "#FFD700"  # drawn bright yellow by a terminal of 16 colours (Textual's "ansi_yellow" is its orange)


def red_in_16(value: str, ansi: TerminalTheme | None = None) -> bool:
    """Whether a colour is drawn red (or bright red) by a terminal of 16 colours (an orange accent is).
    `ansi`: the terminal theme Textual draws an `ansi_*` colour of a full-colour theme with (its yellow is
    orange); without it an `ansi_*` colour is the terminal's own."""
    from rich.color import ANSI_COLOR_NAMES, Color, ColorParseError, ColorSystem

    try:
        if value.startswith("ansi_"):
            number = ANSI_COLOR_NAMES.get(value[5:])
            if number is None or number >= 16:
                return False
            if ansi is None:
                return number in REDS
            colour = Color.from_triplet(ansi.ansi_colors[number])
        else:
            colour = Color.parse(value)
        return colour.downgrade(ColorSystem.STANDARD).number in REDS
    except (ColorParseError, IndexError, AttributeError):
        return False


def in_16_colours(app: App[Any]) -> bool:
    """Whether the console draws in a terminal of 16 colours (`TERM=xterm`); never when headless (a test,
    a snapshot: drawn in full colour, whatever the terminal the tests run in)."""
    return not app.is_headless and app.console.color_system == "standard"


def _errors(variable: str) -> bool:
    """A variable of an error's colour (red in every theme, and meant to be)."""
    return variable.startswith(("error", "text-error")) or "-error" in variable


def keep(app: App[Any], name: str) -> None:
    """The theme just chosen, written to the config for the next start, in a thread; a config that
    cannot be written is said once."""
    from ..config import save_ui

    def write() -> None:
        try:
            save_ui("theme", name)
        except Exception as err:  # an unreadable file is not written over; a full disk: said, not fatal
            app.call_from_thread(app.notify, f"The theme is not kept for next time: {err}", severity="warning")

    app.run_worker(write, thread=True, group="keep-theme", exclusive=True, exit_on_error=False)


class Looks:
    """The app's looks (`app.looks`): the CSS variables a profile, a terminal of 16 colours or NO_COLOR
    change (`variables`, over the theme's), and the theme kept when chosen."""

    def __init__(self, app: CloudApp) -> None:
        self.app = app
        self.sixteen = False  # drawn in a terminal of 16 colours (`in_16_colours`, known once mounted)

    def colours_known(self) -> None:
        """Once mounted (headless or not is known then): in a terminal of 16 colours, the colours it draws
        red made yellow but production's (`variables`)."""
        if in_16_colours(self.app):
            self.sixteen = True
            self.app.refresh_css(animate=False)

    def variables(self, variables: dict[str, str]) -> dict[str, str]:
        """The theme's CSS variables as this console draws them."""
        app, settings = self.app, self.app.settings
        if settings.production and not app.no_color:  # its own accent, everywhere
            ansi = getattr(app.current_theme, "ansi", False)
            variables.update({k: "ansi_red" for k in PRODUCTION} if ansi else PRODUCTION)  # the terminal's own red
        elif not app.no_color and self.sixteen:
            # 16 colours: a theme's orange (accent, warning) is drawn red there; red is production's and errors'
            ansi_theme = None if getattr(app.current_theme, "ansi", False) else app.ansi_theme
            variables.update(
                {k: YELLOW for k, v in variables.items() if not _errors(k) and red_in_16(str(v), ansi_theme)}
            )
        if app.no_color:  # no colour at all: what colour showed is shown by text style
            variables.update(NO_COLOUR_STYLES)
        return variables

    def theme_chosen(self, theme: str) -> None:
        """Chosen now, the console running: kept for next start (not the theme set while the app is made)."""
        settings = self.app.settings
        if self.app.is_running and theme != settings.theme:
            settings.theme = theme
            keep(self.app, theme)
