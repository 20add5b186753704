"""Catalogues: what a product offers rather than what the operator owns (engines, node types,
versions, server types, operating systems, offers). Read-only lists an operator browses and
filters, built the same way for every product: named by `name` unless said otherwise, no verbs,
the detail from the listed object unless the API has a GET of one."""

from __future__ import annotations

from typing import Any

from .base import Column, Lazy, ResourceKind

RESOURCE = Lazy("tui.products.models:Resource")


def catalogue(id: str, product: str, title: str, singular: str, api: str, scope_type: Any, collection: str, list_key: str,
              columns: tuple[Column, ...], detail_fields: tuple[tuple[str, Any], ...], **kw: Any) -> ResourceKind:
    kw.setdefault("id_field", "name")
    kw.setdefault("paging", "page_size")
    kw.setdefault("fetch_detail", False)
    kw.setdefault("state_field", "stock")
    return ResourceKind(
        id=id, product=product, title=title, singular=singular, api=api, scope_type=scope_type, collection=collection,
        list_key=list_key, item_key=None, model=RESOURCE, columns=columns, detail_fields=detail_fields, **kw,
    )


def flags(d: Any, *names: str) -> str:
    """The true ones of a few boolean flags, as words: 'disabled, beta'."""
    return ", ".join(n.replace("_", " ") for n in names if d.get(n) is True) or "—"
