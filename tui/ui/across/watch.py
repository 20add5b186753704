"""Watched resources (issue 35, item 5): `W` on a row watches it; when its state changes (a model
reaching ready, a server stopping, a backup finishing) or it is gone, a notification says so and
the terminal bell rings, whatever view or dialog is in front. `ctrl+w` lists what is watched.

The watcher belongs to the app, not to a view: every `WATCH_EVERY` seconds, while something is
watched, it reads each watched resource (a few reads at a time, in a worker) through the service of
the list it was watched from (GET by id, or the list where the kind has none). A list read anyway
(a refresh) tells it too, with no request of its own. Nothing here names a product.
"""

from __future__ import annotations

import asyncio
from dataclasses import field
from typing import TYPE_CHECKING, Literal

from textual.binding import Binding
from textual.widgets import OptionList

from ...api.errors import ApiError, NotFound
from ...api.safe import clean
from ...records import record
from ..screens.picker import PickerScreen

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel
    from textual.timer import Timer

    from ...products.kit.base import ParentRef, ResourceKind, Row
    from ...products.kit.search_index import Hit
    from ...products.kit.service import ResourceService
    from ..app import CloudApp
    from ..widgets.resource_view import ResourceView

    Choice = Hit | Literal["clear"]  # a watched resource, or "stop watching all"

WATCH_EVERY = 5.0  # seconds between two looks while something is watched
IN_FLIGHT = 4


@record
class Watched:
    kind: ResourceKind
    service: ResourceService
    scope: str
    row_id: str
    name: str
    state: str | None
    parent: ParentRef | None = None  # the parent a child kind's row was listed under, to open it again
    parts: dict[str, str] = field(default_factory=dict)  # the row's other states (an install's), by title


def parts_of(kind: ResourceKind, row: Row) -> dict[str, str]:
    """A row's other states, beside its own: each field that is a state too (a bare-metal server's OS
    install), by its title, as text."""
    return {
        f.title: ", ".join(str(v) for v in f.values(row))
        for f in kind.fields
        if f.has("state") and f.path != kind.state_field
    }


