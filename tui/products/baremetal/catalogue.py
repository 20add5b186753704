"""What bare metal offers in a zone: server offers (stock, hardware, price) and operating systems.
Read-only lists (the order and install forms read the same endpoints)."""

from __future__ import annotations

from typing import Any

from ..base import Column
from ..catalogue import catalogue
from ..format import gb, state_text
from .common import baremetal_kind


def _first(r: Any, key: str) -> dict[str, Any]:
    items = r.get(key) if hasattr(r, "get") else None
    first = items[0] if isinstance(items, list) and items else None
    return first if isinstance(first, dict) else {}


def money(price: Any) -> str:
    """A price object ({units, nanos}) as €1.23; '?' for anything else."""
    if not isinstance(price, dict):
        return "?"
    try:
        return f"€{int(price.get('units') or 0) + int(price.get('nanos') or 0) / 1e9:.2f}"
    except (TypeError, ValueError):
        return "?"


def _memory(r: Any) -> str:
    total = sum(int(m.get("capacity") or 0) for m in (r.get("memory") or []) if isinstance(m, dict) and str(m.get("capacity", "0")).isdigit())
    return f"{gb(total)} GB"


def _disks(r: Any) -> str:
    disks = [d for d in r.get("disk") or [] if isinstance(d, dict)] if isinstance(r.get("disk"), list) else []
    return f"{len(disks)}×{gb(disks[0].get('capacity'))} GB {disks[0].get('type', '')}" if disks else "none"


OFFERS = catalogue(
    baremetal_kind, "baremetal.offers", "Bare-metal offers", "offer", "offers", "offers",
    columns=(
        Column("name", "Offer", lambda r: r.name, width=14),
        Column("stock", "Stock", lambda r: state_text(r.text("stock")), width=12),
        Column("cpu", "CPU", lambda r: f"{_first(r, 'cpu').get('core_count', '?')}c {_first(r, 'cpu').get('name', '')}", width=24),
        Column("memory", "Memory", _memory, width=8),
        Column("disk", "Disks", _disks, width=18),
        Column("month", "€/month", lambda r: money(r.get("price_per_month")), width=9),
    ),
    detail_fields=(
        ("Offer", lambda o: str(o.raw.get("name", ""))),
        ("Stock", lambda o: str(o.raw.get("stock", ""))),
        ("CPU", lambda o: f"{_first(o.raw, 'cpu').get('name', '?')}, {_first(o.raw, 'cpu').get('core_count', '?')} cores"),
        ("Memory", lambda o: _memory(o.raw)),
        ("Disks", lambda o: _disks(o.raw)),
        ("Bandwidth", lambda o: f"{gb(o.raw.get('bandwidth'))} Gbit/s"),
        ("Price", lambda o: f"{money(o.raw.get('price_per_sixty_minutes'))}/hour · {money(o.raw.get('price_per_month'))}/month"),
        ("ID", lambda o: str(o.raw.get("id", ""))),
    ),
    id_field="id",
)

SYSTEMS = catalogue(
    baremetal_kind, "baremetal.os", "Bare-metal operating systems", "operating system", "os", "os",
    columns=(
        Column("name", "OS", lambda r: r.name, width=16),
        Column("version", "Version", lambda r: r.text("version"), width=30),
    ),
    detail_fields=(
        ("OS", lambda o: str(o.raw.get("name", ""))),
        ("Version", lambda o: str(o.raw.get("version", ""))),
        ("ID", lambda o: str(o.raw.get("id", ""))),
    ),
    id_field="id", state_field="status",
)
