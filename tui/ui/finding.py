"""The app's side of "find anything" and of watching: the finder (`finder.py`) and the watcher
(`watch.py`), each made on first use (nothing of them is on the start path), told of every list read
(the finder after the frame that shows the rows)."""

from __future__ import annotations

from typing import Any


class Finding:
    """Mixed into the app."""

    _finder: Any = None
    _watcher: Any = None
    call_after_refresh: Any

    @property
    def finder(self) -> Any:
        """Every resource the lists hold, found from the palette."""
        if self._finder is None:
            from .finder import Finder

            self._finder = Finder(self)
        return self._finder

    @property
    def watcher(self) -> Any:
        """The resources watched for a change of state (`watch.py`)."""
        if self._watcher is None:
            from .watch import Watcher

            self._watcher = Watcher(self)
        return self._watcher

    def action_fill_index(self) -> None:
        self.finder.fill()

    def action_journal(self) -> None:
        from .screens.journal import JournalScreen

        if not isinstance(self.screen, JournalScreen):  # type: ignore[attr-defined]
            self.push_screen(JournalScreen())  # type: ignore[attr-defined]

    def action_watch_list(self) -> None:
        self.watcher.show_list()

    def on_resource_view_refreshed(self, event: Any) -> None:
        self.call_after_refresh(lambda: self.finder.listed(event.view))  # after the frame that shows the rows
        if self._watcher is not None:
            self._watcher.seen(event.view)
