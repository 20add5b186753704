"""The key-value cache of the sandbox (`/kvcache/v1/zones/{zone}`): spec 2 §2.1, §3.1, §4.1, §8 and
spec/4 "Key-value cache". Clusters provision, migrate and disappear with the clock."""

from __future__ import annotations

import ipaddress
from typing import TYPE_CHECKING, Any

from tui.records import record

from ..collection import Collection
from ..errors import transient_state
from ..lifecycle import Timeline
from ..product_store import ProductStore

if TYPE_CHECKING:
    from ..app import Sandbox

ZONES = ("fr-par-1", "fr-par-2", "nl-ams-1", "nl-ams-2", "pl-waw-1", "pl-waw-2")  # spec 2 §2.1
PORT = 6379


@record
class Timings:
    provision: float = 20.0  # provisioning → initializing
    initialize: float = 10.0  # initializing → ready
    migrate: float = 15.0  # configuring → ready
    delete: float = 5.0  # deleting → gone


SETTINGS_7 = [
    {"name": "maxclients", "type": "INT", "default_value": "10000", "min_value": 1, "max_value": 60000},
    {"name": "tcp-keepalive", "type": "INT", "default_value": "300", "min_value": 0, "max_value": 7200},
    {"name": "maxmemory-policy", "type": "STRING", "default_value": "noeviction", "min_value": None, "max_value": None},
    {
        "name": "lazyfree-lazy-eviction",
        "type": "BOOLEAN",
        "default_value": "false",
        "min_value": None,
        "max_value": None,
    },
]
# version, released, end of life, beta, deprecated, the versions it upgrades to
VERSIONS = [
    ("6.2.7", "2022-04-27T00:00:00Z", "2025-12-31T00:00:00Z", False, True, ("7.0.5",)),
    ("7.0.5", "2023-01-10T00:00:00Z", "2027-06-30T00:00:00Z", False, False, ("7.2.4",)),
    ("7.2.4", "2024-01-09T00:00:00Z", "2028-06-30T00:00:00Z", True, False, ()),
]
NODE_TYPES = [
    ("RED1-MICRO", "available", "1 vCPU, 1 GB", 1, 1_073_741_824, False, False),
    ("RED1-S", "available", "2 vCPUs, 2 GB", 2, 2_147_483_648, False, False),
    ("RED1-M", "low_stock", "4 vCPUs, 8 GB", 4, 8_589_934_592, False, False),
    ("RED1-L", "out_of_stock", "8 vCPUs, 16 GB", 8, 17_179_869_184, False, False),
    ("RED1-XL", "available", "16 vCPUs, 32 GB (beta)", 16, 34_359_738_368, False, True),
    ("RED1-2XS", "available", "retired", 1, 536_870_912, True, False),
]
METRICS = {  # name: (base, swing, high)
    "cpu_usage_percent": (18.0, 12.0, 100.0),
    "memory_usage_percent": (42.0, 8.0, 100.0),
    "connected_clients": (40.0, 25.0, 10_000.0),
}


def versions(zone: str) -> list[dict[str, Any]]:
    return [
        {
            "version": v,
            "available_settings": SETTINGS_7,
            "released_at": rel,
            "end_of_life_at": eol,
            "beta": beta,
            "deprecated": dep,
            "logo_url": "",
            "zone": zone,
            "_upgrades": list(up),
        }
        for v, rel, eol, beta, dep, up in VERSIONS
    ]


def node_types(zone: str) -> list[dict[str, Any]]:
    return [
        {
            "name": n,
            "stock_status": s,
            "description": d,
            "vcpus": c,
            "memory": m,
            "disabled": dis,
            "beta": beta,
            "zone": zone,
        }
        for n, s, d, c, m, dis, beta in NODE_TYPES
    ]


def check_service_ips(ips: object, size: int, field: str) -> list[tuple[str, str, str]]:
    """One RFC 1918 IPv4 address in CIDR notation per node (spec 2 §2.1)."""
    if not isinstance(ips, list) or not all(isinstance(i, str) for i in ips):
        return [(field, "format", "a list of IPv4 addresses in CIDR notation")]
    if len(ips) != size:
        return [(field, "constraint", f"one address per node: {size} expected, {len(ips)} given")]
    for ip in ips:
        try:
            iface = ipaddress.IPv4Interface(ip)
        except ValueError:
            return [(field, "format", f"{ip!r} is not an IPv4 address in CIDR notation")]
        if "/" not in ip or not iface.ip.is_private or iface.ip.is_loopback or iface.ip.is_link_local:
            return [(field, "constraint", f"{ip} is not an RFC 1918 address in CIDR notation")]
    if len(set(ips)) != len(ips):
        return [(field, "constraint", "an address is given twice")]
    return []


