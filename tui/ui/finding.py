"""The app's side of "find anything" and of watching: the finder (`finder.py`) and the watcher
(`watch.py`), each made on first use (nothing of them is on the start path), told of every list read
(the finder after the frame that shows the rows)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from textual.message_pump import Callback
    from textual.screen import Screen

    from .app import CloudApp
    from .finder import Finder
    from .watch import Watcher
    from .widgets.resource_view import ResourceView


class Finding:
    """Mixed into the app."""

    _finder: Finder | None = None
    _watcher: Watcher | None = None

    if TYPE_CHECKING:  # the app's own (Textual's `App`)

        @property
        def screen(self) -> Screen[object]: ...

        def push_screen(self, screen: Screen[None]) -> object: ...

        def call_after_refresh(self, callback: Callback, *args: object, **kwargs: object) -> bool: ...

    @property
    def finder(self) -> Finder:
        """Every resource the lists hold, found from the palette."""
        if self._finder is None:
            from .finder import Finder

            self._finder = Finder(cast("CloudApp", self))  # (mixed into the app)
        return self._finder

    @property
    def watcher(self) -> Watcher:
        """The resources watched for a change of state (`watch.py`)."""
        if self._watcher is None:
            from .watch import Watcher

            self._watcher = Watcher(cast("CloudApp", self))
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
        self.call_after_refresh(lambda: self.finder.listed(event.view))  # after the frame that shows the rows
        if self._watcher is not None:
            self._watcher.seen(event.view)
