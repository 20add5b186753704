"""Origins the secret key may go to, beyond the profile's own: when an answer points a request
at another one (a model's prediction endpoint on its own host), the operator is asked once, Cancel
focused; yes is remembered in the profile (not in the demo). A mixin of the App."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Awaitable, Callable

from textual import work

from ..api.safe import clean

if TYPE_CHECKING:
    from textual.app import CallThreadReturnType
    from textual.notifications import SeverityLevel
    from textual.screen import Screen

    from ..api.client import ApiClient
    from ..config import Settings


class Origins:
    asked_origins: set[str]
    clients: dict[str, ApiClient]
    settings: Settings

    if TYPE_CHECKING:  # the app's own (`CloudApp`, Textual's `App`)

        def notify(
            self,
            message: str,
            *,
            title: str = "",
            severity: SeverityLevel = "information",
            timeout: float | None = None,
            markup: bool = True,
        ) -> None: ...

        def push_screen(self, screen: Screen[bool], callback: Callable[[bool | None], None]) -> object: ...

        def call_from_thread(
            self,
            callback: Callable[..., CallThreadReturnType | Awaitable[CallThreadReturnType]],
            *args: object,
            **kwargs: object,
        ) -> CallThreadReturnType: ...

    def ask_origin(self, origin: str, then: Callable[[], Any] | None = None, again: bool = False) -> None:
        """An answer pointed a request at an origin the profile does not name: ask once whether the
        secret key may go there (`again`: asked even if refused before, for a request the operator
        sent with a key); yes is remembered in the profile, and `then` (the request again, when
        nobody has to press a key for it) is called."""
        if origin in self.asked_origins and not again:
            return
        self.asked_origins.add(origin)
        from .screens.confirm import ConfirmScreen

        def answered(ok: bool | None) -> None:
            if not ok:
                return
            for client in self.clients.values():
                client.trusted.add(origin)
            self.settings.allowed_origins = (*self.settings.allowed_origins, origin)
            if not self.settings.demo:
                self._remember_origin(origin)
            if then is not None:
                self.notify(f"The secret key may now go to {origin}.", timeout=8)  # notify cleans it
                then()
                return
            self.notify(f"The secret key may now go to {origin}: try again.", timeout=8)

        self.push_screen(
            ConfirmScreen(
                "Send the secret key to another origin?",
                f"The API pointed a request at {clean(origin)}, which profile {self.settings.profile!r} does not name. "
                "Allowed, the secret key is sent there from now on (remembered in the profile's allowed_origins).",
                "Allow",
            ),
            answered,
        )

    @work(thread=True, exit_on_error=False)
    def _remember_origin(self, origin: str) -> None:
        from ..config import ConfigNotSaved, allow_origin

        try:
            allow_origin(self.settings.profile, origin)
        except (ConfigNotSaved, OSError) as err:
            self.call_from_thread(
                self.notify, f"Allowed for this session only: {err}", title="Configuration", severity="warning"
            )
