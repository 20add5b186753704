"""What the database product offers in a region: engines with their versions, and node types.
Read-only lists (the create wizard reads the same endpoints)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..kit.catalogue import catalogue, disabled_or_beta, flags, node_type_fields
from ..kit.declared import Field
from ..kit.format import date_of, gb
from .common import rdb_kind

if TYPE_CHECKING:
    from ..kit.base import Row
    from ..kit.models import Resource


def _versions(r: Row) -> str:
    out = []
    for v in r.items("versions"):
        if isinstance(v, dict):
            mark = " (disabled)" if v.get("disabled") else " (beta)" if v.get("beta") else ""
            out.append(f"{v.get('version', '?')}{mark}")
    return ", ".join(out)


def _version_lines(e: Row | Resource) -> str:
    lines = []
    for v in e.raw.get("versions") or []:
        if isinstance(v, dict):
            settings = v.get("available_settings")
            eol = date_of(str(v.get("end_of_life") or "")) or "not set"
            count = len(settings) if isinstance(settings, list) else 0
            lines.append(f"{v.get('name', '?')}: {flags(v, 'disabled', 'beta')} · end of life {eol} · {count} settings")
    return "\n".join(lines) or "none"


ENGINES = catalogue(
    rdb_kind,
    "rdb.engines",
    "Database engines",
    "database engine",
    collection="database-engines",
    list_key="engines",
    fields=(
        Field("name", "Engine", ("name", "id"), width=14, empty=""),
        Field("versions", "Versions", width=60, show=_versions, detail=_version_lines),
    ),
    columns=("name", "versions"),
)


HA = ("required", "optional")  # a node type's `is_ha_required`


def _volumes(t: Row | Resource) -> str:
    vols = [v for v in t.raw.get("available_volume_types") or [] if isinstance(v, dict)]
    lines = (
        f"{v.get('type', '?')}: {gb(v.get('min_size'))}–{gb(v.get('max_size'))} GB, "
        f"steps of {gb(v.get('chunk_size'))} GB"
        for v in vols
    )
    return "\n".join(lines) or "none"


NODE_TYPES = catalogue(
    rdb_kind,
    "rdb.node_types",
    "Database node types",
    "node type",
    collection="node-types",
    fields=(
        *node_type_fields(memory_width=7),
        Field("is_ha_required", "High availability", "flag", width=8, head="HA", key="ha", words=HA),
        Field("is_bssd_compatible", "Block", "flag", width=5, key="block", words=("yes", "no"), detail=False),
        Field("", "Flags", width=14, show=disabled_or_beta, detail=False),
        Field("available_volume_types", "Volumes", show=_volumes),
        Field("generation", "Generation", empty=""),
    ),
    columns=("name", "stock", "vcpus", "memory", "ha", "block", "flags"),
)
