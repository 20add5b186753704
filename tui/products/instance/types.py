"""Instance types (commercial types) with their prices, availability and volume constraints:
`/products/servers` (a map by name) with `/products/servers/availability` merged in. Read-only."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..kit.base import Lazy, Row
from ..kit.declared import Field
from ..kit.format import gb, human_bytes
from ..kit.kind_options import Item, Lookup, Reading, Rows
from .common import instance_kind

if TYPE_CHECKING:
    from ..kit.models import Resource
    from ..kit.service import ResourceService


def _local(r: Row) -> str:
    c = r.obj("per_volume_constraint").get("l_ssd") or {}
    return f"{gb(c.get('max_size'))} GB" if c else "—"


def _availability(r: Row) -> str:
    a = r.text("availability")
    marked = {"available": "● available", "scarce": "◐ scarce", "shortage": "✖ shortage"}
    return marked.get(a, f"○ {a or 'unknown'}")


def _ram_gb(r: Row) -> str:
    return gb(r.get("ram"))


def _price(t: Row | Resource) -> str:
    return f"€{t.raw.get('hourly_price')}/hour · €{t.raw.get('monthly_price')}/month"


def _local_total(t: Row | Resource) -> str:
    c = t.raw.get("volumes_constraint") or {}
    if not c.get("max_size"):  # no local storage at all: block storage only (the list says —)
        return "none: block storage only"
    return f"{gb(c.get('min_size'))}–{gb(c.get('max_size'))} GB"


def _per_volume(t: Row | Resource) -> str:
    each = t.raw.get("per_volume_constraint") or {}
    said = "; ".join(f"{k}: {gb(v.get('min_size'))}–{gb(v.get('max_size'))} GB" for k, v in each.items())
    return said or "block storage only"


def _network(t: Row | Resource) -> str:
    """Its internal bandwidth (sent in bits per second), and whether it takes IPv6."""
    net = t.raw.get("network") or {}
    bandwidth = net.get("sum_internal_bandwidth")
    said = f"{bandwidth / 1e6:g} Mbit/s internal bandwidth" if isinstance(bandwidth, (int, float)) else "?"
    return said + (", IPv6" if net.get("ipv6_support") else "")


async def enrich(service: ResourceService, scope: str, rows: list[Row]) -> None:
    """Availability comes from its own endpoint; a failure leaves it unknown rather than the list empty."""
    try:
        data = (await service.call("GET", scope, "products", "servers", "availability")).get("servers") or {}
    except Exception:
        return
    for row in rows:
        row.data["availability"] = (data.get(row.name) or {}).get("availability", "")


TYPES = instance_kind(
    id="instance.types",
    singular="instance type",
    collection="products/servers",
    paging="whole",
    delete=None,
    reading=Reading(item=Item(fetch=False)),
    fields=(
        Field("name", "Type", ("name", "id"), width=14),  # a type's name is its id
        Field("ncpus", "vCPU", "count", width=4, key="cpus"),
        Field("ram", "RAM", "size", width=6, head="RAM GB", show=_ram_gb, as_detail=human_bytes),
        Field("arch", "Arch", width=6),
        Field("gpu", "GPU", "count", width=3, blank="0", empty="0"),
        Field("per_volume_constraint.l_ssd.max_size", "Local", "size", width=7, key="local", show=_local, detail=False),
        Field("hourly_price", "€/hour", "money", width=7, key="hourly", detail=False),
        Field("monthly_price", "€/month", "money", width=8, key="monthly", detail=False),
        Field("hourly_price", "Price", "money", show=_price),
        Field("availability", "Availability", "state", width=12, show=_availability, detail=False),
        Field("volumes_constraint", "Local storage (total)", "size", show=_local_total),
        Field("per_volume_constraint", "Per volume", "size", show=_per_volume),
        Field("network", "Network", show=_network),
    ),
    columns=("name", "cpus", "ram", "arch", "gpu", "local", "hourly", "monthly", "availability"),
    rows=Rows(lookup=Lookup(listed=Lazy("tui.products.instance.types:enrich"))),
)
