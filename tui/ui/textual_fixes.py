"""Work-arounds for Textual defects the console would otherwise suffer, each named with its upstream
issue and removed once a pinned Textual has the fix.

- Textualize/textual#6665 (open, textual 8.2.8): `StylesCache.get_inner_outer` is an instance method
  under `@lru_cache(1024)`, so the cache keys on the StylesCache and keeps up to 1,024 of them alive,
  each with every line its widget last drew. Every screen opened and closed (a detail, a form, help)
  leaves its widgets' caches there: a console open all day grew by tens of megabytes, steadily. The
  two styles depend on the two colours only; cached on those, nothing of a widget is kept.
- A screen closed while it is being built (textual 8.2.8, no upstream issue found): its widgets
  are pruned between a node's compose and its Mount, whose handler then asks for a child
  (`query_one`) and fails — Textual's Select asks for its drop-down, a menu for its list. The
  failure ends the node's message loop before it ever reads the request to close, so the screen is
  never removed: the next menu with its id could not open (DuplicateIds), for good. Found by the
  soak (a form, then the actions menu, closed by code as they opened). A node whose screen is no
  longer on the stack is being removed: its Mount is not dispatched.
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


def _closing(node: Any) -> bool:
    """Whether `node` belongs to a screen popped before it was built."""
    from textual.screen import Screen

    try:
        screen = node if isinstance(node, Screen) else node.screen
        return screen not in node.app.screen_stack
    except Exception:  # not on a screen yet, or no app: nothing is closing
        return False


def _mount_unless_closing(original: Any) -> Any:
    from textual.events import Mount

    async def _dispatch_message(self: Any, message: Any) -> Any:
        if type(message) is Mount and _closing(self):
            return None
        return await original(self, message)

    _dispatch_message.fixed = True  # type: ignore[attr-defined]
    return _dispatch_message


def apply() -> None:
    from textual._styles_cache import StylesCache
    from textual.message_pump import MessagePump

    StylesCache.get_inner_outer = _get_inner_outer  # type: ignore[method-assign,assignment]
    if not getattr(MessagePump._dispatch_message, "fixed", False):
        fixed = _mount_unless_closing(MessagePump._dispatch_message)
        MessagePump._dispatch_message = fixed  # type: ignore[method-assign]
