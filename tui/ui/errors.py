"""Turning failures into notifications that say the status, the message and what to do."""

from __future__ import annotations

from textual.app import App

from ..api.errors import ApiError


def describe(err: BaseException) -> tuple[str, str]:
    """(summary, hint) for any exception; never includes request headers or secrets."""
    if isinstance(err, ApiError):
        return err.summary, err.hint
    return f"unexpected {type(err).__name__}: {err}", "This is a bug in cloudtui; the console keeps running. Please report it."


def notify_error(app: App, err: BaseException, doing: str) -> None:
    summary, hint = describe(err)
    app.notify(f"{summary}\n{hint}", title=f"{doing} failed", severity="error", timeout=12)
