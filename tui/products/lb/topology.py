"""A load balancer's topology, drawn in its detail: what listens, where it forwards, to which servers."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from ..kit.views import Node
from .backends import backend_label
from .kinds import ip_of

if TYPE_CHECKING:
    from ..kit.base import Row
    from ..kit.service import ResourceService


async def topology(service: ResourceService, scope: str, row: Row) -> Node:
    """Frontends (port → backend) → the backend (protocol, port, algorithm, health check) → its
    servers; backends no frontend uses come last."""
    backends, frontends = await asyncio.gather(
        service.read_all(scope, "lbs", row.id, "backends", key="backends"),
        service.read_all(scope, "lbs", row.id, "frontends", key="frontends"),
    )
    by_id = {str(b.get("id")): b for b in backends}

    def backend_node(b: dict[str, Any]) -> Node:
        pool: list[Any] = b["pool"] if isinstance(b.get("pool"), list) else []
        return Node(backend_label(b), tuple(Node(f"server {ip}") for ip in pool) or (Node("no server"),))

    nodes, used = [], set()
    for f in sorted(frontends, key=lambda f: (f.get("inbound_port") or 0, str(f.get("name")))):
        embedded: Any = f.get("backend") if isinstance(f.get("backend"), dict) else {}  # JSON: a dict
        b = by_id.get(str(embedded.get("id"))) or embedded
        used.add(str(b.get("id")))
        name = b.get("name") or "?"
        nodes.append(
            Node(f"frontend {f.get('name')} :{f.get('inbound_port')} → {name}", (backend_node(b),) if b else ())
        )
    idle = [backend_node(b) for b in backends if str(b.get("id")) not in used]
    if idle:
        nodes.append(Node("backends no frontend uses", tuple(idle)))
    ip = ip_of(row.data) if hasattr(row, "data") else {}
    label = f"{row.name} ({ip.get('ip_address')})" if ip.get("ip_address") else row.name
    return Node(label, tuple(nodes) or (Node("no frontend and no backend yet"),))
