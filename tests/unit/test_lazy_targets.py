"""Every "module:ATTR" a product names lazily resolves: a kind's models, forms, flows, enrichers and
children, an action's shapes, a manifest entry's target. A misspelt target otherwise fails only when
an operator first opens what it names."""

from __future__ import annotations

from typing import Any

from tui.products.kit.base import Child
from tui.products.kit.lazy import Lazy
from tui.products.manifest import entries


def _declarations(value: Any, seen: set[int], found: list[tuple[str, Any]], where: str) -> None:
    """Walk records, tuples, lists and dicts from `value`, collecting every Lazy and Child."""
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, Lazy):
        found.append((where, value))
        return
    if isinstance(value, Child):
        found.append((where, value))
    if isinstance(value, (tuple, list, frozenset, set)):
        for item in value:
            _declarations(item, seen, found, where)
    elif isinstance(value, dict):
        for item in value.values():
            _declarations(item, seen, found, where)
    elif hasattr(type(value), "__record_fields__"):
        for name in type(value).__record_fields__:
            _declarations(getattr(value, name, None), seen, found, f"{where}.{name}")


def test_every_lazy_target_of_every_product_resolves():
    found: list[tuple[str, Any]] = []
    seen: set[int] = set()
    for entry in entries():
        target = entry.load()  # the manifest's own targets
        assert target is not None, entry.id
        _declarations(target, seen, found, entry.id)
    resolved = 0
    while found:  # a child kind, a form or a flow resolved may name further targets
        where, ref = found.pop()
        try:
            value = ref.get()
        except (ImportError, AttributeError) as err:
            named = getattr(ref, "target", getattr(ref, "kind", ref))
            raise AssertionError(f"{where}: {named} does not resolve ({err})") from None
        resolved += 1
        _declarations(value, seen, found, f"{where} → {getattr(ref, 'target', getattr(ref, 'kind', ''))}")
    assert resolved > 100  # the walk reached every product's (118: 146 when written, before the kinds shared one model)
