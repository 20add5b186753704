"""Work-arounds for Textual defects the console would otherwise suffer, each named with its upstream
issue and removed once a pinned Textual has the fix.

- Textualize/textual#6665 (open, textual 8.2.8): `StylesCache.get_inner_outer` is an instance method
  under `@lru_cache(1024)`, so the cache keys on the StylesCache and keeps up to 1,024 of them alive,
  each with every line its widget last drew. Every screen opened and closed (a detail, a form, help)
  leaves its widgets' caches there: a console open all day grew by tens of megabytes, steadily. The
  two styles depend on the two colours only; cached on those, nothing of a widget is kept.
- Select mounted while its screen closes (textual 8.2.8, no upstream issue found): the screen's
  widgets are pruned between a Select's compose and its Mount, whose handler then asks for its
  drop-down (`query_one(SelectOverlay)`) and fails — the console reported a bug when a form was
  closed by code while it was still being built. A Select whose drop-down is gone is being removed:
  its mount does nothing.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from textual.style import Style


@lru_cache(1024)
def _inner_outer(base_background: Any, background: Any) -> tuple[Style, Style]:
    return Style(background=base_background + background), Style(background=base_background)


def _get_inner_outer(self: Any, base_background: Any, background: Any) -> tuple[Style, Style]:
    return _inner_outer(base_background, background)


def _select_mounted(original: Any) -> Any:
    def _on_mount(self: Any, event: Any) -> None:
        from textual.widgets._select import SelectOverlay

        if self.query(SelectOverlay):
            original(self, event)

    return _on_mount


def apply() -> None:
    from textual._styles_cache import StylesCache
    from textual.widgets import Select

    StylesCache.get_inner_outer = _get_inner_outer  # type: ignore[method-assign,assignment]
    if not getattr(Select._on_mount, "fixed", False):
        Select._on_mount = _select_mounted(Select._on_mount)  # type: ignore[method-assign]
        Select._on_mount.fixed = True  # type: ignore[attr-defined]
