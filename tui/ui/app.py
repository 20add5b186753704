"""The cloudtui App: credentials first (env, keyring or the login modal), then the console.

The app owns one ApiClient per endpoint of the profile (the platform's, the generative-model
API's) and hands each view a service of its kind (and parent) over the right one. What the console
opens comes from the products' manifest (`products.manifest`): nothing here names a product.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any, Callable, cast

from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from ..api.client import BEARER, X_AUTH_TOKEN, ApiClient, RetryPolicy
from ..api.errors import AuthenticationError
from ..api.journal import Journal
from ..api.secret import Secret
from ..config import Settings
from ..products import manifest
from ..products.kit import own_columns, times
from ..products.kit.base import ALL, Context, ParentRef, ResourceKind
from ..products.kit.location import PLATFORM, Endpoint
from ..products.kit.refresh_plan import RefreshPolicy
from ..products.kit.service import ResourceService
from . import collector, keymap, styles, textual_fixes, themes
from .console_app import console
from .errors import notify_error
from .notes import Note, Notices
from .origins import OriginGuard
from .profiles import OneProfile, Opened, ProfileSwitch
from .themes import Looks
from .typeahead import TypeAhead
from .widgets.resource_view import ResourceView

textual_fixes.apply()

if TYPE_CHECKING:
    import httpx
    from textual.notifications import SeverityLevel
    from textual.screen import Screen

    from ..secrets import SecretLookup
    from .across.costs import PriceLists
    from .across.finder import Finder
    from .across.watch import Watcher
    from .bulk import Bulk
    from .profiles import ProfileSource
    from .screens.main import MainScreen
    from .screens.playground import Session
    from .widgets.panel_view import PanelView


FIRST_PAGE_WAIT = 0.25  # seconds the console waits for its first rows before showing anyway
IDLE_AFTER = 10.0  # seconds without a key after which the operator is idle (memory is tidied then)


def _commands() -> type:
    from .across.commands import CloudCommands  # textual.command is imported when the palette first opens

    return CloudCommands


@console
class CloudApp(App[None]):
    VERTICAL_BREAKPOINTS = [
        (0, "-short"),
        (26, "-middle"),
        (36, "-tall"),
    ]  # screens get the class: a form fits a 24-line terminal, grows on a tall one
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]  # and a wide one: its choices on one line
    TITLE = "cloudtui"
    CSS_PATH = styles.APP
    COMMANDS = {lambda: _commands()}  # Textual's own commands included, after the console's
    BINDINGS = [
        Binding("q", "quit", "Quit", id="quit"),
        Binding("question_mark", "help", "Help", id="help"),
        Binding("f1", "help", "Help", show=False, priority=True, id="help_f1"),  # in every dialog, in a field too
        Binding("colon", "command_palette", "Palette", show=False, id="command_palette"),
        # Textual adds its own ctrl+p only when no binding names the palette: with ':' bound, say it too.
        Binding("ctrl+p", "command_palette", "Palette", show=False, priority=True, id="command_palette_alt"),
        Binding("ctrl+l", "login", "Log in", show=False, id="login"),
        Binding("ctrl+w", "watch_list", "Watched", show=False, id="watch_list"),
        Binding(
            "J",
            "journal",
            "Journal",
            show=False,
            tooltip="Every change sent this session, with its curl line",
            id="journal",
        ),
        # Tab moves focus as the app reads it, not when the focused field's queue reaches it: keys
        # typed or pasted in one burst ("name<tab>192.0.2.1") then land in the field they follow.
        Binding("tab", "focus_next", show=False, priority=True, id="focus_next"),
        Binding("shift+tab", "focus_previous", show=False, priority=True, id="focus_previous"),
    ]

    def __init__(
        self,
        settings: Settings,
        secret: Secret | None = None,
        *,
        secret_source: str | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        keyring_problem: str | None = None,
        lookup_secret: Callable[[str], SecretLookup] | None = None,
        policy: RefreshPolicy | None = None,
        clock: Callable[[], float] = time.time,
        retry: RetryPolicy | None = None,
        profiles: ProfileSource | None = None,
    ) -> None:
        # before Textual's own: the style sheet's variables are made there, a production profile's accent
        # and a 16-colour terminal's among them (`themes.Looks.variables`)
        self.settings = settings
        self.looks = Looks(self)
        self.notices = Notices(self)  # every notification, as said (`notify`)
        self.type_ahead = TypeAhead(self)  # keys typed ahead of a dialog, held for it (`on_event`)
        super().__init__()
        self.clock = clock  # wall time for "last refresh"; injectable so snapshots are stable
        times.NOW = clock  # and for every age shown ("3 d")
        themes.register(self, settings.theme)  # the console's own, and the one chosen last time
        themes.no_colour(self)
        own_columns.use(settings.columns)  # a list's columns of the operator's own (`[columns]`)
        if settings.keymap:  # keys of your own (`keymap.py`): said at start when one cannot be
            self.set_keymap(settings.keymap)
        self.secret_source = secret_source
        self.keyring_problem = keyring_problem
        self.log_problem: str | None = None  # the log folder keeps nothing: said in the status bar
        self.policy = policy
        self._lookup_secret = lookup_secret
        self.retry = retry
        self.transport = transport  # an in-process transport (tests, the demo's sandbox), else None
        self._secret = secret
        self.journal = Journal(lambda: self.settings.profile, clock)  # every change sent this session (`J`)
        self.journal.on_problem = self._journal_failing
        self.journal_problem = self.journal.open_file(settings.journal_file)
        self.clients: dict[str, ApiClient] = {}
        self.client = self.client_for(PLATFORM)
        self._has_secret = secret is not None
        self.login_open = False  # the login dialog is open
        self.services: dict[tuple[str, str], ResourceService] = {}
        self.main: MainScreen | None = None  # the MainScreen, once the console is up
        self.bugs: list[BaseException] = []  # exceptions that reached _handle_exception after start
        self.origins = OriginGuard(self)  # where else the secret key may go, asked once
        self.bulks: list[Bulk] = []  # acts on marked rows being sent (`bulk.run`)
        self.pane_shown = False  # the detail pane shown for the session (`PaneHost`: `p`)
        self.playground_sessions: dict[str, Session] = {}  # each resource tried in a playground (`playground`)
        self.price_lists: PriceLists = {}  # (kind, scope) -> (when read, prices) (`costs.py`), per profile
        # The profiles to switch to from the palette (`profiles.py`); this one alone by default.
        self.profiles = profiles or OneProfile(Opened(settings, secret, secret_source, transport))
        self.profile_switch = ProfileSwitch(self)  # the switch to another profile, and the quit

    def client_for(self, endpoint: Endpoint) -> ApiClient:
        """The one client of an endpoint (made on first use): its base URL from the settings, its
        auth scheme from the endpoint."""
        if endpoint.name not in self.clients:
            s = self.settings
            url = getattr(s, endpoint.url_setting, "") or s.api_url or "http://invalid"
            auth = BEARER if endpoint.auth == "Bearer" else X_AUTH_TOKEN
            self.clients[endpoint.name] = ApiClient(
                url,
                self._secret,
                transport=self.transport,
                read_only=s.read_only,
                retry=self.retry,
                ca_bundle=s.ca_bundle or None,
                auth=auth,
                trusted=(s.api_url, s.genai_url, *s.allowed_origins),
            )
            self.clients[endpoint.name].journal = self.journal
        return self.clients[endpoint.name]

    # ---- Textual's own, each through the part that does it ----------------------------------------
    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Every notification as plain text, cut, logged when a failure (`Notices.made`); a warning said while
        a key is on its way is that act refused (`TypeAhead.said`)."""
        note = self.notices.made(message, title, severity)
        self.type_ahead.said(severity)
        super().notify(note.message, title=note.title, severity=severity, timeout=timeout, markup=False)

    @property
    def notes(self) -> list[Note]:
        """The last 200 notifications, as shown (tests read them here)."""
        return self.notices.kept

    async def on_event(self, event: events.Event) -> None:
        await self.type_ahead.read(event, super().on_event)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self.type_ahead.focused()

    def push_screen(self, screen: Screen[Any] | str, *args: Any, **kwargs: Any) -> Any:
        self.type_ahead.pushed(screen)
        return super().push_screen(screen, *args, **kwargs)

    def get_css_variables(self) -> dict[str, str]:
        return self.looks.variables(super().get_css_variables())

    def watch_theme(self, theme: str) -> None:
        self.looks.theme_chosen(theme)

    def key_for(self, binding_id: str, default: str) -> str:
        """The key in force for a binding id (the config's [keymap], else `default`), for a hint's words."""
        return self.settings.keymap.get(binding_id, default).split(",")[0].strip()

    def ready(self) -> bool:
        return self._has_secret and bool(self.settings.api_url and self.settings.project_id)

    def switch_profile(self, name: str) -> None:
        """The palette's Profile: `name` (`ProfileSwitch.to`)."""
        self.profile_switch.to(name)

    async def action_quit(self) -> None:
        """`q`: quit, asked first where what is not sent would be lost, a change on its way waited for."""
        self.profile_switch.quit()

    # ---- parts made on first use (nothing of them is on the start path) -------------------------
    _finder: Finder | None = None
    _watcher: Watcher | None = None

    @property
    def finder(self) -> Finder:
        """Every resource the lists hold, found from the palette (`finder.py`)."""
        if self._finder is None:
            from .across.finder import Finder

            self._finder = Finder(self)
        return self._finder

    @property
    def watcher(self) -> Watcher:
        """The resources watched for a change of state (`watch.py`)."""
        if self._watcher is None:
            from .across.watch import Watcher

            self._watcher = Watcher(self)
        return self._watcher

    def action_fill_index(self) -> None:
        self.finder.fill()

    def action_journal(self) -> None:
        from .screens.journal import JournalScreen

        if not isinstance(self.screen, JournalScreen):
            self.push_screen(JournalScreen())

    def action_watch_list(self) -> None:
        self.watcher.show_list()

    def on_resource_view_refreshed(self, event: ResourceView.Refreshed) -> None:
        """Every list read is told to the finder (after the frame that shows the rows) and the watcher."""
        self.call_after_refresh(lambda: self.finder.listed(event.view))
        if self._watcher is not None:
            self._watcher.seen(event.view)

    def service(self, kind: ResourceKind, parent: ParentRef | None = None) -> ResourceService:
        key = (kind.id, parent.id if parent else "")
        if key not in self.services:
            self.services[key] = ResourceService(
                self.client_for(kind.reading.endpoint), kind, parent, context=self.context
            )
        return self.services[key]

    def default_scope(self, scope_type: str) -> str:
        """The profile's scope of a type: `--zone`/`--region`, or the profile's default."""
        return {"zone": self.settings.zone, "region": self.settings.region}.get(scope_type, "global")

    def scope_for(self, kind: ResourceKind, current: str | None = None) -> str:
        """The scope a view of `kind` opens in: the operator's current one of its type when the kind
        exists there (or "all"), else the kind's first scope."""
        scope = current or self.default_scope(kind.scope_type)
        if kind.scope_type == "global":
            return "global"
        return scope if scope == ALL or scope in kind.all_scopes else kind.all_scopes[0]

    def _start_kind(self) -> ResourceKind | None:
        entry = manifest.start_entry()
        return entry.load() if entry.opens == "list" else None

    def on_load(self) -> None:
        """With credentials at hand, the first listing starts before the UI is even composed."""
        kind = self._start_kind() if self.ready() else None
        if kind is not None:
            self.service(kind).prefetch(self.scope_for(kind))

    def compose(self) -> ComposeResult:
        if not self.ready():
            yield Static("Starting cloudtui…", id="splash")

    def on_mount(self) -> None:
        self.set_timer(2.0, collector.startup_done)  # also when the console waits on a login first
        self.set_interval(5, self._resettle)
        self.looks.colours_known()
        self._check_log()
        aliases = keymap.unknown_aliases(self.settings.aliases)
        said = [p for p in (self.settings.config_error, self.journal_problem, themes.unknown(self), aliases) if p]
        said += self.settings.command_problems  # `[[commands]]` left out, each with why
        said += self.settings.column_problems  # `[columns]` entries left out, each with why
        said += self.settings.advisor_problems  # `[advisor]` ages left out, each with why
        if said:  # one toast, not one each over the first dialogs at 80x24
            self.notify("\n".join(said), title="Configuration", severity="warning", timeout=8)
        if self.settings.keymap or self.settings.commands or self.settings.columns:  # (and what those name)
            keymap.check(self, self.settings.keymap)
        if self.ready():
            self._open_when_listed()
        elif not self._has_secret and self._lookup_secret is not None:
            self._find_secret()
        else:
            self.open_login()

    def _resettle(self) -> None:
        collector.resettle(idle=time.monotonic() - self.type_ahead.last_key_at > IDLE_AFTER)

    @work(exclusive=True, group="start", exit_on_error=False)
    async def _open_when_listed(self) -> None:
        """Show the console once the first page is in (at most 0.25 s): its first frame then has
        the rows, instead of an empty table drawn and immediately drawn again."""
        kind = self._start_kind()
        try:
            if kind is not None:
                await asyncio.wait_for(self.service(kind).first_chunk.wait(), FIRST_PAGE_WAIT)
        except asyncio.TimeoutError:
            pass
        self.start_console()

    @work(thread=True, exit_on_error=False)
    def _check_log(self) -> None:
        """Open the log folder off the UI thread, so that one that cannot be written is said now
        (in the status bar, and on stderr at exit), not found on the first failure."""
        from ..api.errors import log_problem

        problem = log_problem(open_now=True)
        if problem:
            self.call_from_thread(self._log_unusable, problem)

    def _log_unusable(self, problem: str) -> None:
        self.log_problem = problem
        self.notify(problem, title="Log", severity="warning", timeout=8)  # said at start, kept in the status bar
        if self.main is not None:
            self.main.update_status()

    def _journal_failing(self, problem: str) -> None:
        """The journal's file cannot be written (said once, from its writer thread)."""
        try:
            self.call_from_thread(self.notify, problem, title="Journal", severity="warning", timeout=12)
        except RuntimeError:  # the console is not running (any more): the log has it
            pass

    @work(thread=True, exit_on_error=False)
    def _find_secret(self) -> None:
        """Keyring calls may block on D-Bus: run them off the UI thread."""
        assert self._lookup_secret is not None
        found = self._lookup_secret(self.settings.profile)
        self.call_from_thread(self._secret_found, found)

    def _secret_found(self, found: SecretLookup) -> None:
        self.keyring_problem = found.keyring_problem
        if found.secret is not None:
            self._secret = found.secret
            for client in self.clients.values():
                client.set_secret(found.secret)
            self.secret_source = found.source
            self._has_secret = True
        if self.ready():
            self.start_console()
        else:
            self.open_login()

    # ---- console ------------------------------------------------------------------------------
    def context(self, scope: str) -> Context:
        s = self.settings
        return Context(project_id=s.project_id, scope=scope, organization_id=s.organization_id)

    def make_view(self, entry: manifest.Entry, scope: str) -> ResourceView | PanelView:
        """The view of a manifest entry: a list (ResourceView) or a panel (PanelView)."""
        from .screens.main import view_id

        target = entry.load()
        if entry.opens == "panel":
            from .widgets.panel_view import PanelView

            return PanelView(
                target,
                self.service(target),
                scope,
                read_only=self.settings.read_only,
                policy=self.policy,
                id=view_id(entry.id),
            )
        return self.list_view(target, scope, id=view_id(entry.id))

    def list_view(
        self, kind: ResourceKind, scope: str, parent: ParentRef | None = None, id: str | None = None
    ) -> ResourceView:
        return ResourceView(
            kind,
            self.service(kind, parent),
            scope,
            context=self.context,
            read_only=self.settings.read_only,
            policy=self.policy,
            id=id,
        )

    def open_child(
        self, kind: ResourceKind, parent: ParentRef, on_close: Callable[[], None] | None = None
    ) -> ResourceView:
        """A child kind's list for one parent, on a screen of its own (esc goes back, and `on_close`
        runs: the parent's row is read again, as its children may have changed it). Its view."""
        from .screens.child import ChildScreen

        view = self.list_view(kind, parent.scope if kind.scope_type != "global" else "global", parent)
        self.push_screen(ChildScreen(view), (lambda _: on_close()) if on_close is not None else None)
        return view

    def start_console(self) -> None:
        from .screens.main import MainScreen

        if self.main is not None:
            if self.main.view is not None:
                self.main.view.reload()
            return
        self.main = MainScreen(self.make_view, {"zone": self.settings.zone, "region": self.settings.region})
        self.push_screen(self.main)
        self.call_after_refresh(collector.startup_done)
        if self.secret_source == "session":
            self.notify("The secret key is kept for this session only.", timeout=6)

    def auth_failed(self, err: AuthenticationError) -> None:
        if not self.settings.demo:
            self.open_login(
                problem=f"{err.summary}: the secret key for profile {self.settings.profile!r} was rejected."
            )

    # ---- login --------------------------------------------------------------------------------
    def open_login(self, problem: str | None = None) -> None:
        """The login dialog (`login_flow`), unless it is open already."""
        if not self.login_open:
            from .login_flow import open_login

            open_login(self, problem)

    def action_login(self) -> None:
        if not self.settings.demo:
            self.open_login()
        else:
            self.notify("The demo needs no login.", timeout=3)

    def _handle_exception(self, error: Exception) -> None:
        """The last resort for an exception no handler caught: once the console is up it is logged
        and shown, and the console goes on (Textual's default is to exit)."""
        if self.main is None or not isinstance(error, Exception) or not self.screen_stack:
            super()._handle_exception(error)  # (not up yet, or already closing: Textual's own way)
            return
        self.bugs.append(error)  # tests look here: a swallowed bug is still a failure
        screen = self.screen
        if screen is not self.main and not screen.is_mounted and len(self.screen_stack) > 1:
            # A screen that failed to open would hold the keys with nothing on it: it goes, and says why.
            self.call_later(self._drop, screen)
            notify_error(
                self, error, f"Opening {screen.__class__.__name__.removesuffix('Screen').lower() or 'a screen'}"
            )
            return
        notify_error(self, error, "A part of the console")

    def _drop(self, screen: Screen[Any]) -> None:
        if self.screen is screen:
            self.pop_screen()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A worker that died of an unexpected error is reported, never silent."""
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            notify_error(
                self, event.worker.error, (event.worker.name or "A background task").strip("_").replace("_", " ")
            )

    def action_command_palette(self) -> None:
        from .across.commands import CloudPalette  # Textual's, saying when its matches are in (type-ahead)

        # (`is_open` takes an `App[object]`: an app's result type is invariant, and this one's is None)
        if self.use_command_palette and not CloudPalette.is_open(cast("App[object]", self)):
            self.push_screen(CloudPalette(id="--command-palette"))

    def action_help(self) -> None:
        from .screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.screen))

    async def on_unmount(self) -> None:
        self.journal.close()
        for client in self.clients.values():
            await client.aclose()
