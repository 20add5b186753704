"""Silicon servers of the sandbox (`/vendorx-silicon/v1alpha1/zones/{zone}`, fr-par-1 and fr-par-3):
spec 1 §2.10, §4.5, §8 and spec/4 "Silicon servers". Servers start, reboot and reinstall with the
clock; none can be deleted before its `deletable_at` (24 h after creation); a deleted server
answers 403, as the platform does."""

from __future__ import annotations

import re
import secrets
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tui.records import record

from ..collection import Collection, page
from ..core import check_unknown, is_uuid, json_body, path_zone, public
from ..errors import invalid_arguments, invalid_request, not_found
from ..lifecycle import Timeline
from ..product_store import ProductStore
from ..registry import SandboxProduct
from ..routing import Routes

if TYPE_CHECKING:
    import random

    from ..app import Sandbox

ZONES = ("fr-par-1", "fr-par-3")
LEASE = 86_400.0
NAME_RULE = re.compile(r"^[A-Za-z0-9 .-]+$")  # spec 1 §2.10: alphanumeric characters, spaces, dots, dashes
TYPES = [
    {
        "name": "M2-L",
        "cpu": {"name": "M2 Pro", "core_count": 12},
        "disk": {"capacity": 1_000_000_000_000, "type": "SSD"},
        "memory": {"capacity": 32_000_000_000, "type": "LPDDR5"},
        "stock": "high_stock",
        "minimum_lease_duration": "86400s",
    },
    {
        "name": "M2-M",
        "cpu": {"name": "M2", "core_count": 8},
        "disk": {"capacity": 512_000_000_000, "type": "SSD"},
        "memory": {"capacity": 16_000_000_000, "type": "LPDDR5"},
        "stock": "low_stock",
        "minimum_lease_duration": "86400s",
    },
    {
        "name": "M1-M",
        "cpu": {"name": "M1", "core_count": 8},
        "disk": {"capacity": 256_000_000_000, "type": "SSD"},
        "memory": {"capacity": 8_000_000_000, "type": "LPDDR4"},
        "stock": "no_stock",
        "minimum_lease_duration": "86400s",
    },
]
# CreateServerRequest and UpdateServerRequest of the public clients (`enable_kext` from the older ones)
CREATE = {
    "name",
    "project_id",
    "type",
    "os_id",
    "enable_vpc",
    "enable_kext",
    "public_bandwidth_bps",
    "commitment_type",
    "runner_configuration",
    "applied_runner_configurations",
}
UPDATE = {
    "name",
    "schedule_deletion",
    "enable_vpc",
    "commitment_type",
    "public_bandwidth_bps",
    "applied_runner_configurations",
}
RUNNER = ("name", "url", "token", "provider")  # RunnerConfiguration
OS = [("Sonoma", "14", ("M2-L", "M2-M", "M1-M")), ("Sequoia", "15", ("M2-L", "M2-M")), ("Ventura", "13", ("M1-M",))]


@record
class Timings:
    start: float = 60.0  # starting → ready
    reboot: float = 30.0  # rebooting → ready
    reinstall: float = 120.0  # reinstalling → ready


class SiliconStore(ProductStore):
    t: Timings

    def __init__(self, sandbox: Sandbox) -> None:
        super().__init__(sandbox, "silicon_timings", Timings)
        # starting, rebooting, reinstalling → ready, stamped when read; a deleted server answers 403
        self.timeline = Timeline(self.clock, stamp_read=True)
        self.collection = Collection("apple_silicon_server", ZONES, self.timeline, forbid_deleted=True)
        self.servers = self.collection.items
        self.deleted = self.collection.deleted
        self.ip_seq = 0
        self.os: list[dict[str, Any]] = [
            {
                "id": self.ids.uuid(),
                "name": n,
                "label": f"macOS {n}",
                "version": v,
                "family": "macOS",
                "compatible_server_types": list(types),
            }
            for n, v, types in OS
        ]

    def create(self, zone: str, name: str, stype: str, age: float = 0.0) -> dict[str, Any]:
        now = self.clock.now() - age
        sid = self.ids.uuid()
        vnc = f"vnc://m1:{secrets.token_urlsafe(12)}@{sid[:8]}.{zone}.silicon.example:5900"  # a password: never seeded
        s: dict[str, Any] = {
            "id": sid,
            "type": stype,
            "name": name,
            "project_id": self.project_id,
            "organization_id": self.organization_id,
            "ip": self.next_ip(),
            "vnc_url": vnc,
            "status": "starting" if age < self.t.start else "ready",
            "created_at": self.clock.iso(now),
            "updated_at": self.clock.iso(now),
            "deletable_at": self.clock.iso(now + LEASE),
            "zone": zone,
            "_deletable": now + LEASE,
            "applied_runner_configuration_ids": [],
        }
        self.timeline.plan(s, (self.t.start, {"status": "ready"}), start=now)
        return self.collection.add(s)

    def next_ip(self) -> str:
        """A public address no other server has had, whatever its zone (one sequence for the store)."""
        self.ip_seq += 1
        return f"62.210.{10 + self.ip_seq // 250}.{self.ip_seq % 250 + 2}"

    def get(self, zone: str, sid: str) -> dict[str, Any]:
        return self.collection.get(zone, sid)

    def busy_for(self, s: dict[str, Any], status: str, seconds: float) -> None:
        s["status"] = status
        self.timeline.replan(s, (seconds, {"status": "ready"}))


