"""Command palette provider: jump to a view, a zone or a region, refresh, create; searches a fixed
index built from the manifest (no network, no product imported per keystroke), and every resource
the lists hold (`finder`: by name, ID, address or tag), opened with the cursor on it. Textual's own
commands (keys, theme, screenshot, quit…) come from here too, after the console's: two providers
answer in whichever order they finish, and the list's first lines changed from one opening to the
next."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Callable

from textual import work
from textual.command import CommandInput, CommandPalette, DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.worker import get_current_worker

from ...products import manifest
from ...products.kit.location import ALL, REGIONS, ZONES, scope_label
from ...products.kit.nouns import in_text
from ..console_app import console_of
from ..keymap import view_named

if TYPE_CHECKING:
    from ...products.kit.base import ActionSpec
    from ..app import CloudApp
    from ..screens.main import MainScreen
    from ..widgets.resource_view import ResourceView
    from ..errors import Notifies

    Command = tuple[str, Callable[[], object], str]  # (what the palette lists, what it runs, its help)


FOUND_SHOWN = 8  # resources the palette lists for what is typed: typing more narrows them


class CloudCommands(Provider):
    def _index(self) -> list[Command]:
        from ..screens.main import MainScreen

        main = next((s for s in self.app.screen_stack if isinstance(s, MainScreen)), None)
        app = console_of(self.app)
        if main is None or app is None:
            return []
        out: list[Command] = []
        for entry in manifest.entries():
            title = entry.title or entry.label
            out.append((f"{entry.group} › {title}", partial(main.go_to_entry, entry.id), f"Show {in_text(title)}"))
        for scope_type, scopes in (("zone", ZONES), ("region", REGIONS)):
            word = scope_type.capitalize()
            out.append(
                (
                    f"{word}: {scope_label(ALL, scope_type)}",
                    partial(main.set_scope, ALL, scope_type),
                    f"List every {scope_type} at once",
                )
            )
            for scope in scopes:
                out.append(
                    (
                        f"{word}: {scope}",
                        partial(main.set_scope, scope, scope_type),
                        f"Switch {scope_type} views to {scope}",
                    )
                )
        out.append(("Refresh", main.refresh_current, "Re-list the current view now"))
        out.append(
            (
                f"Overview ({app.key_for('overview', 'O')})",
                main.action_overview,
                "Every list read, by state, with costs, what is watched and the last failures",
            )
        )
        out.append(
            (
                f"Advisor ({app.key_for('advisor', 'A')})",
                main.action_advisor,
                "What needs attention across products: waste, open doors, what breaks soon, links to nothing",
            )
        )
        out.append(
            (
                "Index every product (F)",
                app.finder.fill,
                "List everything once, in every zone and region, so that this search finds it",
            )
        )
        for alias, target in app.settings.aliases.items():  # the config's own words for views
            entry = view_named(target)
            if entry is not None:
                title = entry.title or entry.label
                out.append((f"{alias} → {entry.group} › {title}", partial(main.go_to_entry, entry.id), f"Show {title}"))
        for name in app.profiles.names():  # switch account, project and API URL (`profiles.py`)
            if name != app.settings.profile:
                out.append((f"Profile: {name}", partial(app.switch_profile, name), "Switch to this profile"))
        kind = main.current_kind
        if not app.settings.read_only and kind is not None and kind.create is not None:
            out.append((f"Create {kind.singular}", main.create_current, "Open the create form"))
        out += self._own(main)
        return out

    def _own(self, main: MainScreen) -> list[Command]:
        """The list in front's columns of the operator's own, and their own commands (`[[commands]]`), each on
        the row under its cursor."""
        from ..widgets.resource_view import ResourceView

        view = main.view
        if not isinstance(view, ResourceView):
            return []
        out: list[Command] = [
            (
                f"Columns of {view.kind.title} ({main.app.key_for('columns', 'C')})",
                view.action_columns,
                "Choose, order and size the columns it shows",
            )
        ]
        from ..action_runner import offered

        for spec in view.all_actions():
            if spec.name.startswith("own:") and offered(spec, view.read_only):  # (read-only: none that changes)
                out.append(
                    (f"Command: {spec.label}", partial(_on_cursor, view, spec), "Run it on the row under the cursor")
                )
        return out

    def _system(self, discovered: bool = False) -> list[Command]:
        """Textual's commands for this screen (by name; those it lists unasked when `discovered`)."""
        commands = sorted(self.app.get_system_commands(self.screen), key=lambda command: command.title)
        return [(c.title, c.callback, c.help) for c in commands if c.discover or not discovered]

    async def discover(self) -> Hits:
        for name, command, help_text in [*self._index(), *self._system(discovered=True)]:
            yield DiscoveryHit(name, _guarded(self.app, command, name), help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        commands = 0
        for name, command, help_text in [*self._index(), *self._system()]:
            score = matcher.match(name)
            if score > 0:
                commands += 1
                yield Hit(score, matcher.highlight(name), _guarded(self.app, command, name), help=help_text)
        console = console_of(self.app)
        if console is None or console.main is None:
            return
        finder = console.finder
        found_any = False
        for found in finder.search(query, most=FOUND_SHOWN):  # every resource the lists hold, by name, ID, address, tag
            # one line each (a help line under it doubled what the palette draws per key); never markup
            found_any = True
            yield Hit(1.0 - found.rank / 10, Content(finder.said(found)), partial(finder.jump, found))
        unsearched = finder.unsearched() if len(query.strip()) > 1 else ""
        if unsearched:  # what was not searched is said, whatever was found: the hit may be there too
            head = "" if found_any or commands else f"No list read holds {query.strip()[:40]!r}. "
            said = Content(f"{head}F indexes every product: not searched yet: {unsearched}")
            yield Hit(0.01, said, _guarded(self.app, finder.fill, "Index every product"))


def _guarded(app: Notifies, command: Callable[[], object], name: str) -> Callable[[], object]:
    """A command run from the palette: a bug in it becomes a notification (the palette runs it on the
    app's own message loop, which Textual stops, and the app with it, on an unhandled exception)."""

    def run() -> object:
        try:
            return command()
        except Exception as err:
            from ..errors import notify_error

            notify_error(app, err, name)
            return None

    return run


class CloudPalette(CommandPalette):
    """Textual's palette, which says when its matches are in. Enter typed right behind the search
    (`: DNS zones ⏎` in one burst, or at start-up while the console is busy) reached the palette
    before its first matches and did nothing; the type-ahead now holds it until the search typed is
    answered (`holds_key`)."""

    app: CloudApp

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._answered: str | None = None  # the last search whose matches are all shown

    def holds_key(self, key: str) -> bool:
        if key != "enter" or self._selected_command is not None:
            return False
        try:
            typed = self.query_one(CommandInput).value.strip()
        except Exception:  # not built yet: the type-ahead waits for its mount anyway
            return False
        return bool(typed) and typed != self._answered

    @work(exclusive=True, group=CommandPalette._GATHER_COMMANDS_GROUP)
    async def _gather_commands(self, search_value: str) -> None:
        # (Textual's own method, as written: `work` keeps it as `__wrapped__`)
        await CommandPalette._gather_commands.__wrapped__(self, search_value)  # type: ignore[attr-defined]
        if not get_current_worker().is_cancelled:
            self._answered = search_value
            self.app.call_later(self.app.type_ahead.ready)


def _on_cursor(view: ResourceView, spec: ActionSpec) -> None:
    row = view.current()
    if row is None:
        view.app.notify(f"{spec.label}: no row under the cursor.", severity="warning")
    else:
        view.run_action(row, spec)
