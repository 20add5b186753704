"""What silicon servers come as: server types (GET one by name) and operating systems (GET one by
id). Read-only lists."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..kit.catalogue import catalogue
from ..kit.declared import Field
from ..kit.format import Tones, gb
from ..kit.kind_options import Item, Reading
from .servers import silicon_kind

if TYPE_CHECKING:
    from ..kit.base import Row
    from ..kit.models import Resource


def _part(r: dict[str, Any], key: str) -> dict[str, Any]:
    v = r.get(key) if hasattr(r, "get") else None
    return v if isinstance(v, dict) else {}


# Stock read at a glance, without colour too: ● high, ◐ low, ✖ none (all three were ○).
STOCK = Tones(good={"high_stock"}, busy={"low_stock"}, bad={"no_stock"})


def _lease(value: object) -> str:
    text = str(value or "")
    try:
        return f"{int(float(text.rstrip('s'))) // 3600} h"
    except ValueError:
        return text or "?"


def _cpu(r: Row) -> str:
    cpu = _part(r.raw, "cpu")
    return f"{cpu.get('name', '?')} · {cpu.get('core_count', '?')} cores"


def _cpu_detail(t: Row | Resource) -> str:
    cpu = _part(t.raw, "cpu")
    return f"{cpu.get('name', '?')}, {cpu.get('core_count', '?')} cores"


def _memory(r: Row | Resource) -> str:
    return f"{gb(_part(r.raw, 'memory').get('capacity'))} GB"


def _memory_detail(t: Row | Resource) -> str:
    return f"{_memory(t)} {_part(t.raw, 'memory').get('type', '')}"


def _disk(r: Row | Resource) -> str:
    return f"{gb(_part(r.raw, 'disk').get('capacity'))} GB"


def _disk_detail(t: Row | Resource) -> str:
    return f"{_disk(t)} {_part(t.raw, 'disk').get('type', '')}"


def _lease_of(r: Row | Resource) -> str:
    return _lease(r.raw.get("minimum_lease_duration"))


def _lease_detail(t: Row | Resource) -> str:
    return f"{_lease_of(t)}: billed for that long at least"


def _label(o: Row | Resource) -> str:
    """An OS reads as its label, else its name."""
    return str(o.raw.get("label") or o.raw.get("name") or "")


SERVER_TYPES = catalogue(
    silicon_kind,
    "silicon.types",
    "Silicon server types",
    "server type",
    collection="server-types",
    # CPU, memory, disk and lease are read from objects and a duration: their columns sort as they read.
    fields=(
        Field("name", "Type", ("name", "id"), width=8, empty=""),  # a type's name is its id
        Field("cpu", "CPU", width=20, show=_cpu, detail=_cpu_detail),
        Field("memory", "Memory", width=8, show=_memory, detail=_memory_detail),
        Field("disk", "Disk", width=8, show=_disk, detail=_disk_detail),
        Field("stock", "Stock", "state", width=14, tones=STOCK),
        Field("minimum_lease_duration", "Minimum lease", width=13, key="lease", show=_lease_of, detail=False),
        Field("minimum_lease_duration", "Minimum lease", show=_lease_detail),
    ),
    columns=("name", "stock", "cpu", "memory", "disk", "lease"),
    reading=Reading(item=Item(template="server-type/{id}", fetch=True)),
)

SYSTEMS = catalogue(
    silicon_kind,
    "silicon.os",
    "Silicon operating systems",
    "operating system",
    fields=(
        Field("label", "OS", "name", width=18, show=_label),
        Field("version", "Version", width=8, empty=""),
        Field("family", "Family", empty=""),
        Field("compatible_server_types", "Server types", "ref", ref="silicon.types", width=24, key="types", empty=""),
        Field("id", "ID", "id", empty=""),
    ),
    columns=("label", "version", "types"),
    reading=Reading(item=Item(fetch=True)),
)
