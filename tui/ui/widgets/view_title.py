"""A list's title: what it lists and where, how many of how many are loaded, and what the table does
to them (filtered, marked, sorted), and which scopes failed — made from what the view passes, nothing else."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...api.errors import ApiError
from ...products.kit.base import ResourceKind
from ...products.kit.location import scope_label

if TYPE_CHECKING:
    from ...products.kit.base import ParentRef
    from .resource_table import ResourceTable


def list_title(
    kind: ResourceKind,
    scope: str,
    parent_ref: ParentRef | None,
    t: ResourceTable,
    totals: dict[str, int],
    failed: dict[str, ApiError],
    listing: bool,
    staged: int = 0,
    retrying: str = "",
) -> str:
    """`t`: the table (its loaded, visible, marked counts and its sort); `staged`: the changes staged, not
    sent yet; `retrying`: why the reading under way is sending requests again (its rows shown are the
    last read, kept until the new ones come)."""
    loaded = t.loaded_count
    total = sum(totals.values()) if totals else None
    if total is not None and failed:
        count = f"{loaded:,}/{total:,}+?"
    elif total is not None:
        count = f"{loaded:,}/{max(total, loaded):,}"
    else:
        # no total sent (a catalogue): once listed without a failure, what was read is all of it
        count = f"{loaded:,}/?" if (listing or failed) else f"{loaded:,}/{loaded:,}"
    parts = [kind.title]
    if parent_ref is not None:
        parts[0] = f"{parent_ref.name or parent_ref.id} › {kind.title}"
    if kind.scope_type != "global":
        parts.append(scope_label(scope, kind.scope_type))
    parts.append(count)
    if t.visible_count != loaded:
        parts.append(f"{t.visible_count:,} match" + ("" if t.visible_count == 1 else "es"))
    if t.marked:
        parts.append(f"{len(t.marked):,} marked")
    if staged:
        parts.append(f"{staged:,} staged")
    if failed:
        parts.append("✖ " + ", ".join(f"{s} {e.label}" for s, e in sorted(failed.items())))
    if listing:  # after the marks and the changes staged (what an act works on), which a narrow title keeps
        parts.append(f"{'stale' if loaded else 'loading'}, retrying ({retrying})…" if retrying else "loading…")
    if t.sort_state:
        col, rev = t.sort_state
        # the columns shown (the operator's own among them), else the kind's (all Columns once it is made)
        shown = (*t.columns, *kind.columns)
        title = next((c.title for c in shown if not isinstance(c, str) and c.key == col), col)
        parts.append(f"by {title} {'↓' if rev else '↑'}")
    return " · ".join(parts)
