"""Command palette provider: jump to a product or zone, refresh, create; searches a fixed index."""

from __future__ import annotations

from functools import partial
from typing import Callable

from textual.command import DiscoveryHit, Hit, Hits, Provider

from ..products import KINDS
from ..products.base import ALL, ZONES


class CloudCommands(Provider):
    def _index(self) -> list[tuple[str, Callable[[], None], str]]:
        from .screens.main import MainScreen

        main = next((s for s in self.app.screen_stack if isinstance(s, MainScreen)), None)
        if main is None:
            return []
        out: list[tuple[str, Callable[[], None], str]] = []
        for kind in KINDS:
            out.append((f"{kind.product} › {kind.title}", partial(main.open_kind, kind.id), f"Show {kind.title.lower()}"))
        out.append(("Zone: all zones", partial(main.set_scope, ALL), "List every zone at once"))
        for zone in ZONES:
            out.append((f"Zone: {zone}", partial(main.set_scope, zone), f"Switch to {zone}"))
        out.append(("Refresh", main.refresh_current, "Re-list the current view now"))
        if not getattr(self.app, "settings").read_only and main.current_kind.create is not None:
            out.append((f"Create {main.current_kind.title.lower().rstrip('s')}", main.create_current, "Open the create form"))
        return out

    async def discover(self) -> Hits:
        for name, command, help_text in self._index():
            yield DiscoveryHit(name, command, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, command, help_text in self._index():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), command, help=help_text)
