"""Flexible IPs for bare metal in the sandbox (`/flexible-ip/v1alpha1/zones/{zone}`): spec 1 §2.8,
§4.4, §8 and spec/4 "Flexible IPs". Attach and detach take lists (a MAC group moves together);
statuses move ready → updating → attached and attached → detaching → ready with the clock; virtual
MACs are generated, duplicated onto an IP of the same server, moved and deleted; 64 per server."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tui.records import record

from ..collection import Collection, page
from ..core import check_unknown, is_uuid, json_body, path_zone, public
from ..errors import invalid_arguments
from ..lifecycle import Timeline
from ..product_store import ProductStore
from ..registry import SandboxProduct
from ..routing import Routes

if TYPE_CHECKING:
    from ..app import Sandbox

ZONES = ("fr-par-1", "fr-par-2", "nl-ams-1")
MAX_PER_SERVER = 64
MAC_TYPES = ("kvm", "xen", "vmware")


@record
class Timings:
    settle: float = 3.0  # updating/detaching → attached/ready


class FipStore(ProductStore):
    t: Timings

    def __init__(self, sandbox: Sandbox) -> None:
        super().__init__(sandbox, "fip_timings", Timings)
        self.sandbox = sandbox
        # updating → attached or ready, detaching → ready; stamped when read, as the platform does
        self.timeline = Timeline(self.clock, stamp_read=True)
        self.collection = Collection("flexible_ip", ZONES, self.timeline)
        self.fips = self.collection.items
        self.rng = random.Random(7)

    def server_exists(self, zone: str, sid: object) -> bool:
        """A bare-metal server of the zone has the id `sid` (never a list or an object of a body)."""
        bm = getattr(self.sandbox, "baremetal", None)
        return isinstance(sid, str) and bm is not None and zone in bm.servers and sid in bm.servers[zone]

    def create(self, zone: str, body: dict[str, Any], settled: bool = False) -> dict[str, Any]:
        """A new IP: `updating` until it settles (at once when `settled`, for seeds and tests)."""
        v6 = bool(body.get("is_ipv6"))
        address = (
            f"2001:bc8:{self.rng.randint(4096, 65535):x}:{self.rng.randint(1, 4095):x}::/64"
            if v6
            else f"51.15.{self.rng.randint(1, 254)}.{self.rng.randint(1, 254)}"
        )
        f = {
            "id": self.ids.uuid(),
            "organization_id": self.sandbox.organization_id,
            "project_id": body["project_id"],
            "description": body.get("description") or "",
            "created_at": self.clock.iso(),
            "updated_at": self.clock.iso(),
            "status": "updating",
            "tags": list(body.get("tags") or []),
            "ip_address": address,
            "server_id": None,
            "reverse": body.get("reverse") or "",
            "mac_address": None,
            "zone": zone,
        }
        if body.get("server_id"):
            f["server_id"] = body["server_id"]
        if settled:
            f["status"] = "attached" if f["server_id"] else "ready"
        else:
            self.moving(f, "attached" if f["server_id"] else "ready")
        return self.collection.add(f)

    def moving(self, f: dict[str, Any], to: str) -> None:
        """Settles to `to` after the delay, replacing what was under way (ready: off its server)."""
        self.timeline.replan(f, (self.t.settle, {"status": to, **({"server_id": None} if to == "ready" else {})}))

    def settle(self, f: dict[str, Any]) -> dict[str, Any]:
        self.timeline.settle(f)
        return f

    def get(self, zone: str, fid: str) -> dict[str, Any]:
        return self.collection.get(zone, fid)

    def on_server(self, zone: str, sid: str) -> list[dict[str, Any]]:
        return [self.settle(f) for f in self.fips[zone].values() if f["server_id"] == sid]

    def group(self, zone: str, f: dict[str, Any]) -> list[dict[str, Any]]:
        mac = (f.get("mac_address") or {}).get("mac_address")
        if not mac:
            return [f]
        return [g for g in self.fips[zone].values() if (g.get("mac_address") or {}).get("mac_address") == mac]

    def new_mac(self, mac_type: str) -> dict[str, Any]:
        prefix = {"xen": [0x00, 0x16, 0x3E], "vmware": [0x00, 0x50, 0x56]}.get(
            mac_type, [0x52, 0x54, 0x00]
        )  # each hypervisor's own OUI
        octets = prefix + [self.rng.randint(0, 255) for _ in range(3)]
        return {
            "id": self.ids.uuid(),
            "mac_address": ":".join(f"{o:02x}" for o in octets),
            "mac_type": mac_type,
            "status": "ready",
            "created_at": self.clock.iso(),
            "updated_at": self.clock.iso(),
        }


def routes(store: FipStore) -> list[Route]:
    routes = Routes("/flexible-ip/v1alpha1/zones/{zone}")

    def zone_of(request: Request) -> str:
        return path_zone(request, ZONES, "flexible IPs for bare metal")

    def fip(request: Request) -> dict[str, Any]:
        return store.get(zone_of(request), request.path_params["fid"])

    def texts(body: dict[str, Any]) -> list[tuple[str, str, str]]:
        errs = []
        d = body.get("description")
        if d is not None and (not isinstance(d, str) or len(d) > 255):
            errs.append(("description", "constraint", "description must be at most 255 characters"))
        t = body.get("tags")
        if t is not None and not (isinstance(t, list) and all(isinstance(x, str) for x in t)):
            errs.append(("tags", "format", "tags must be an array of strings"))
        return errs

    @routes.get("/fips")
    async def listing(request: Request) -> Response:
        zone = zone_of(request)
        items = list(store.fips[zone].values())  # created order (a dict keeps insertion order)
        servers = request.query_params.getlist("server_ids")
        if servers:  # settled first: a detach that finished leaves its server
            items = [f for f in items if store.settle(f)["server_id"] in servers]
        if request.query_params.get("order_by") == "created_at_desc":
            items.reverse()
        # Only the page's items are settled and rendered: 10,000 IPs cost a page, not the zone, per request.
        return page(request, "flexible_ips", items, lambda f: public(store.settle(f)))

    @routes.post("/fips")
    async def create(request: Request) -> Response:
        zone = zone_of(request)
        body = await json_body(request)
        allowed = {"project_id", "description", "tags", "server_id", "reverse", "is_ipv6"}
        errs = check_unknown(body, allowed) + texts(body)
        if not body.get("project_id"):
            errs.append(("project_id", "required", "project_id is required"))
        sid = body.get("server_id")
        if sid is not None and not store.server_exists(zone, sid):
            errs.append(("server_id", "constraint", "no such bare-metal server in this zone"))
        elif sid is not None and len(store.on_server(zone, sid)) >= MAX_PER_SERVER:
            errs.append(("server_id", "constraint", f"a server has at most {MAX_PER_SERVER} flexible IPs"))
        if errs:
            raise invalid_arguments(*errs)
        return JSONResponse(public(store.create(zone, body)))

    @routes.route("GET PATCH DELETE", "/fips/{fid}")
    async def one(request: Request) -> Response:
        f = fip(request)
        if request.method == "DELETE":
            store.collection.remove(f)
            return Response(status_code=204)
        if request.method == "PATCH":
            body = await json_body(request)
            errs = check_unknown(body, {"description", "tags", "reverse"}) + texts(body)
            if errs:
                raise invalid_arguments(*errs)
            store.collection.patch(f, body, ("description", "tags", "reverse"))
        return JSONResponse(public(f))

    @routes.post("/fips/attach")
    async def attach(request: Request) -> Response:
        zone = zone_of(request)
        body = await json_body(request)
        ids, sid = body.get("fips_ids"), body.get("server_id")
        errs = []
        if not isinstance(ids, list) or not ids or not all(is_uuid(i) for i in ids):
            errs.append(("fips_ids", "required", "a list of flexible IP IDs"))
        if not sid or not store.server_exists(zone, sid):
            errs.append(("server_id", "constraint", "no such bare-metal server in this zone"))
        if errs:
            raise invalid_arguments(*errs)
        assert ids is not None and sid is not None  # refused above otherwise
        fips = [store.get(zone, i) for i in ids]
        for f in fips:
            missing = [g["id"] for g in store.group(zone, f) if g["id"] not in ids]
            if missing:
                raise invalid_arguments(
                    (
                        "fips_ids",
                        "constraint",
                        f"{f['ip_address']} is in a MAC group: move its whole group ({', '.join(missing)})",
                    )
                )
        if len([f for f in store.on_server(zone, sid) if f["id"] not in ids]) + len(fips) > MAX_PER_SERVER:
            raise invalid_arguments(("fips_ids", "constraint", f"a server has at most {MAX_PER_SERVER} flexible IPs"))
        for f in fips:
            f.update(server_id=sid, status="updating", updated_at=store.clock.iso())
            store.moving(f, "attached")
        return JSONResponse({"flexible_ips": [public(f) for f in fips], "total_count": len(fips)})

    @routes.post("/fips/detach")
    async def detach(request: Request) -> Response:
        zone = zone_of(request)
        body = await json_body(request)
        ids = body.get("fips_ids")
        if not isinstance(ids, list) or not ids or not all(is_uuid(i) for i in ids):
            raise invalid_arguments(("fips_ids", "required", "a list of flexible IP IDs"))
        fips = [store.get(zone, i) for i in ids]
        for f in fips:
            if len(store.group(zone, f)) > 1 and not all(g["id"] in ids for g in store.group(zone, f)):
                f["mac_address"] = None  # detached alone from its MAC group: it loses the virtual MAC
            f.update(status="detaching", updated_at=store.clock.iso())
            store.moving(f, "ready")
        return JSONResponse({"flexible_ips": [public(f) for f in fips], "total_count": len(fips)})

    @routes.route("POST DELETE", "/fips/{fid}/mac")
    async def mac(request: Request) -> Response:
        f = fip(request)
        if request.method == "DELETE":
            f["mac_address"] = None
            return Response(status_code=204)
        body = await json_body(request)
        mac_type = body.get("mac_type")
        if mac_type not in MAC_TYPES:
            raise invalid_arguments(("mac_type", "constraint", f"mac_type must be one of {', '.join(MAC_TYPES)}"))
        if not f["server_id"]:
            raise invalid_arguments(("fip_id", "constraint", "a virtual MAC is generated on an attached flexible IP"))
        f["mac_address"] = store.new_mac(mac_type)
        return JSONResponse(public(f))

    @routes.post("/fips/{fid}/mac/duplicate")
    async def duplicate(request: Request) -> Response:
        f = fip(request)
        body = await json_body(request)
        src_id = body.get("duplicate_from_fip_id")
        src = store.fips[f["zone"]].get(src_id) if isinstance(src_id, str) else None
        if src is None:
            raise invalid_arguments(("duplicate_from_fip_id", "constraint", "no such flexible IP"))
        if not src.get("mac_address"):
            raise invalid_arguments(("duplicate_from_fip_id", "constraint", "that flexible IP has no virtual MAC"))
        if not f["server_id"] or src["server_id"] != f["server_id"]:
            raise invalid_arguments(
                ("duplicate_from_fip_id", "constraint", "both flexible IPs must be attached to the same server")
            )
        f["mac_address"] = dict(src["mac_address"], id=store.ids.uuid())
        return JSONResponse(public(f))

    @routes.post("/fips/{fid}/mac/move")
    async def move(request: Request) -> Response:
        f = fip(request)
        body = await json_body(request)
        dst_id = body.get("dst_fip_id")
        dst = store.fips[f["zone"]].get(dst_id) if isinstance(dst_id, str) else None
        if dst is None:
            raise invalid_arguments(("dst_fip_id", "constraint", "no such flexible IP"))
        if not f.get("mac_address"):
            raise invalid_arguments(("fip_id", "constraint", "this flexible IP has no virtual MAC to move"))
        dst["mac_address"], f["mac_address"] = f["mac_address"], None
        return JSONResponse(public(dst))

    return routes.table()


def seed_demo(store: FipStore, rng: random.Random) -> None:
    """IPs on the seeded servers of fr-par-2 (a MAC group of two on db-primary) and a spare; in
    fr-par-1 one on edge-par and two spares."""
    bm = store.sandbox.baremetal
    servers = {s["name"]: s["id"] for s in bm.servers["fr-par-2"].values()}
    project = store.sandbox.project_id
    a = store.create(
        "fr-par-2", {"project_id": project, "server_id": servers["db-primary"], "description": "db vip"}, settled=True
    )
    b = store.create(
        "fr-par-2",
        {"project_id": project, "server_id": servers["db-primary"], "description": "db vip v6", "is_ipv6": True},
        settled=True,
    )
    store.create(
        "fr-par-2", {"project_id": project, "server_id": servers["db-standby"], "description": "standby"}, settled=True
    )
    store.create("fr-par-2", {"project_id": project, "description": "spare"}, settled=True)
    a["mac_address"] = store.new_mac("kvm")
    b["mac_address"] = dict(a["mac_address"], id=store.ids.uuid())
    # fr-par-1, where bare-metal private networks are too: one on edge-par, two spares
    edge = next(s["id"] for s in bm.servers["fr-par-1"].values() if s["name"] == "edge-par")
    for body in (
        {"server_id": edge, "description": "edge vip", "reverse": "edge.example.com"},
        {"description": "spare a"},
        {"description": "spare b", "tags": ["failover"]},
    ):
        store.create("fr-par-1", {"project_id": project, **body}, settled=True)


def seed_scale(store: FipStore, rng: random.Random, count: int, zone: str = "fr-par-1") -> None:
    """`count` flexible IPs in fr-par-1: three in four attached to the scale's bare-metal servers
    (at most 64 each), one in ten with a virtual MAC shared with the next IP (a MAC group of two)."""
    servers = list(store.sandbox.baremetal.servers[zone])
    project = store.sandbox.project_id
    per_server: dict[str, int] = {}
    previous: dict[str, Any] | None = None
    for n in range(count):
        sid = servers[n % len(servers)] if servers and n % 4 else None
        grouped = previous is not None and previous.get("mac_address") is not None
        if grouped:
            sid = previous["server_id"]  # type: ignore[index]  # (grouped: previous is not None)
        if sid is not None and per_server.get(sid, 0) >= MAX_PER_SERVER:
            sid, grouped = None, False
        f = store.create(
            zone,
            {"project_id": project, "server_id": sid, "description": f"scale-{n:05d}", "is_ipv6": n % 7 == 0},
            settled=True,
        )
        if sid is not None:
            per_server[sid] = per_server.get(sid, 0) + 1
            if grouped:  # (so `previous` is not None)
                f["mac_address"] = dict(previous["mac_address"], id=store.ids.uuid())  # type: ignore[index]
            elif n % 10 == 1:
                f["mac_address"] = store.new_mac("kvm")
        previous = f if not grouped else None


PRODUCT = SandboxProduct("fip", "/flexible-ip/", FipStore, routes, seed_demo=seed_demo, seed_scale=seed_scale)
