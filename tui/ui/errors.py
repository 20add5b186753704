"""Turning failures into notifications that say the status, the message and what to do."""

from __future__ import annotations

import functools
import logging
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from textual.app import App

from ..api.errors import ApiError, OutcomeUnknown, UntrustedOrigin, log_file
from .console_app import console_of

if TYPE_CHECKING:
    from typing import Protocol

    from textual.notifications import SeverityLevel

    class Notifies(Protocol):
        """What a failure is said through: the app (or a part of it that says things as the app does)."""

        def notify(
            self,
            message: str,
            *,
            title: str = "",
            severity: SeverityLevel = "information",
            timeout: float | None = None,
            markup: bool = True,
        ) -> None: ...


log = logging.getLogger("cloudtui.ui")
F = TypeVar("F", bound=Callable[..., Any])


def describe(err: BaseException) -> tuple[str, str]:
    """(summary, hint) for any exception; never includes request headers or secrets."""
    if isinstance(err, ApiError):
        return err.summary, err.hint
    from ..products.kit.flows import Refused

    if isinstance(err, Refused):  # a rule or a local step (a file) said no: nothing was sent
        return str(err), "Change it and try again, or esc to close."
    where = log_file()
    return (
        f"unexpected {type(err).__name__}: {err}",
        "This is a bug in cloudtui; the console keeps running. "
        + (f"Details are in {where}." if where else "Run with --debug-log FILE for details."),
    )


def log_shown(doing: str, summary: str, err: BaseException | None = None) -> None:
    """A failure shown inside a dialog (a form, a list editor) is kept in the log too, as a
    notification's is; an unexpected one (`err`, not the API's answer nor a rule's) with its
    traceback, which the "this is a bug … details are in" message points to."""
    from ..products.kit.flows import Refused

    if err is not None and not isinstance(err, (ApiError, Refused)):
        log.error("%s: %s", doing, summary, exc_info=err)
        return
    log.warning("%s: %s", doing, summary)


def notify_error(app: Notifies, err: BaseException, doing: str) -> None:
    from ..products.kit.flows import Refused

    if isinstance(err, Refused):  # a rule checked before sending: nothing was sent
        nothing = type(err).__name__ == "NothingToDo"  # what was asked is already so
        app.notify(
            f"{err}\n{err.nothing}",
            title=f"{doing}: {'nothing to do' if nothing else 'refused'}",
            severity="information" if nothing else "warning",
            timeout=10,
        )
        return
    if not isinstance(err, ApiError):
        log.error("%s failed", doing, exc_info=err)
    summary, hint = describe(err)
    console = console_of(app)
    if isinstance(err, UntrustedOrigin) and console is not None:
        app.notify(f"{summary}\n{hint}", title=f"{doing}: not sent", severity="warning", timeout=12)
        console.origins.ask(err.origin)
        return
    if isinstance(err, OutcomeUnknown):
        app.notify(f"{summary}\n{hint}", title=f"{doing}: outcome unknown", severity="warning", timeout=15)
        return
    app.notify(f"{summary}\n{hint}", title=f"{doing}: failed", severity="error", timeout=12)


def notify_lost(app: Notifies, doing: str, told: str) -> None:
    """A write's answer was lost: say that it may have been applied, and what looking found
    (`looks.Found.told`)."""
    app.notify(told, title=f"{doing}: the answer was lost", severity="warning", timeout=20)


def report_bug(app: App[Any], err: BaseException, doing: str) -> None:
    """From a render path: log now, notify once the current refresh is over."""
    log.error("%s failed", doing, exc_info=err)
    app.call_later(notify_error, app, err, doing)


def guarded(doing: str) -> Callable[[F], F]:
    """Run a key or message handler so that a bug in it becomes a notification.

    Textual stops a widget's message loop and exits the app on an unhandled exception; operators
    must keep their console, so user-facing handlers catch, log and notify instead.
    """

    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def handler(self: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                return fn(self, *args, **kwargs)
            except Exception as err:
                notify_error(self.app, err, doing)
                return None

        return handler  # type: ignore[return-value]  # (it takes and gives what `fn` does)

    return wrap
