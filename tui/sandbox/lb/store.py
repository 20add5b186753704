"""Load balancers of the sandbox (spec 3 §2.3, §3, §4.3, §8; spec/4 "Load balancer"): each a master
and a backup instance that come up with the clock (to_create → creating → ready), one highly
available IPv4 kept or released on delete, backends and frontends counted on the load balancer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tui.records import record

from ..collection import Collection
from ..core import public
from ..lifecycle import GONE, Timeline
from ..product_store import ProductStore
from .checks import millis, normal_health

if TYPE_CHECKING:
    from ..app import Sandbox

REGIONS = ("fr-par", "nl-ams", "pl-waw")  # spec 3 §4.3
TYPES = [  # GET /lb-types: name, stock, description (per region)
    ("LB-S", "available", "Small: 200 Mbit/s, 2,000 connections"),
    ("LB-GP-M", "available", "Medium: 500 Mbit/s, 10,000 connections"),
    ("LB-GP-L", "low_stock", "Large: 1 Gbit/s, 40,000 connections"),
    ("LB-GP-XL", "out_of_stock", "Extra large: 4 Gbit/s, 100,000 connections"),
]
Obj = dict[str, Any]


@record
class Timings:
    to_create: float = 1.0  # to_create → creating
    creating: float = (
        2.0  # creating → ready ("provisioning normally takes under a second": the demo shows it a little longer)
    )
    deleting: float = 3.0  # to_delete → deleting → gone


def zone_region(zone: str) -> str | None:
    """The region of a zone (`fr-par-2` → `fr-par`): newer clients reach load balancers by zone."""
    region = zone.rsplit("-", 1)[0]
    return region if region in REGIONS and zone[len(region) + 1 :].isdigit() else None


class LbStore(ProductStore):
    t: Timings

    def __init__(self, sandbox: Sandbox) -> None:
        super().__init__(sandbox, "lb_timings", Timings)
        self.timeline = Timeline(self.clock, on_step=self._step)
        self.lbs = Collection("lb", REGIONS, self.timeline, scope_key="region")
        self.lbs.timeline.on_gone = self._gone
        self.ips = Collection("ip", REGIONS, Timeline(self.clock), scope_key="region", stamp=None)
        self.backends: dict[str, Obj] = {}
        self.frontends: dict[str, Obj] = {}
        self._subnet = 10

    # ---- load balancers --------------------------------------------------------------------------
    def new_ip(self, region: str, lb_id: str | None = None) -> Obj:
        n = len(self.ips.items[region]) + len(self.ips.deleted) + 10
        ip: Obj = {
            "id": self.ids.uuid(),
            "ip_address": f"51.159.{REGIONS.index(region) * 40 + 20}.{n}",
            "organization_id": self.organization_id,
            "lb_id": lb_id,
            "reverse": "",
            "project_id": self.project_id,
            "region": region,
            "zone": f"{region}-1",
        }
        ip["reverse"] = f"{ip['ip_address'].replace('.', '-')}.lb.{region}.example"
        return self.ips.add(ip)

    def create(
        self, region: str, body: dict[str, Any], ready: bool = False, age: float = 0.0, ip: Obj | None = None
    ) -> Obj:
        at = self.clock.now() - age
        lb_id = self.ids.uuid()
        ip = ip or self.new_ip(region, lb_id)
        ip["lb_id"] = lb_id
        self._subnet += 1
        status = "ready" if ready else "to_create"
        instance_status = "ready" if ready else "pending"
        lb = {
            "id": lb_id,
            "name": body["name"],
            "description": body.get("description") or "",
            "status": status,
            "instances": [
                {
                    "id": self.ids.uuid(),
                    "status": instance_status,
                    "ip_address": f"10.{self._subnet}.0.{n}",
                    "region": region,
                    "zone": f"{region}-{n}",
                    "created_at": self.clock.iso(at),
                    "updated_at": self.clock.iso(at),
                }
                for n in (1, 2)
            ],
            "organization_id": self.organization_id,
            "project_id": body.get("project_id") or self.project_id,
            "_ip_id": ip["id"],
            "tags": list(body.get("tags") or []),
            "frontend_count": 0,
            "backend_count": 0,
            "type": body.get("type") or "LB-S",
            "subscriber": None,
            "ssl_compatibility_level": body.get("ssl_compatibility_level") or "ssl_compatibility_level_intermediate",
            "region": region,
            "zone": f"{region}-1",
            "private_network_count": 0,
            "route_count": 0,
            "created_at": self.clock.iso(at),
            "updated_at": self.clock.iso(at),
        }
        if not ready:
            self.timeline.plan(
                lb, (self.t.to_create, {"status": "creating"}), (self.t.creating, {"status": "ready"}), start=at
            )
        return self.lbs.add(lb)

    def _step(self, lb: Obj, changes: dict[str, Any]) -> None:
        """Both instances are ready with the load balancer (pending before)."""
        if changes.get("status") == "ready":
            for inst in lb["instances"]:
                inst["status"], inst["updated_at"] = "ready", lb["updated_at"]

    def view(self, lb: Obj) -> Obj:
        out = public(lb)
        ip = self.ips.items[lb["region"]].get(lb["_ip_id"])
        out["ip"] = [dict(ip)] if ip is not None else []
        out["backend_count"] = sum(1 for b in self.backends.values() if b["_lb"] == lb["id"])
        out["frontend_count"] = sum(1 for f in self.frontends.values() if f["_lb"] == lb["id"])
        return out

    def delete(self, lb: Obj, release_ip: bool) -> None:
        if lb["status"] in ("to_delete", "deleting"):
            return
        lb["status"], lb["_release_ip"] = "to_delete", release_ip
        self.timeline.replan(lb, (0.5, {"status": "deleting"}), (self.t.deleting, {GONE: True}))

    def _gone(self, lb: Obj) -> None:
        """Its backends and frontends go with it; its IP is released or kept for reuse (`lb_id` null)."""
        for store in (self.backends, self.frontends):
            for oid in [k for k, v in store.items() if v["_lb"] == lb["id"]]:
                del store[oid]
        ip = self.ips.items[lb["region"]].get(lb["_ip_id"])
        if ip is not None:
            if lb.get("_release_ip"):
                self.ips.remove(ip)
            else:
                ip["lb_id"] = None
        self.lbs.remove(lb)

    # ---- backends and frontends ------------------------------------------------------------------
    def _add_to(self, table: dict[str, Obj], lb: Obj, fields: Obj) -> Obj:
        """A new backend or frontend of `lb`: its id, `fields` and times, kept in `table`."""
        now = self.clock.iso()
        obj = {"id": self.ids.uuid(), **fields, "created_at": now, "updated_at": now, "_lb": lb["id"]}
        table[obj["id"]] = obj
        return obj

    def add_backend(self, lb: Obj, body: dict[str, Any]) -> Obj:
        fields = {
            "name": body["name"],
            "forward_protocol": body["forward_protocol"],
            "forward_port": body["forward_port"],
            "forward_port_algorithm": body.get("forward_port_algorithm") or "roundrobin",
            "sticky_sessions": body.get("sticky_sessions") or "none",
            "sticky_sessions_cookie_name": body.get("sticky_sessions_cookie_name") or "",
            "pool": list(body.get("server_ip") or []),
            "health_check": normal_health(body["health_check"]),
            "send_proxy_v2": bool(body.get("send_proxy_v2")),
            "proxy_protocol": "proxy_protocol_v2" if body.get("send_proxy_v2") else "proxy_protocol_none",
            "timeout_server": millis(body.get("timeout_server", 300_000)),
            "timeout_connect": millis(body.get("timeout_connect", 5000)),
            "timeout_tunnel": millis(body.get("timeout_tunnel", 900_000)),
            "on_marked_down_action": "on_marked_down_action_none",
        }
        return self._add_to(self.backends, lb, fields)

    def backend_view(self, b: Obj) -> Obj:
        lb = self._lb_of(b)
        return {**public(b), "lb": self.view(lb) if lb else None}

    def add_frontend(self, lb: Obj, body: dict[str, Any]) -> Obj:
        fields = {
            "name": body["name"],
            "inbound_port": body["inbound_port"],
            "inbound_protocol": body.get("inbound_protocol") or "tcp",
            "_backend": body["backend_id"],
            "timeout_client": millis(body.get("timeout_client", 300_000)),
            "certificate_ids": list(body.get("certificate_ids") or []),
            "enable_http3": bool(body.get("enable_http3")),
        }
        return self._add_to(self.frontends, lb, fields)

    def frontend_view(self, f: Obj) -> Obj:
        lb = self._lb_of(f)
        backend = self.backends.get(f["_backend"])
        out = public(f)
        out["backend"] = public(backend) if backend else None
        out["lb"] = self.view(lb) if lb else None
        out["certificate"] = None
        return out

    def _lb_of(self, obj: Obj) -> Obj | None:
        for region in REGIONS:
            lb = self.lbs.items[region].get(obj["_lb"])
            if lb is not None:
                return lb
        return None

    def stamp(self, lb: Obj) -> None:
        """A change to a backend or frontend is a change to its load balancer."""
        lb["updated_at"] = self.clock.iso()
