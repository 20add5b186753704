"""What bare metal offers in a zone: server offers (stock, hardware, price) and operating systems.
Read-only lists (the order and install forms read the same endpoints)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..kit.catalogue import catalogue
from ..kit.declared import Field
from ..kit.format import gb
from .common import baremetal_kind

if TYPE_CHECKING:
    from ..kit.base import Row
    from ..kit.models import Resource


def _first(r: dict[str, Any], key: str) -> dict[str, Any]:
    items = r.get(key) if hasattr(r, "get") else None
    first = items[0] if isinstance(items, list) and items else None
    return first if isinstance(first, dict) else {}


def euros(price: object) -> float | None:
    """A price object ({units, nanos}) as a number of euros; None for anything else."""
    if not isinstance(price, dict):
        return None
    try:
        return int(price.get("units") or 0) + int(price.get("nanos") or 0) / 1e9
    except (TypeError, ValueError):
        return None


def money(price: object) -> str:
    """A price object ({units, nanos}) as €1.23; '?' for anything else."""
    if not isinstance(price, dict):
        return "?"
    try:
        return f"€{int(price.get('units') or 0) + int(price.get('nanos') or 0) / 1e9:.2f}"
    except (TypeError, ValueError):
        return "?"


def _memory(r: Row | Resource) -> str:
    """The capacity of every memory module, summed."""
    modules = [m for m in r.raw.get("memory") or [] if isinstance(m, dict)]
    total = sum(int(m.get("capacity") or 0) for m in modules if str(m.get("capacity", "0")).isdigit())
    return f"{gb(total)} GB"


def _disks(r: Row | Resource) -> str:
    disk = r.raw.get("disk")
    disks = [d for d in disk if isinstance(d, dict)] if isinstance(disk, list) else []
    return f"{len(disks)}×{gb(disks[0].get('capacity'))} GB {disks[0].get('type', '')}" if disks else "none"


def _cpu(r: Row) -> str:
    cpu = _first(r.raw, "cpu")
    return f"{cpu.get('core_count', '?')}c {cpu.get('name', '')}"


def _cpu_detail(o: Row | Resource) -> str:
    cpu = _first(o.raw, "cpu")
    return f"{cpu.get('name', '?')}, {cpu.get('core_count', '?')} cores"


def _monthly(r: Row) -> str:
    return money(r.raw.get("price_per_month"))


def _bandwidth(o: Row | Resource) -> str:
    return f"{gb(o.raw.get('bandwidth'))} Gbit/s"


def _price(o: Row | Resource) -> str:
    return f"{money(o.raw.get('price_per_sixty_minutes'))}/hour · {money(o.raw.get('price_per_month'))}/month"


OFFERS = catalogue(
    baremetal_kind,
    "baremetal.offers",
    "Bare-metal offers",
    "offer",
    # Memory, disks and the monthly price are read from lists and objects: their columns sort as they read.
    fields=(
        Field("name", "Offer", "name", width=14, empty=""),
        Field("stock", "Stock", "state", width=12),
        Field("cpu", "CPU", width=24, show=_cpu, detail=_cpu_detail),
        Field("memory", "Memory", width=8, show=_memory),
        Field("disk", "Disks", width=18, show=_disks),
        Field("price_per_month", "€/month", width=9, key="month", show=_monthly, detail=False),
        Field("bandwidth", "Bandwidth", show=_bandwidth),
        Field("price_per_sixty_minutes", "Price", "money", show=_price),
        Field("id", "ID", "id", empty=""),
    ),
    columns=("name", "stock", "cpu", "memory", "disk", "month"),
)

SYSTEMS = catalogue(
    baremetal_kind,
    "baremetal.os",
    "Bare-metal operating systems",
    "operating system",
    fields=(
        Field("name", "OS", "name", width=16, empty=""),
        Field("version", "Version", width=30, empty=""),
        Field("id", "ID", "id", empty=""),
    ),
    columns=("name", "version"),
)
