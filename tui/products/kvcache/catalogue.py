"""What the cache offers in a zone: engine versions and node types. Read-only lists."""

from __future__ import annotations

from typing import Any

from ..base import Column, ListParams
from ..catalogue import catalogue, flags
from ..format import date_of, gb, state_text
from .clusters import kvcache_kind
from ..kind_options import Reading


def _settings(v: Any) -> str:
    items = [s for s in v.raw.get("available_settings") or [] if isinstance(s, dict)]
    return "\n".join(f"{s.get('name', '?')} ({s.get('type', '?')}, default {s.get('default_value', '?')})" for s in items) or "none"


VERSIONS = catalogue(
    kvcache_kind, "kvcache.versions", "Cache versions", "cache version", "cluster-versions", "versions",
    columns=(
        Column("version", "Version", lambda r: r.text("version"), width=10),
        Column("released", "Released", lambda r: date_of(r.text("released_at")), width=10),
        Column("eol", "End of life", lambda r: date_of(r.text("end_of_life_at")), width=11),
        Column("flags", "Flags", lambda r: flags(r, "deprecated", "beta"), width=18),
    ),
    detail_fields=(
        ("Version", lambda v: str(v.raw.get("version", ""))),
        ("Released", lambda v: str(v.raw.get("released_at", ""))),
        ("End of life", lambda v: str(v.raw.get("end_of_life_at", ""))),
        ("Flags", lambda v: flags(v.raw, "deprecated", "beta")),
        ("Settings", _settings),
    ),
    id_field="version", reading=Reading(list_params=ListParams(fixed={"include_beta": True, "include_deprecated": True})),
)

NODE_TYPES = catalogue(
    kvcache_kind, "kvcache.node_types", "Cache node types", "node type", "node-types", "node_types",
    columns=(
        Column("name", "Node type", lambda r: r.name, width=14),
        Column("stock", "Stock", lambda r: state_text(r.text("stock_status")), width=14),
        Column("vcpus", "vCPU", lambda r: r.text("vcpus"), width=4, sort_key=lambda r: r.get("vcpus") or 0),
        Column("memory", "Memory", lambda r: f"{gb(r.get('memory'))} GB", width=8, sort_key=lambda r: r.get("memory") or 0),
        Column("flags", "Flags", lambda r: flags(r, "disabled", "beta"), width=14),
    ),
    detail_fields=(
        ("Node type", lambda t: str(t.raw.get("name", ""))),
        ("Description", lambda t: str(t.raw.get("description", ""))),
        ("Stock", lambda t: str(t.raw.get("stock_status", ""))),
        ("Flags", lambda t: flags(t.raw, "disabled", "beta")),
    ),
    state_field="stock_status",
)