class Watcher:
    def __init__(self, app: CloudApp) -> None:
        self.app = app
        self.items: dict[tuple[str, str, str], Watched] = {}
        self._timer: Timer | None = None

    @staticmethod
    def _key(kind: ResourceKind, scope: str, rid: str) -> tuple[str, str, str]:
        return kind.id, scope, rid

    def watching(self, kind: ResourceKind, scope: str, row: Row) -> bool:
        return self._key(kind, scope, row.id) in self.items

    def toggle(self, kind: ResourceKind, service: ResourceService, scope: str, row: Row) -> None:
        """Watch `row` (as listed in `scope` by `service`), or stop watching it."""
        key = self._key(kind, scope, row.id)
        name = clean(str(row.name or row.id))
        if key in self.items:
            del self.items[key]
            self.app.notify(f"No longer watching {name}.", timeout=4)
        else:
            parent = getattr(service, "parent", None)
            self.items[key] = Watched(kind, service, scope, row.id, name, row.state, parent, parts_of(kind, row))
            state = f" (now {clean(row.state)})" if row.state else ""
            self.app.notify(
                f"Watching {name}{state}: told when its state changes, with the bell. "
                f"{self.app.key_for('watch_list', 'ctrl+w')} lists what is watched.",
                timeout=6,
            )
        self._schedule()

    def clear(self) -> None:
        self.items.clear()
        self._schedule()

    def _schedule(self) -> None:
        """The timer runs while something is watched; the status bar says how many."""
        if self.items and self._timer is None:
            self._timer = self.app.set_interval(WATCH_EVERY, self._tick)
        elif not self.items and self._timer is not None:
            self._timer.stop()
            self._timer = None
        main = self.app.main
        if main is not None and main.is_attached:
            main.watching(f"watching {len(self.items)}" if self.items else "")

    def _tick(self) -> None:
        self.app.run_worker(self.check(), group="watch", exclusive=True, exit_on_error=False)

    # ---- looking ---------------------------------------------------------------------------------
    async def check(self) -> None:
        """Read every watched resource once, and say what changed."""
        gate = asyncio.Semaphore(IN_FLIGHT)

        async def one(item: Watched) -> None:
            async with gate:
                try:
                    row = await _read(item)
                except NotFound:
                    row = None
                except ApiError:  # not reachable now: looked at again next time, nothing said
                    return
                self._compare(item, row)

        await asyncio.gather(*(one(w) for w in list(self.items.values())))

    def seen(self, view: ResourceView) -> None:
        """A list was read: what it shows of the watched resources, with no request of ours."""
        if not self.items:
            return
        for item in list(self.items.values()):
            if item.kind.id == view.kind.id and getattr(view.service, "parent", None) == item.parent:
                row = view.table.get(item.row_id)
                if row is not None:
                    self._compare(item, row)

    def _compare(self, item: Watched, row: Row | None) -> None:
        key = self._key(item.kind, item.scope, item.row_id)
        if key not in self.items:  # unwatched while it was being read
            return
        what = f"{item.kind.singular.capitalize()} {item.name}"
        if row is None:
            del self.items[key]
            self._schedule()
            self._tell(f"{what} is gone (deleted): no longer watched.", "warning")
            return
        parts = parts_of(item.kind, row)
        moved = [
            f"{title.lower()} {clean(item.parts.get(title) or 'none')} → {clean(now or 'none')}"
            for title, now in parts.items()
            if now != item.parts.get(title, now)
        ]
        item.parts = parts
        if row.state != item.state:
            moved.insert(0, f"{clean(item.state or 'unknown')} → {clean(row.state or 'unknown')}")
            item.state = row.state
        if moved:
            self._tell(f"{what}: {'; '.join(moved)}", "information")

    def _tell(self, message: str, severity: SeverityLevel) -> None:
        self.app.notify(message, title="Watched", severity=severity, timeout=15)
        self.app.bell()

    # ---- the list ----------------------------------------------------------------------------------
    def show_list(self) -> None:
        """What is watched, to open one (its product's view, the cursor on it) or stop watching all."""
        if not self.items:
            self.app.notify("Nothing is watched: W on a row watches it.", timeout=5)
            return
        from ...products.kit.search_index import Hit

        choices: list[tuple[str, Choice]] = []
        for w in self.items.values():
            where = "" if w.scope in ("", "global", "all") else f" · {w.scope}"
            said = f"{w.name} · {w.kind.title}{where} · {w.state or 'no state'}"
            choices.append((clean(said), Hit(w.kind.id, w.scope, w.row_id, w.name, "", 0, w.parent)))
        choices.append(("Stop watching all", "clear"))

        def picked(choice: Choice | None) -> None:
            if choice == "clear":
                self.clear()
                self.app.notify("Nothing is watched now.", timeout=4)
            elif choice is not None:
                self.app.finder.jump(choice)

        title = f"Watched ({len(self.items)}) · enter opens · {self.app.key_for('delete', 'd')} stops watching"
        self.app.push_screen(WatchList(self, title, choices), picked)

    def unwatch(self, hit: Hit) -> None:
        """Stop watching what the list shows as `hit`."""
        for key, w in list(self.items.items()):
            if (w.kind.id, w.scope, w.row_id) == (hit.kind_id, hit.scope, hit.row_id):
                del self.items[key]
                self.app.notify(f"No longer watching {w.name}.", timeout=4)
        self._schedule()


class WatchList(PickerScreen):
    """What is watched: enter opens one, `d` stops watching the one highlighted."""

    BINDINGS = [Binding("d,delete", "unwatch", "Stop watching", id="delete")]  # delete's id: one remap moves both

    def __init__(self, watcher: Watcher, title: str, choices: list[tuple[str, Choice]]) -> None:
        super().__init__(title, choices, id="watch-list")
        self.watcher = watcher

    def action_unwatch(self) -> None:
        at = self.query_one(OptionList).highlighted
        chosen = self.choices[at][1] if at is not None else None
        if chosen is None or chosen == "clear":
            return
        self.watcher.unwatch(chosen)
        self.dismiss(None)
        if self.watcher.items:
            self.app.call_later(self.watcher.show_list)  # the list again, without it


async def _read(item: Watched) -> Row:
    """The resource as it is now: by id, or from its list where the kind has no read by id."""
    if item.kind.reading.item.fetch:
        return await item.service.get_row(item.scope, item.row_id)
    rows = await item.service.list_rows(item.scope)
    found = next((r for r in rows if r.id == item.row_id), None)
    if found is None:
        raise NotFound(404, "not in its list any more")
    return found