def _options(body: dict[str, Any], store: SiliconStore) -> list[tuple[str, str, str]]:
    """The optional fields of a create or an update, checked as the platform types them."""
    errs: list[tuple[str, str, str]] = []
    for key in ("enable_vpc", "enable_kext", "schedule_deletion"):
        if key in body and not isinstance(body[key], bool):
            errs.append((key, "type", f"{key} is a boolean"))
    bps = body.get("public_bandwidth_bps")
    if bps is not None and (isinstance(bps, bool) or not isinstance(bps, int) or bps < 0):
        errs.append(("public_bandwidth_bps", "type", "public_bandwidth_bps is a whole number of bits per second"))
    if body.get("os_id") is not None and not any(o["id"] == body["os_id"] for o in store.os):
        errs.append(("os_id", "constraint", "no such OS"))
    errs += _runners(body)
    commitment = body.get("commitment_type")
    if isinstance(commitment, dict):  # an update wraps it: {"commitment_type": {"commitment_type": …}}
        commitment = commitment.get("commitment_type")
    if commitment is not None and commitment not in ("duration_24h", "renewed_monthly", "none"):
        errs.append(("commitment_type", "constraint", "commitment_type is duration_24h, renewed_monthly or none"))
    return errs


def _runners(body: dict[str, Any]) -> list[tuple[str, str, str]]:
    """CreateServerRequest's `runner_configuration` (a CI runner installed on the server: name, url,
    token, provider) and `applied_runner_configurations` (ids of runner configurations, also sent by
    UpdateServerRequest)."""
    errs = []
    runner = body.get("runner_configuration")
    if runner is not None:
        if not isinstance(runner, dict) or not all(isinstance(runner.get(k), str) and runner[k] for k in RUNNER[:3]):
            errs.append(("runner_configuration", "constraint", "runner_configuration has a name, a url and a token"))
        elif runner.get("provider") not in ("github", "gitlab"):
            errs.append(("runner_configuration.provider", "constraint", "provider is github or gitlab"))
    applied = body.get("applied_runner_configurations")
    if applied is not None:
        ids = applied.get("runner_configuration_ids") if isinstance(applied, dict) else None
        if not isinstance(ids, list) or not all(is_uuid(i) for i in ids):
            errs.append(("applied_runner_configurations.runner_configuration_ids", "type", "a list of UUIDs"))
    return errs


def _apply(server: dict[str, Any], body: dict[str, Any], store: SiliconStore) -> None:
    if "enable_vpc" in body:
        server["vpc_status"] = "vpc_enabled" if body["enable_vpc"] else "vpc_disabled"
    if body.get("public_bandwidth_bps") is not None:
        server["public_bandwidth_bps"] = body["public_bandwidth_bps"]
    if body.get("os_id"):
        server["os"] = next(o for o in store.os if o["id"] == body["os_id"])
    if body.get("schedule_deletion") is not None:
        server["deletion_scheduled"] = body["schedule_deletion"]
    if body.get("enable_kext") is not None:  # the server answers it as `kext_enabled`
        server["kext_enabled"] = body["enable_kext"]
    if body.get("runner_configuration") is not None:
        server["runner_configuration"] = {k: body["runner_configuration"][k] for k in RUNNER}
    if body.get("applied_runner_configurations") is not None:  # answered as `applied_runner_configuration_ids`
        ids = body["applied_runner_configurations"]["runner_configuration_ids"]
        server["applied_runner_configuration_ids"] = list(ids)


