"""Catalogues: what a product offers rather than what the operator owns (engines, node types,
versions, server types, operating systems, offers). Read-only lists an operator browses and
filters, built the same way for every product: told apart by the field whose role is an id (most by
their name), no verbs, the detail from the listed object unless the API has a GET of one. Its columns name its declared
fields by key (`fields=`, see `declared.py`) and its detail is made from them; a catalogue not moved
yet gives its columns and its detail."""

from __future__ import annotations

from typing import Any, Callable

from .base import Column, ResourceKind, Row
from .declared import Field
from .kind_options import Item, Reading, over

# What every catalogue is, over its product's defaults (`kinds_of`); an argument given wins.
DEFAULTS: dict[str, Any] = {
    "reading": Reading(item=Item(fetch=False), per_scope=True),
}


def catalogue(
    kind: Callable[..., ResourceKind],
    id: str,
    title: str,
    singular: str,
    columns: tuple[Column | str, ...],
    **kw: Any,
) -> ResourceKind:
    """A catalogue of the product whose kinds `kind` builds (product, API, scope type and scopes);
    `fields=` in `kw`, its columns named by key and its detail made from them. Its collection and
    envelope are named as any kind's, from its id, unless `kw` says."""
    return kind(**over(DEFAULTS, kw), id=id, title=title, singular=singular, columns=columns)


def flags(d: dict[str, Any], *names: str) -> str:
    """The true ones of a few boolean flags, as words: 'disabled, beta'."""
    return ", ".join(n.replace("_", " ") for n in names if d.get(n) is True) or "—"


def _memory(t: Row) -> str:
    from .format import gb

    return f"{gb(t.raw.get('memory'))} GB"


def disabled_or_beta(t: Row) -> str:
    return flags(t.raw, "disabled", "beta")


def node_type_fields(memory_width: int) -> tuple[Field, ...]:
    """What a managed service's node type says first (databases and caches alike): its name, what it
    is, whether it is in stock, its vCPUs and memory."""
    return (
        Field("name", "Node type", ("name", "id"), width=14, empty=""),
        Field("description", "Description", empty=""),
        Field("stock_status", "Stock", "state", width=14, key="stock"),
        Field("vcpus", "vCPU", "count", width=4, detail=False),
        Field("memory", "Memory", "size", width=memory_width, show=_memory, detail=False),
    )
