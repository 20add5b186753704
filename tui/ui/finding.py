"""The app's side of "find anything": the finder (`finder.py`), made on first use, after the frame that
shows the first rows (nothing of it is on the start path), told of every list read."""

from __future__ import annotations

from typing import Any


class Finding:
    """Mixed into the app."""

    _finder: Any = None
    call_after_refresh: Any

    @property
    def finder(self) -> Any:
        """Every resource the lists hold, found from the palette."""
        if self._finder is None:
            from .finder import Finder

            self._finder = Finder(self)
        return self._finder

    def on_resource_view_refreshed(self, event: Any) -> None:
        self.call_after_refresh(lambda: self.finder.listed(event.view))  # after the frame that shows the rows
