"""Origins the secret key may go to, beyond the profile's own: when an answer points a request
at another one (a model's prediction endpoint on its own host), the operator is asked once, Cancel
focused; yes is remembered in the profile (not in the demo). A part of the app (`app.origins`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..api.safe import clean

if TYPE_CHECKING:
    from .app import CloudApp


class OriginGuard:
    def __init__(self, app: CloudApp) -> None:
        self.app = app
        self.asked: set[str] = set()  # origins the operator was asked about this session

    def ask(self, origin: str, then: Callable[[], Any] | None = None, again: bool = False) -> None:
        """An answer pointed a request at an origin the profile does not name: ask once whether the
        secret key may go there (`again`: asked even if refused before, for a request the operator
        sent with a key); yes is remembered in the profile, and `then` (the request again, when
        nobody has to press a key for it) is called."""
        if origin in self.asked and not again:
            return
        self.asked.add(origin)
        from .screens.confirm import ConfirmScreen

        app = self.app

        def answered(ok: bool | None) -> None:
            if not ok:
                return
            for client in app.clients.values():
                client.trusted.add(origin)
            app.settings.allowed_origins = (*app.settings.allowed_origins, origin)
            if not app.settings.demo:
                app.run_worker(lambda: self._remember(origin), thread=True, exit_on_error=False)
            if then is not None:
                app.notify(f"The secret key may now go to {origin}.", timeout=8)  # notify cleans it
                then()
                return
            app.notify(f"The secret key may now go to {origin}: try again.", timeout=8)

        app.push_screen(
            ConfirmScreen(
                "Send the secret key to another origin?",
                f"The API pointed a request at {clean(origin)}, which profile {app.settings.profile!r} does not name. "
                "Allowed, the secret key is sent there from now on (remembered in the profile's allowed_origins).",
                "Allow",
            ),
            answered,
        )

    def _remember(self, origin: str) -> None:
        """(in a thread) The origin written into the profile's allowed_origins."""
        from ..config import ConfigNotSaved, allow_origin

        try:
            allow_origin(self.app.settings.profile, origin)
        except (ConfigNotSaved, OSError) as err:
            self.app.call_from_thread(
                self.app.notify, f"Allowed for this session only: {err}", title="Configuration", severity="warning"
            )
