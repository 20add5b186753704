"""What the database product offers in a region: engines with their versions, and node types.
Read-only lists (the create wizard reads the same endpoints)."""

from __future__ import annotations

from typing import Any

from ..catalogue import catalogue, flags
from ..base import Column
from ..format import date_of, gb, state_text
from .instances import rdb_kind


def _versions(r: Any) -> str:
    out = []
    for v in r.items("versions"):
        if isinstance(v, dict):
            mark = " (disabled)" if v.get("disabled") else " (beta)" if v.get("beta") else ""
            out.append(f"{v.get('version', '?')}{mark}")
    return ", ".join(out)


def _version_lines(e: Any) -> str:
    lines = []
    for v in e.raw.get("versions") or []:
        if isinstance(v, dict):
            settings = v.get("available_settings")
            lines.append(f"{v.get('name', '?')}: {flags(v, 'disabled', 'beta')} · end of life {date_of(str(v.get('end_of_life') or '')) or 'not set'}"
                         f" · {len(settings) if isinstance(settings, list) else 0} settings")
    return "\n".join(lines) or "none"


ENGINES = catalogue(
    rdb_kind, "rdb.engines", "Database engines", "database engine", "database-engines", "engines",
    columns=(
        Column("name", "Engine", lambda r: r.name, width=14),
        Column("versions", "Versions", _versions, width=60),
    ),
    detail_fields=(("Engine", lambda e: str(e.raw.get("name", ""))), ("Versions", _version_lines)),
)


def _memory(r: Any) -> str:
    return f"{gb(r.get('memory'))} GB"


def _volumes(t: Any) -> str:
    vols = [v for v in t.raw.get("available_volume_types") or [] if isinstance(v, dict)]
    return "\n".join(f"{v.get('type', '?')}: {gb(v.get('min_size'))}–{gb(v.get('max_size'))} GB, steps of {gb(v.get('chunk_size'))} GB" for v in vols) or "none"


NODE_TYPES = catalogue(
    rdb_kind, "rdb.node_types", "Database node types", "node type", "node-types", "node_types",
    columns=(
        Column("name", "Node type", lambda r: r.name, width=14),
        Column("stock", "Stock", lambda r: state_text(r.text("stock_status")), width=14),
        Column("vcpus", "vCPU", lambda r: r.text("vcpus"), width=4, sort_key=lambda r: r.get("vcpus") or 0),
        Column("memory", "Memory", _memory, width=7, sort_key=lambda r: r.get("memory") or 0),
        Column("ha", "HA", lambda r: "required" if r.get("is_ha_required") else "optional", width=8),
        Column("block", "Block", lambda r: "yes" if r.get("is_bssd_compatible") else "no", width=5),
        Column("flags", "Flags", lambda r: flags(r, "disabled", "beta"), width=14),
    ),
    detail_fields=(
        ("Node type", lambda t: str(t.raw.get("name", ""))),
        ("Description", lambda t: str(t.raw.get("description", ""))),
        ("Stock", lambda t: str(t.raw.get("stock_status", ""))),
        ("High availability", lambda t: "required" if t.raw.get("is_ha_required") else "optional"),
        ("Volumes", _volumes),
        ("Generation", lambda t: str(t.raw.get("generation", ""))),
    ),
    state_field="stock_status",
)