def routes(store: SiliconStore) -> list[Route]:
    routes = Routes("/vendorx-silicon/v1alpha1/zones/{zone}")

    def zone_of(request: Request) -> str:
        return path_zone(request, ZONES, "silicon servers")

    def server(request: Request) -> dict[str, Any]:
        return store.get(zone_of(request), request.path_params["sid"])

    def check_name(body: dict[str, Any], required: bool) -> list[tuple[str, str, str]]:
        name = body.get("name")
        if name is None:
            return [("name", "required", "name is required")] if required else []
        if not isinstance(name, str) or not NAME_RULE.match(name):
            return [("name", "format", "only alphanumeric characters, spaces, dots and dashes")]
        return []

    @routes.get("/server-types")
    async def types(request: Request) -> Response:
        zone_of(request)
        return JSONResponse({"server_types": TYPES})

    @routes.get("/server-type/{name}")
    async def one_type(request: Request) -> Response:
        found = next((t for t in TYPES if t["name"] == request.path_params["name"]), None)
        if found is None:
            raise not_found("apple_silicon_server_type", request.path_params["name"])
        return JSONResponse(found)

    @routes.get("/os")
    async def list_os(request: Request) -> Response:
        zone_of(request)
        stype = request.query_params.get("server_type")
        items = [o for o in store.os if not stype or stype in o["compatible_server_types"]]
        return page(request, "os", items, dict)

    @routes.get("/os/{os_id}")
    async def one_os(request: Request) -> Response:
        zone_of(request)
        found = next((o for o in store.os if o["id"] == request.path_params["os_id"]), None)
        if found is None:
            raise not_found("apple_silicon_os", request.path_params["os_id"])
        return JSONResponse(found)

    @routes.get("/servers")
    async def listing(request: Request) -> Response:
        zone = zone_of(request)
        items = [store.get(zone, sid) for sid in list(store.servers[zone])]
        return page(request, "servers", sorted(items, key=lambda s: s["created_at"]), public)

    @routes.post("/servers")
    async def create(request: Request) -> Response:
        zone = zone_of(request)
        body = await json_body(request)
        errs = check_unknown(body, CREATE)
        errs += check_name(body, True) + _options(body, store)
        stype = next((t for t in TYPES if t["name"] == body.get("type")), None)
        if not body.get("type"):
            errs.append(("type", "required", "type is required"))
        elif stype is None:
            errs.append(("type", "constraint", "type must be one of M2-L, M2-M, M1-M"))
        elif stype["stock"] == "no_stock":
            errs.append(("type", "constraint", "no stock for this type"))
        if errs:
            raise invalid_arguments(*errs)
        made = store.create(zone, body["name"], body["type"])
        _apply(made, body, store)
        return JSONResponse(public(made))

    routes.read("/servers/{sid}", server, public)

    @routes.patch("/servers/{sid}")
    async def patch(request: Request) -> Response:
        s = server(request)
        body = await json_body(request)
        errs = check_unknown(body, UPDATE)
        errs += check_name(body, False) + _options(body, store)
        if errs:
            raise invalid_arguments(*errs)
        if body.get("name"):
            s["name"], s["updated_at"] = body["name"], store.clock.iso()
        _apply(s, body, store)
        return JSONResponse(public(s))

    @routes.delete("/servers/{sid}")
    async def delete(request: Request) -> Response:
        s = server(request)
        if store.clock.now() < s["_deletable"]:
            raise invalid_request(f"server cannot be deleted before {s['deletable_at']}")
        store.collection.remove(s)
        return Response(status_code=204)

    @routes.post("/servers/{sid}/reboot")
    async def reboot(request: Request) -> Response:
        s = server(request)
        if s["status"] != "ready":
            raise invalid_arguments(("status", "constraint", f"the server is {s['status']}"))
        store.busy_for(s, "rebooting", store.t.reboot)
        return JSONResponse(public(s))

    @routes.post("/servers/{sid}/reinstall")
    async def reinstall(request: Request) -> Response:
        s = server(request)
        body = await json_body(request)
        os_id = body.get("os_id")
        # what the public clients send (ReinstallServerRequest): `enable_kext` always, `os_id` when given
        errs = check_unknown(body, {"os_id", "enable_kext"})
        if "enable_kext" in body and not isinstance(body["enable_kext"], bool):
            errs.append(("enable_kext", "type", "enable_kext is a boolean"))
        if os_id is not None:
            found = next((o for o in store.os if o["id"] == os_id), None)
            if found is None or s["type"] not in found["compatible_server_types"]:
                errs.append(("os_id", "constraint", "this OS does not run on the server's type"))
        if s["status"] != "ready":
            errs.append(("status", "constraint", f"the server is {s['status']}"))
        if errs:
            raise invalid_arguments(*errs)
        store.busy_for(s, "reinstalling", store.t.reinstall)
        _apply(s, {k: v for k, v in body.items() if k in ("os_id", "enable_kext")}, store)
        return JSONResponse(public(s))

    return routes.table()


def seed_demo(store: SiliconStore, rng: random.Random) -> None:
    """One server still inside its 24 hours, one past them, in each zone of the product."""
    store.create("fr-par-1", "ios-build-01", "M2-L", age=6 * 3600)
    store.create("fr-par-1", "ios-build-02", "M2-M", age=3 * 86_400)
    store.create("fr-par-3", "xcode-ci", "M2-L", age=0.0)


PRODUCT = SandboxProduct("silicon", "/vendorx-silicon/", SiliconStore, routes, seed_demo=seed_demo)
