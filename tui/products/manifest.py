"""Navigation as a manifest: every view a product offers, registered without importing its models,
forms or widgets.

An entry says what to open: a list of a kind (`list`), one object shown as a panel (`panel`, a
singleton kind), a conversation with a model (`chat`, a `views.ChatSpec`, on the console's chat
screen), or a screen of its own (`screen`, a Textual Screen class taking the app). Targets are
"module:ATTR" strings, imported when the entry is first opened, so start-up imports one product's
start kind whatever the number of products. The sidebar, the palette, the start-up prefetch and
the main screen read this; nothing in the UI names a product.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Literal

from ..records import record, replace
from .kit.location import ScopeType

if TYPE_CHECKING:
    from .kit.advice import Rule

Opens = Literal["list", "panel", "chat", "screen"]

# Each product's manifest module (a tuple ENTRIES of Entry), in sidebar order.
PRODUCT_MANIFESTS = [
    "tui.products.instance.manifest",
    "tui.products.baremetal.manifest",
    "tui.products.flexible_ip.manifest",  # under the "Bare metal" heading, after its servers
    "tui.products.silicon.manifest",
    "tui.products.rdb.manifest",
    "tui.products.kvcache.manifest",
    "tui.products.container_registry.manifest",
    "tui.products.dns.manifest",
    "tui.products.lb.manifest",
    "tui.products.monitoring.manifest",
    "tui.products.inference.manifest",
    "tui.products.genai.manifest",
]


@record(frozen=True)
class Entry:
    id: str  # unique: "instance.servers"
    label: str  # the sidebar's name
    group: str  # the product heading
    scope_type: ScopeType
    opens: Opens
    target: str  # "module:ATTR"
    title: str = ""  # the palette's words (default: label)
    start: bool = False  # the view the console opens on (the first entry marked wins)
    section: str = ""  # the sidebar's section (Compute, Network, Data…): default, the manifest's SECTION

    def load(self) -> Any:
        module, _, attr = self.target.partition(":")
        return getattr(importlib.import_module(module), attr)


_extra: list[Entry] = []
_cache: list[Entry] | None = None


def register(*entries: Entry) -> None:
    """Add entries (a product outside PRODUCT_MANIFESTS: a plug-in, the tests' own product)."""
    global _cache
    for e in entries:
        if e not in _extra:
            _extra.append(e)
    _cache = None


def unregister(*entries: Entry) -> None:
    global _cache
    for e in entries:
        if e in _extra:
            _extra.remove(e)
    _cache = None


def entries() -> list[Entry]:
    global _cache
    if _cache is None:
        out: list[Entry] = []
        for name in PRODUCT_MANIFESTS:
            module = importlib.import_module(name)
            section = getattr(module, "SECTION", "")
            out.extend(e if e.section or not section else replace(e, section=section) for e in module.ENTRIES)
        out.extend(_extra)
        # A section's products stay together, in the order their first entry came.
        order = {sec: n for n, sec in reversed(list(enumerate(e.section for e in out)))}
        out.sort(key=lambda e: order[e.section])
        ids = [e.id for e in out]
        if len(ids) != len(set(ids)):
            raise ValueError(f"two manifest entries share an id: {sorted(i for i in ids if ids.count(i) > 1)}")
        _cache = out
    return _cache


def by_id(entry_id: str) -> Entry | None:
    return next((e for e in entries() if e.id == entry_id), None)


def start_entry() -> Entry:
    found = entries()
    return next((e for e in found if e.start), found[0])


def list_kinds() -> list[Any]:
    """Every list kind of every product (imports them all: for tests and tools, not start-up)."""
    return [e.load() for e in entries() if e.opens in ("list", "panel")]


def advice() -> list[Rule]:
    """Every product's advisor rules (a manifest's `ADVICE`, "module:ATTR"), imported now, in the
    manifests' order (`products.kit.advice`)."""
    out: list[Rule] = []
    for name in PRODUCT_MANIFESTS:
        target = getattr(importlib.import_module(name), "ADVICE", "")
        if target:
            module, _, attr = target.partition(":")
            out.extend(getattr(importlib.import_module(module), attr))
    return out


def every_kind() -> list[Any]:
    """Every kind of every product, its children's and theirs too, each once (imports them all)."""
    kinds, seen = list_kinds(), set()
    for kind in kinds:  # the list grows as it is walked
        seen.add(kind.id)
    i = 0
    while i < len(kinds):
        for child in kinds[i].children:
            found = child.get()
            if found.id not in seen:
                seen.add(found.id)
                kinds.append(found)
        i += 1
    return kinds