class KvcacheStore(ProductStore):
    t: Timings

    def __init__(self, sandbox: Sandbox) -> None:
        super().__init__(sandbox, "kvcache_timings", Timings)
        self.timeline = Timeline(self.clock, on_step=self._after_step)
        self.collection = Collection("cluster", ZONES, self.timeline)
        self.clusters = self.collection.items

    def _after_step(self, c: dict[str, Any], changes: dict[str, Any]) -> None:
        if "cluster_size" in changes:
            self.grow_endpoints(c)
        if "version" in changes:
            self.refresh_upgrades(c)

    def version(self, zone: str, name: object) -> dict[str, Any] | None:
        return next((v for v in versions(zone) if v["version"] == name), None)

    def node_type(self, zone: str, name: object) -> dict[str, Any] | None:
        return next((n for n in node_types(zone) if n["name"] == name), None)

    def create(self, zone: str, body: dict[str, Any], ready: bool = False, age: float = 0.0) -> dict[str, Any]:
        now = self.clock.now() - age
        cid = self.ids.uuid()
        size = body.get("cluster_size") or 1
        c = {
            "id": cid,
            "name": body["name"],
            "project_id": body.get("project_id") or self.project_id,
            "status": "ready" if ready else "provisioning",
            "version": body["version"],
            "endpoints": [],
            "tags": list(body.get("tags") or []),
            "node_type": body["node_type"],
            "created_at": self.clock.iso(now),
            "updated_at": self.clock.iso(now),
            "tls_enabled": bool(body.get("tls_enabled")),
            "cluster_settings": [
                {"name": s["name"], "value": str(s["value"])} for s in body.get("cluster_settings") or []
            ],
            "acl_rules": [],
            "cluster_size": size,
            "zone": zone,
            "user_name": body["user_name"],
            "upgradable_versions": [],
            "_password": body.get("password"),
            "_cert": 1,
        }
        c["acl_rules"] = [
            {"id": self.ids.uuid(), "ip_cidr": r["ip_cidr"], "description": r.get("description") or ""}
            for r in body.get("acl_rules") or []
        ]
        specs = body.get("endpoints") or [{"public_network": {}}]
        c["endpoints"] = [self.endpoint(c, spec) for spec in specs]
        self.refresh_upgrades(c)
        if not ready:
            self.timeline.plan(
                c, (self.t.provision, {"status": "initializing"}), (self.t.initialize, {"status": "ready"}), start=now
            )
        return self.collection.add(c)

    def endpoint(self, c: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
        eid = self.ids.uuid()
        pn = spec.get("private_network")
        if isinstance(pn, dict):
            ips = list(pn.get("service_ips") or [])
            return {
                "id": eid,
                "ips": [ip.split("/")[0] for ip in ips],
                "port": PORT,
                "private_network": {
                    "id": pn.get("id"),
                    "service_ips": ips,
                    "zone": c["zone"],
                    "provisioning_mode": "static",
                },
            }
        n = len(c["id"]) % 200
        return {
            "id": eid,
            "ips": [f"51.15.{n + i}.{10 + i}" for i in range(c["cluster_size"])],
            "port": PORT,
            "public_network": {},
        }

    def refresh_upgrades(self, c: dict[str, Any]) -> None:
        v = self.version(c["zone"], c["version"])
        c["upgradable_versions"] = list(v["_upgrades"]) if v else []

    def grow_endpoints(self, c: dict[str, Any]) -> None:
        """After horizontal scaling every endpoint has one address per node."""
        size = c["cluster_size"]
        for e in c["endpoints"]:
            pn = e.get("private_network")
            if pn:
                ips = pn["service_ips"][:size]
                while len(ips) < size:
                    last = ipaddress.IPv4Interface(ips[-1]) if ips else ipaddress.IPv4Interface("10.0.0.10/24")
                    taken = {str(ipaddress.IPv4Interface(i).ip) for i in ips}
                    nxt = last.ip + 1
                    while str(nxt) in taken:
                        nxt += 1
                    ips.append(f"{nxt}/{last.network.prefixlen}")
                pn["service_ips"] = ips
                e["ips"] = [i.split("/")[0] for i in ips]
            else:
                base = e["ips"][0] if e["ips"] else "51.15.0.10"
                head, _, tail = base.rpartition(".")
                e["ips"] = [f"{head}.{int(tail) + i}" for i in range(size)]

    def ready(self, c: dict[str, Any]) -> None:
        if c["status"] != "ready":
            raise transient_state("cluster", c["id"], c["status"])

    def migrate(self, c: dict[str, Any], changes: dict[str, Any]) -> None:
        c["status"] = "configuring"
        self.timeline.plan(c, (self.t.migrate, {**changes, "status": "ready"}))

    def delete(self, c: dict[str, Any]) -> None:
        self.collection.delete_later(c, self.t.delete)
