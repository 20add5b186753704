"""The console app as its screens and widgets reach it, typed: `console_of(node)` is the `CloudApp` a
screen runs in, or None where a test runs that screen in a bare Textual app (a form, a chart, help);
`wall_time(node)` is the console's wall clock (fixed in tests and snapshots), else the system's."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Callable, TypeVar, cast

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from .app import CloudApp

T = TypeVar("T")


_CONSOLE: list[type] = []  # the console's App class, named by `app.py` as it is defined (`console`)


def console(cls: type[T]) -> type[T]:
    """Names the console's App class (`@console` on `CloudApp`): this module does not import it, which
    would import every screen that reaches it here."""
    _CONSOLE[:] = [cls]
    return cls


def console_of(node: object) -> CloudApp | None:
    """The console `node` is part of (a widget, a screen, or the app itself), or None in a bare app."""
    from textual.app import App
    from textual.dom import DOMNode

    app = node if isinstance(node, App) else node.app if isinstance(node, DOMNode) else None
    return cast("CloudApp", app) if _CONSOLE and isinstance(app, _CONSOLE[0]) else None


def key_in_force(node: DOMNode) -> Callable[[str, str], str]:
    """The key in force for a binding id, for a hint's words (`CloudApp.key_for`): its default in a bare app."""
    console = console_of(node)
    return console.key_for if console is not None else (lambda binding_id, default: default)


def expecting_question(node: DOMNode) -> Callable[[], None]:
    """A send from inside a dialog (an editor's or a grid's ctrl+s) may ask a question first (a production
    profile's typed name): keys typed meanwhile wait for it (`TypeAhead.expect_screen`) rather than reach
    the dialog behind it. What to call once the send is over (no question came, or it was answered)."""
    console = console_of(node)
    if console is None:
        return lambda: None
    console.type_ahead.expect_screen()
    return console.type_ahead.expect_done


def wall_time(node: DOMNode) -> float:
    """Now, as the console's clock says (the one every age shown is counted from)."""
    console = console_of(node)
    return float(console.clock()) if console is not None else time.time()
