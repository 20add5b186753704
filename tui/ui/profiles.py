"""Profiles inside the app (issue 35, item 6): switch account, project and API URL from the palette
without quitting, as k9s switches contexts.

A profile source says which profiles there are and opens one: its settings (its own zone, region, CA
bundle and allowed origins; `--read-only` holds for the session) and its key. `ConfigProfiles` reads
the config file and the system keyring (in a worker: a keyring may block on D-Bus); `DemoProfiles`
is `--demo`'s: the demo account, and a staging one served by a second sandbox started on first use.
`ProfileSwitch` (a part of the app) asks first when staged changes would be lost, closes the old
clients, forgets what the old account's lists held (the index, the watched resources), and starts
the console again for the new profile — or opens the login when it has no key yet.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Callable

from ..api.errors import ConfigError
from ..api.secret import Secret
from ..config import Settings
from ..products.kit import own_columns
from ..products.kit.location import PLATFORM
from ..records import record

if TYPE_CHECKING:
    from typing import Protocol

    import httpx

    from .app import CloudApp

    class ProfileSource(Protocol):
        """Which profiles there are, and one opened (`ConfigProfiles`, `DemoProfiles`, `OneProfile`)."""

        def names(self) -> list[str]: ...

        def open(self, name: str) -> Opened: ...


@record
class Opened:
    """A profile ready to use: its settings and key, and a transport of its own (an in-process sandbox)."""

    settings: Settings
    secret: Secret | None
    source: str | None
    transport: httpx.AsyncBaseTransport | None = None
    keyring_problem: str | None = None


class ConfigProfiles:
    """The profiles of the config file (read once, when the console starts)."""

    def __init__(self, current: str, read_only: bool) -> None:
        from ..config import ConfigFile

        self.read_only = read_only
        self._names = sorted(set(ConfigFile.load().profiles) | {current})

    def names(self) -> list[str]:
        return self._names

    def open(self, name: str) -> Opened:
        """Blocking (the file, the keyring): run it off the UI thread."""
        from .. import secrets
        from ..config import resolve

        settings = resolve({"profile": name, "read_only": self.read_only})
        problems = settings.problems()
        if problems:
            raise ConfigError(0, "; ".join(problems))  # said as the configuration's, not as a bug
        found = secrets.lookup(name)
        return Opened(settings, found.secret, found.source, keyring_problem=found.keyring_problem)


class DemoProfiles:
    """`--demo`'s two accounts: the demo's own, and "demo-staging", opened by `second` on first use
    (a second sandbox, seeded apart) and kept for the session."""

    def __init__(self, first: Opened, second: Callable[[], Opened], second_name: str = "demo-staging") -> None:
        self.opened: dict[str, Opened] = {first.settings.profile: first}
        self._second, self._second_name = second, second_name

    def names(self) -> list[str]:
        return sorted({*self.opened, self._second_name})

    def open(self, name: str) -> Opened:
        if name not in self.opened:
            if name != self._second_name:
                raise ConfigError(0, f"no profile {name!r} in the demo")
            self.opened[name] = self._second()
        return self.opened[name]


class OneProfile:
    """A console run without profiles to switch to (tests, a profile given by the environment only)."""

    def __init__(self, opened: Opened) -> None:
        self.opened = opened

    def names(self) -> list[str]:
        return [self.opened.settings.profile]

    def open(self, name: str) -> Opened:
        if name != self.opened.settings.profile:
            raise ConfigError(0, f"no profile {name!r}")
        return self.opened


class ProfileSwitch:
    """The switch from one profile to another, and the quit: a part of the app (`app.profile_switch`)."""

    def __init__(self, app: CloudApp) -> None:
        self.app = app
        self.switching = ""  # the profile being opened
        self.quitting = False  # `q` pressed while a change was on its way: waiting for it to end

    def to(self, name: str) -> None:
        """Switch to profile `name`: asked first where what is not sent would be dropped; changes on their
        way are waited for."""
        app = self.app
        if name == self.app.settings.profile:
            app.notify(f"Profile {name} is the one in use.", timeout=4)
            return
        self._leave(
            f"Switch to {name}",
            "Switch",
            lambda: app.run_worker(self._switch(name), group="profile", exclusive=True, exit_on_error=False),
        )

    def quit(self) -> None:
        """Quit, asking first when a list holds staged changes not sent (they would be lost); a change on
        its way is waited for (its answer, or the look after a lost one), and `q` again quits at once."""
        if self.quitting:  # waiting for a change on its way: quit now, its outcome not known
            self.app.journal.abandoned("the console quit before its answer")  # (journalled, and in its file)
            self.app.exit()
            return
        self._leave("Quit", "Quit", self._quit_when_written)

    def _quit_when_written(self) -> None:
        if not self.app.journal.in_flight():
            self.app.exit()
            return
        self.quitting = True  # (walk 22: `q` during a production reboot left with no outcome, nothing journalled)

        async def then() -> None:
            try:
                await self._writes_ended("quitting (q again quits now, its outcome not known)", "Quit", "quitting")
            finally:
                self.quitting = False
            self.app.exit()

        self.app.run_worker(then(), group="quit", exclusive=True, exit_on_error=False)

    def _leave(self, what: str, button: str, then: Callable[[], Any]) -> None:
        """Leave this profile's console (quit, switch): not while a batch is sent (its answer would be
        lost, and what it says was applied); asked first when staged changes would be dropped."""
        from .widgets.staged import SENDING, sending, unsent, unsent_words

        app = self.app
        if sending(app.screen_stack):
            app.notify(SENDING, title="Sending", timeout=6)
            return
        if app.bulks:  # what is not sent yet would be lost, and what is on its way not said
            left = sum(len(b.rows) for b in app.bulks)
            app.notify(
                f"An act on {left} marked rows is being sent: wait for its end, or x in its dialog stops the rest.",
                title="Sending",
                timeout=8,
            )
            return
        held = unsent(app.screen_stack)
        typed = [s for s in app.screen_stack if getattr(s, "typed", lambda: False)()]  # forms holding input
        if not held and not typed:
            then()
            return
        from .screens.confirm import ConfirmScreen

        def answered(drop: bool | None) -> None:
            if drop:
                then()

        lost = [f"{unsent_words(held)} (w reviews and sends them)"] if held else []
        # (a screen that holds what was typed is a form: it has a title_text)
        lost += [f"a form holding what you typed ({s.title_text})" for s in typed]  # type: ignore[attr-defined]
        # one thing: one staged change, or one form (the lists held hold changes: `unsent`)
        one = len(lost) == 1 and (not held or sum(len(v.model.changes or ()) for v in held) == 1)
        app.push_screen(
            ConfirmScreen(
                f"{what} and drop {'the staged changes' if held and not typed else 'what is not sent'}?",
                f"There {'is' if one else 'are'} {' and '.join(lost)}. {what} anyway, or go back to "
                f"{'it' if one else 'them'}.",
                button,
            ),
            answered,
        )

    async def _switch(self, name: str) -> None:
        app = self.app
        self.switching = name
        await self._writes_ended(f"switching to {name}", short=f"switching to {name}")
        if app.main is not None:
            app.main.doing(f"opening profile {name}…")
        try:
            opened = await asyncio.to_thread(app.profiles.open, name)
        except Exception as err:
            from .errors import notify_error

            notify_error(app, err, f"Opening profile {name}")
            return
        finally:
            self.switching = ""
            if app.main is not None and app.main.is_attached:
                app.main.doing("")
        await self.use(opened)

    async def _writes_ended(self, then: str, title: str = "Profile", short: str = "") -> None:
        """Wait for the writes on their way, and the looks after lost answers, to end (their outcome
        would be lost with the old profile's connections), saying which it waits for."""
        app = self.app
        waiting = app.journal.in_flight()
        if not waiting:
            return
        said = ""
        while waiting:
            now = ", ".join(waiting[:3]) + (f" and {len(waiting) - 3} more" if len(waiting) > 3 else "")
            if now != said:
                said = now
                app.notify(
                    f"Waiting for {now} to end (its answer, or a look after a lost one), then {then}.",
                    title=title,
                    timeout=8,
                )
                if app.main is not None and app.main.is_attached:
                    app.main.doing(f"then {short or then}")  # (what is on its way is said beside it: `sending`)
            await asyncio.sleep(0.2)
            waiting = app.journal.in_flight()

    async def use(self, opened: Opened) -> None:
        """Everything of the old profile closed and forgotten; the console started for the new one."""
        app = self.app
        s = opened.settings
        s.read_only = s.read_only or app.settings.read_only  # --read-only holds for the whole session
        old = list(app.clients.values())
        recolour = s.production != app.settings.production
        app.settings = s
        own_columns.use(s.columns)
        if recolour:  # a production profile's accent on, or off
            app.refresh_css(animate=False)
        if s.journal_file != getattr(app.journal, "path", ""):  # the journal goes on; its file is the profile's
            problem = app.journal.open_file(s.journal_file)
            if problem:
                app.notify(problem, title="Configuration", severity="warning", timeout=10)
        app.transport = opened.transport if opened.transport is not None else app.transport
        app._secret, app._has_secret = opened.secret, opened.secret is not None
        app.secret_source, app.keyring_problem = opened.source, opened.keyring_problem
        app.clients, app.services, app.price_lists = {}, {}, {}  # another account's API: read anew
        app.client = app.client_for(PLATFORM)
        for client in old:
            app.run_worker(client.aclose(), exit_on_error=False)
        if app._finder is not None:
            if app._finder.filling is not None:
                app._finder.filling.cancel()
            app._finder = None  # what the old account's lists held is not searched in the new one
        if app._watcher is not None:
            app._watcher.clear()
            app._watcher = None
        main = app.main
        app.main = None
        kept = main.current_entry if main is not None else None  # the product in front stays in front
        if main is not None:
            while len(app.screen_stack) > 1 and main in app.screen_stack:
                await app.pop_screen()  # its views' workers end with it (the old profile's requests)
        app.notify(
            f"Profile {s.profile}: project {s.project_id or 'not set'} at {s.api_url or 'no API URL'}"
            + (" (read-only)" if s.read_only else "")
            + ".",
            title="Profile",
            timeout=6,
        )
        if app.ready():
            app.start_console()
            if kept is not None and app.main is not None:
                app.main.current_entry = kept
        else:
            app.open_login(problem=f"Profile {s.profile!r} has no secret key here yet.")
