"""Log in: API URL, project id and secret key (masked); the connection is tested before saving.

The key goes to the system keyring. Where there is none, the modal says so and the key is kept
for this session only; it is never written to disk in clear.
"""

from __future__ import annotations

import asyncio
from typing import Awaitable, Callable, Literal

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from ...api.errors import AuthenticationError
from ...api.secret import Secret
from ...config import UUID_RE, ConfigNotSaved, Profile, save_profile
from ...records import record
from ...secrets import store
from .. import styles
from ..errors import describe
from ..widgets.line_input import LineInput

Tester = Callable[[str, Secret], Awaitable[str]]


@record
class LoginResult:
    api_url: str
    project_id: str
    secret: Secret
    stored: Literal["keyring", "session"]


class LoginScreen(ModalScreen[LoginResult | None]):
    CSS_PATH = styles.DIALOGS
    TYPE_AHEAD = True  # keys typed before it focuses a field wait for it (ui/typeahead.py)
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="cancel"), Binding("ctrl+s", "save", "Save", id="send")]

    def __init__(
        self, profile: Profile, test: Tester, *, problem: str | None = None, keyring_problem: str | None = None
    ) -> None:
        super().__init__(id="login")
        self.profile = profile
        self.test = test
        self.problem = problem
        self.keyring_problem = keyring_problem

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="login"):
            yield Label(f"Log in · profile {self.profile.name}", id="dialog-title", markup=False)
            if self.problem:
                yield Static(f"✖ {self.problem}", classes="login-problem", markup=False)
            if self.keyring_problem:
                yield Static(
                    f"⚠ {self.keyring_problem} The key will be kept for this session only, never written to disk."
                    " To skip this prompt, set CLOUDTUI_SECRET_KEY in the environment.",
                    id="keyring-note",
                    markup=False,
                )
            with Horizontal(classes="form-row"):
                yield Label("API URL", classes="form-label")
                yield LineInput(self.profile.api_url, placeholder="https://api.example.com", id="api-url", compact=True)
            with Horizontal(classes="form-row"):
                yield Label("Project ID", classes="form-label")
                yield LineInput(
                    self.profile.project_id, placeholder="UUID of the project", id="project-id", compact=True
                )
            with Horizontal(classes="form-row"):
                yield Label("Secret key", classes="form-label")
                yield LineInput(password=True, placeholder="secret key (hidden)", id="secret", compact=True)
            yield Static("", id="login-status", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Test connection", id="test")
                yield Button("Save (ctrl+s)", id="save", variant="primary")

    def on_mount(self) -> None:
        for wid in ("#api-url", "#project-id", "#secret"):
            box = self.query_one(wid, Input)
            if not box.value:
                box.focus()
                break

    def _fields(self) -> tuple[str, str, Secret] | None:
        import re

        url = self.query_one("#api-url", Input).value.strip().rstrip("/")
        project = self.query_one("#project-id", Input).value.strip()
        secret = self.query_one("#secret", Input).value.strip()
        if not re.match(r"^https?://[^\s/]+", url):
            self._bad("#api-url", "API URL: an http:// or https:// address is required")
            return None
        if not re.match(UUID_RE, project):
            self._bad("#project-id", "Project ID: a UUID is required")
            return None
        if not secret:
            self._bad("#secret", "Secret key: required")
            return None
        return url, project, Secret(secret)

    def _bad(self, wid: str, message: str) -> None:
        self._status(f"✖ {message}", error=True)
        self.query_one(wid, Input).focus()
        return None

    def _status(self, text: str, error: bool = False) -> None:
        status = self.query_one("#login-status", Static)
        status.update(text)
        status.set_class(error, "-error")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        {"cancel": self.action_cancel, "test": self.action_test, "save": self.action_save}[
            event.button.id or "cancel"
        ]()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_save()

    def action_test(self) -> None:
        fields = self._fields()
        if fields:
            self._run(fields, save=False)

    def action_save(self) -> None:
        fields = self._fields()
        if fields:
            self._run(fields, save=True)

    @work(exclusive=True, group="login", exit_on_error=False)
    async def _run(self, fields: tuple[str, str, Secret], save: bool) -> None:
        url, project, secret = fields
        self._status("Testing the connection…")
        try:
            found = await self.test(url, secret)
        except Exception as err:
            summary, hint = describe(err)
            if isinstance(err, AuthenticationError):  # here, not "ctrl+l to log in again": this is that dialog
                hint = "The secret key was rejected: check it, and that the project ID is the key's project."
            self._status(f"✖ {summary}\n{hint}", error=True)
            return
        if not save:
            self._status(f"✔ Connected: {found}")
            return
        profile = Profile(**{**self.profile.__dict__, "api_url": url, "project_id": project})
        try:
            await asyncio.to_thread(save_profile, profile)
        except ConfigNotSaved as err:  # the file is kept as it is; this session goes on with what was typed
            self.app.notify(f"The profile was not saved: {err}", title="Configuration", severity="warning", timeout=15)
        except OSError as err:
            self._status(f"✖ Could not save the profile: {err}", error=True)
            return
        problem = await asyncio.to_thread(store, self.profile.name, secret)
        self.dismiss(LoginResult(url, project, secret, "session" if problem else "keyring"))

    def _typed(self) -> tuple[str, ...]:
        return tuple(self.query_one(wid, Input).value for wid in ("#api-url", "#project-id", "#secret"))

    def action_cancel(self) -> None:
        """Close; when something was typed, ask first (Cancel keeps the dialog), as every form does."""
        from .confirm import close_or_ask

        unsent = self._typed() != (self.profile.api_url, self.profile.project_id, "")
        close_or_ask(
            self,
            unsent,
            "Drop what you typed?",
            "This dialog holds input that was not saved. Drop it, or go back to it.",
        )
