"""Work-arounds for Textual defects the console would otherwise suffer, each named with its upstream
issue and removed once a pinned Textual has the fix.

- Textualize/textual#6665 (open, textual 8.2.8): `StylesCache.get_inner_outer` is an instance method
  under `@lru_cache(1024)`, so the cache keys on the StylesCache and keeps up to 1,024 of them alive,
  each with every line its widget last drew. Every screen opened and closed (a detail, a form, help)
  leaves its widgets' caches there: a console open all day grew by tens of megabytes, steadily. The
  two styles depend on the two colours only; cached on those, nothing of a widget is kept.
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


def apply() -> None:
    from textual._styles_cache import StylesCache

    StylesCache.get_inner_outer = _get_inner_outer  # type: ignore[method-assign,assignment]
