"""The bare-metal API of the sandbox (`/baremetal/v1alpha1/zones/{zone}`): spec 1 §2.7, §3, §4.3
and spec/4 "Bare metal v1alpha1"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..registry import SandboxProduct
from . import networks
from .routes import routes as server_routes
from .state import ZONES, BaremetalStore, Timings

if TYPE_CHECKING:
    import random

    from starlette.routing import BaseRoute

__all__ = ["BaremetalStore", "PRODUCT", "Timings", "ZONES"]


def routes(store: BaremetalStore) -> list[BaseRoute]:
    return [*server_routes(store), *networks.routes(store)]


def seed_demo(store: BaremetalStore, rng: random.Random) -> None:
    """Servers in every status worth seeing, in two zones."""
    clock = store.clock
    offers = {o["name"]: o["id"] for o in store.offers["fr-par-2"].values()}
    ubuntu = next(o["id"] for o in store.os.values() if o["name"] == "Ubuntu")
    key = "3f2c8a8e-1d4b-4c2e-9b7a-5e6f7a8b9c0d"

    def make(
        zone: str, name: str, offer: str, status: str, installed: bool = True, tags: tuple[str, ...] = ()
    ) -> dict[str, Any]:
        zone_offers = {o["name"]: o["id"] for o in store.offers[zone].values()}
        s = store.create(
            zone, {"name": name, "offer_id": zone_offers.get(offer, offers[offer]), "tags": list(tags)}, status=status
        )
        if installed:
            s["install"] = {"os_id": ubuntu, "hostname": name, "ssh_key_ids": [key], "status": "completed"}
            store.event(s["id"], "installed")
        if status in ("stopped", "error"):
            s["ping_status"] = "ping_status_down"
        return s

    make("fr-par-2", "db-primary", "EM-B112X-SSD", "ready", tags=("db", "prod"))
    make("fr-par-2", "db-standby", "EM-B112X-SSD", "ready", tags=("db", "prod"))
    make("fr-par-2", "backup-store", "EM-L105X-SATA", "stopped", tags=("backup",))
    make("fr-par-2", "build-farm", "EM-A115X-SSD", "ready", installed=False, tags=("ci",))
    make("fr-par-2", "spare-01", "EM-A115X-SSD", "undelivered", installed=False)
    make("fr-par-1", "edge-par", "EM-A115X-SSD", "ready", tags=("edge",))
    make("nl-ams-1", "edge-ams", "EM-A115X-SSD", "ready", tags=("edge",))
    make("nl-ams-1", "legacy-mail", "EM-L105X-SATA", "error", tags=("legacy",))
    edge = next(s for s in store.servers["fr-par-1"].values() if s["name"] == "edge-par")
    for pn, vlan in (("5b2b0d1e-7c1a-4f8e-9d3b-1a2b3c4d5e6f", 3101), ("6c3c1e2f-8d2b-4a9f-8e4c-2b3c4d5e6f70", 3102)):
        store.networks.setdefault(edge["id"], {})[pn] = {
            "id": store.ids.uuid(),
            "project_id": store.project_id,
            "server_id": edge["id"],
            "private_network_id": pn,
            "vlan": vlan,
            "status": "attached",
            "created_at": clock.iso(),
            "updated_at": clock.iso(),
        }


SCALE_SERVERS_PER = 50  # one ready server in fr-par-1 per this many of --scale (flexible IPs go on them)


def seed_scale(store: BaremetalStore, rng: random.Random, count: int, zone: str = "fr-par-1") -> None:
    offer = next(iter(store.offers[zone]))
    for n in range(max(1, count // SCALE_SERVERS_PER)):
        store.create(zone, {"name": f"bm-{n:05d}", "offer_id": offer, "tags": ["scale"]}, status="ready")


PRODUCT = SandboxProduct("baremetal", "/baremetal/", BaremetalStore, routes, seed_demo=seed_demo, seed_scale=seed_scale)
