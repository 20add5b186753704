"""What the cache offers in a zone: engine versions and node types. Read-only lists."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..kit.base import ListParams
from ..kit.catalogue import catalogue, disabled_or_beta, flags, node_type_fields
from ..kit.declared import Field
from ..kit.kind_options import Reading
from .clusters import kvcache_kind

if TYPE_CHECKING:
    from ..kit.base import Row
    from ..kit.models import Resource


def _settings(v: Row | Resource) -> str:
    items = [s for s in v.raw.get("available_settings") or [] if isinstance(s, dict)]
    return (
        "\n".join(f"{s.get('name', '?')} ({s.get('type', '?')}, default {s.get('default_value', '?')})" for s in items)
        or "none"
    )


def _deprecated_or_beta(v: Row | Resource) -> str:
    return flags(v.raw, "deprecated", "beta")


VERSIONS = catalogue(
    kvcache_kind,
    "kvcache.versions",
    "Cache versions",
    "cache version",
    collection="cluster-versions",
    list_key="versions",
    fields=(
        Field("version", "Version", ("name", "id"), width=10, empty=""),
        Field("released_at", "Released", "time", width=10, key="released", empty=""),
        Field("end_of_life_at", "End of life", "time", width=11, key="eol", empty=""),
        Field("", "Flags", width=18, show=_deprecated_or_beta),
        Field("available_settings", "Settings", show=_settings),
    ),
    columns=("version", "released", "eol", "flags"),
    reading=Reading(list_params=ListParams(fixed={"include_beta": True, "include_deprecated": True})),
)

NODE_TYPES = catalogue(
    kvcache_kind,
    "kvcache.node_types",
    "Cache node types",
    "node type",
    collection="node-types",
    fields=(
        *node_type_fields(memory_width=8),
        Field("", "Flags", width=14, show=disabled_or_beta),
    ),
    columns=("name", "stock", "vcpus", "memory", "flags"),
)
