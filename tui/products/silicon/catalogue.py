"""What silicon servers come as: server types (GET one by name) and operating systems (GET one by
id). Read-only lists."""

from __future__ import annotations

from typing import Any

from ..base import Column
from ..catalogue import catalogue
from ..format import Tones, gb
from .servers import silicon_kind
from ..kind_options import Reading


def _part(r: Any, key: str) -> dict[str, Any]:
    v = r.get(key) if hasattr(r, "get") else None
    return v if isinstance(v, dict) else {}


# Stock read at a glance, without colour too: ● high, ◐ low, ✖ none (all three were ○).
STOCK = Tones(good={"high_stock"}, busy={"low_stock"}, bad={"no_stock"})


def _lease(value: Any) -> str:
    text = str(value or "")
    try:
        return f"{int(float(text.rstrip('s'))) // 3600} h"
    except ValueError:
        return text or "?"


SERVER_TYPES = catalogue(
    silicon_kind, "silicon.types", "Silicon server types", "server type", "server-types", "server_types",
    columns=(
        Column("name", "Type", lambda r: r.name, width=8),
        Column("stock", "Stock", lambda r: STOCK.text(r.text("stock")), width=14),
        Column("cpu", "CPU", lambda r: f"{_part(r, 'cpu').get('name', '?')} · {_part(r, 'cpu').get('core_count', '?')} cores", width=20),
        Column("memory", "Memory", lambda r: f"{gb(_part(r, 'memory').get('capacity'))} GB", width=8),
        Column("disk", "Disk", lambda r: f"{gb(_part(r, 'disk').get('capacity'))} GB", width=8),
        Column("lease", "Minimum lease", lambda r: _lease(r.get("minimum_lease_duration")), width=13),
    ),
    detail_fields=(
        ("Type", lambda t: str(t.raw.get("name", ""))),
        ("CPU", lambda t: f"{_part(t.raw, 'cpu').get('name', '?')}, {_part(t.raw, 'cpu').get('core_count', '?')} cores"),
        ("Memory", lambda t: f"{gb(_part(t.raw, 'memory').get('capacity'))} GB {_part(t.raw, 'memory').get('type', '')}"),
        ("Disk", lambda t: f"{gb(_part(t.raw, 'disk').get('capacity'))} GB {_part(t.raw, 'disk').get('type', '')}"),
        ("Stock", lambda t: str(t.raw.get("stock", ""))),
        ("Minimum lease", lambda t: f"{_lease(t.raw.get('minimum_lease_duration'))}: billed for that long at least"),
    ),
    reading=Reading(fetch_detail=True, item_template="server-type/{id}"),
)

SYSTEMS = catalogue(
    silicon_kind, "silicon.os", "Silicon operating systems", "operating system", "os", "os",
    columns=(
        Column("label", "OS", lambda r: r.text("label") or r.name, width=18),
        Column("version", "Version", lambda r: r.text("version"), width=8),
        Column("types", "Server types", lambda r: ", ".join(str(t) for t in r.items("compatible_server_types")), width=24),
    ),
    detail_fields=(
        ("OS", lambda o: str(o.raw.get("label") or o.raw.get("name", ""))),
        ("Version", lambda o: str(o.raw.get("version", ""))),
        ("Family", lambda o: str(o.raw.get("family", ""))),
        ("Server types", lambda o: ", ".join(str(t) for t in o.raw.get("compatible_server_types") or [])),
        ("ID", lambda o: str(o.raw.get("id", ""))),
    ),
    id_field="id", reading=Reading(fetch_detail=True),
)
