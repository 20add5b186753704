"""Instance types (commercial types) with their prices, availability and volume constraints:
`/products/servers` (a map by name) with `/products/servers/availability` merged in. Read-only."""

from __future__ import annotations

from typing import Any

from ..base import Column, Lazy, Row
from ..format import gb
from .common import instance_kind, raw


def _local(r: Row) -> str:
    c = r.obj("per_volume_constraint").get("l_ssd") or {}
    return f"{gb(c.get('max_size'))} GB" if c else "—"


def _availability(r: Row) -> str:
    a = r.text("availability")
    return {"available": "● available", "scarce": "◐ scarce", "shortage": "✖ shortage"}.get(a, f"○ {a or 'unknown'}")


async def enrich(service: Any, scope: str, rows: list[Row]) -> None:
    """Availability comes from its own endpoint; a failure leaves it unknown rather than the list empty."""
    try:
        data = (await service.call("GET", scope, "products", "servers", "availability")).get("servers") or {}
    except Exception:
        return
    for row in rows:
        row.data["availability"] = (data.get(row.name) or {}).get("availability", "")


TYPES = instance_kind(
    id="instance.types",
    title="Instance types",
    singular="instance type",
    nav="Types",
    collection="products/servers",
    list_key="servers",
    item_key="server",
    paging="whole",
    fetch_detail=False,
    columns=(
        Column("name", "Type", lambda r: r.name, width=14),
        Column("cpus", "vCPU", lambda r: r.text("ncpus"), width=4, sort_key=lambda r: r.get("ncpus") or 0),
        Column("ram", "RAM GB", lambda r: gb(r.get("ram")), width=6, sort_key=lambda r: r.get("ram") or 0),
        Column("arch", "Arch", lambda r: r.text("arch"), width=6),
        Column("gpu", "GPU", lambda r: r.text("gpu") or "0", width=3),
        Column("local", "Local", _local, width=7),
        Column("hourly", "€/hour", lambda r: r.text("hourly_price"), width=7, sort_key=lambda r: r.get("hourly_price") or 0),
        Column("monthly", "€/month", lambda r: r.text("monthly_price"), width=8, sort_key=lambda r: r.get("monthly_price") or 0),
        Column("availability", "Availability", _availability, width=12, sort_key=lambda r: r.text("availability")),
    ),
    detail_fields=(
        ("Type", raw("name")),
        ("vCPU", raw("ncpus")),
        ("RAM", lambda s: f"{gb(s.raw.get('ram'))} GB"),
        ("Arch", raw("arch")),
        ("GPU", raw("gpu", "0")),
        ("Price", lambda s: f"€{s.raw.get('hourly_price')}/hour · €{s.raw.get('monthly_price')}/month"),
        ("Local storage (total)", lambda s: f"{gb((s.raw.get('volumes_constraint') or {}).get('min_size'))}–{gb((s.raw.get('volumes_constraint') or {}).get('max_size'))} GB"),
        ("Per volume", lambda s: "; ".join(f"{k}: {gb(v.get('min_size'))}–{gb(v.get('max_size'))} GB" for k, v in (s.raw.get("per_volume_constraint") or {}).items()) or "block storage only"),
        ("Network", raw("network")),
    ),
    enrich=Lazy("tui.products.instance.types:enrich"),
)
