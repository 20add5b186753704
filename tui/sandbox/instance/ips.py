"""Instance flexible IPs (spec 1 §2.4, §4.2; spec/4 "Instance"): the routes, and attaching and
detaching, which the server routes use too (a server is created with, or updated to, its IPs)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..core import is_uuid, json_body, page_per_page
from ..errors import invalid_arguments, or_not_found
from ..routing import Routes
from .listing import owned
from .state import InstanceStore
from .validation import (
    Errors,
    check_choice,
    check_project,
    check_reverse,
    check_tags,
    check_unknown,
    refuse_creation,
)
from .zones import encode, zone_of


def ip_of(store: InstanceStore, zone: str, ref: str) -> dict[str, Any]:
    """An IP by its id or its address."""
    ips = store.ips[zone]
    return or_not_found(
        ips.get(ref) or next((i for i in ips.values() if i["address"] == ref), None), "instance_ip", ref
    )


def attach(store: InstanceStore, zone: str, ip: dict[str, Any], server: dict[str, Any], replace: bool = True) -> None:
    """Spec 1 §2.4: attaching replaces the server's previous public IP (its connections are cut),
    unless it is on the routed stack and already has a flexible IP (or `replace` is false)."""
    current = (ip.get("server") or {}).get("id")
    if current == server["id"]:
        return
    if current:
        detach(store, zone, ip)
    keep_others = not replace or (server.get("routed_ip_enabled") and server["flexible_ips"])
    if not keep_others:
        for old in server["flexible_ips"]:
            if old in store.ips[zone]:
                store.ips[zone][old]["server"] = None
                store.ips[zone][old]["state"] = "detached"
        server["flexible_ips"] = []
    server["dynamic_ips"] = []
    server["flexible_ips"].append(ip["id"])
    ip["server"] = {"id": server["id"], "name": server["name"]}
    ip["state"] = "pending"
    store.server_changed(zone, server)
    store.ip_steps.plan(ip, (store.timings.ip, {"state": "attached"}), queue=False)


def detach(store: InstanceStore, zone: str, ip: dict[str, Any]) -> None:
    server = store.servers[zone].get((ip.get("server") or {}).get("id", ""))
    if server is not None:
        server["flexible_ips"] = [i for i in server["flexible_ips"] if i != ip["id"]]
        store.server_changed(zone, server)
    ip["server"] = None
    ip["state"] = "detached"


def check_ip_ids(store: InstanceStore, zone: str, ids: object, arg: str, server_id: str | None = None) -> Errors:
    """A list of flexible IP ids of the zone, none attached to another server than `server_id`."""
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        return [(arg, "format", f"{arg} is a list of flexible IP ids")]
    for i, ref in enumerate(ids):
        ip = store.ips[zone].get(ref) if is_uuid(ref) else None
        if ip is None:
            return [(f"{arg}.{i}", "constraint", "no such flexible IP in this zone")]
        holder = (ip.get("server") or {}).get("id")
        if holder and holder != server_id:
            return [(f"{arg}.{i}", "constraint", f"IP {ip['address']} is attached to {ip['server']['name']}")]
    return []


def set_public_ips(store: InstanceStore, zone: str, server: dict[str, Any], ids: list[str]) -> None:
    """The server's flexible IPs become `ids` (checked by `check_ip_ids`): the others are detached."""
    for old in [i for i in server["flexible_ips"] if i not in ids and i in store.ips[zone]]:
        detach(store, zone, store.ips[zone][old])
    for ref in ids:
        if ref not in server["flexible_ips"]:
            attach(store, zone, store.ips[zone][ref], server, replace=False)


def routes(store: InstanceStore) -> list[Route]:
    routes = Routes("/instance/v1/zones/{zone}")

    def new_address(kind: str) -> str:
        rng = store.ids.rng
        if kind == "routed_ipv6":
            return f"2001:bc8:{rng.randrange(0x1000, 0xFFFF):x}:{rng.randrange(0x1000, 0xFFFF):x}::1"
        return f"163.172.{rng.randrange(1, 254)}.{rng.randrange(1, 254)}"

    def server_ref(zone: str, value: object) -> dict[str, Any] | None:
        sid = value.get("id") if isinstance(value, dict) else value
        return store.servers[zone].get(sid) if isinstance(sid, str) else None

    @routes.get("/ips")
    async def list_ips(request: Request) -> Response:
        zone = zone_of(store, request)
        items = sorted(store.ips[zone].values(), key=lambda i: (i["address"], i["id"]))
        q = request.query_params
        if kind := q.get("type"):
            items = [i for i in items if i["type"] == kind]
        items = owned(items, q, name_of="address")  # ListIpsRequest.name: a part of the address
        return page_per_page(request, "ips", items, encode)

    @routes.post("/ips")
    async def create_ip(request: Request) -> Response:
        zone = zone_of(store, request)
        body = await json_body(request)
        errs = check_unknown(body, {"project", "organization", "type", "tags", "server"})
        errs += check_project(body)
        errs += check_choice(body, "type", ("routed_ipv4", "routed_ipv6"))
        if "tags" in body:
            errs += check_tags(body["tags"])
        server = None
        if body.get("server") is not None and (server := server_ref(zone, body["server"])) is None:
            errs.append(("server", "constraint", "no such server in this zone"))
        refuse_creation(store, body, errs, "ip")
        kind = body.get("type", "routed_ipv4")
        ip = {
            "id": store.ids.uuid(),
            "address": new_address(kind),
            "reverse": None,
            "server": None,
            "organization": store.organization,
            "project": store.project,
            "zone": zone,
            "type": kind,
            "state": "detached",
            "tags": body.get("tags", []),
            "prefix": None,
        }
        store.ips[zone][ip["id"]] = ip
        if server is not None:
            attach(store, zone, ip, server)
        return JSONResponse({"ip": ip}, status_code=201)

    @routes.get("/ips/{ip}")
    async def get_ip(request: Request) -> Response:
        zone = zone_of(store, request)
        return JSONResponse({"ip": ip_of(store, zone, request.path_params["ip"])})

    @routes.patch("/ips/{ip}")
    async def patch_ip(request: Request) -> Response:
        zone = zone_of(store, request)
        ip = ip_of(store, zone, request.path_params["ip"])
        body = await json_body(request)
        errs = check_unknown(body, {"reverse", "server", "tags", "type"})
        if "reverse" in body:
            errs += check_reverse(body["reverse"])
        if "tags" in body:
            errs += check_tags(body["tags"])
        if "type" in body and body["type"] != ip["type"]:
            errs.append(("type", "constraint", "the type of an IP cannot change"))
        server = None
        if body.get("server") is not None and (server := server_ref(zone, body["server"])) is None:
            errs.append(("server", "constraint", "no such server in this zone"))
        if errs:
            raise invalid_arguments(*errs)
        if "server" in body:
            if server is None and ip.get("server"):
                detach(store, zone, ip)
            elif server is not None:
                attach(store, zone, ip, server)
        for key in ("reverse", "tags"):
            if key in body:
                ip[key] = body[key]
        if ip.get("server") and ip["server"]["id"] in store.servers[zone]:
            store._touch(zone, ip["server"]["id"])
        return JSONResponse({"ip": ip})

    @routes.delete("/ips/{ip}")
    async def delete_ip(request: Request) -> Response:
        zone = zone_of(store, request)
        ip = ip_of(store, zone, request.path_params["ip"])
        if ip.get("server"):
            detach(store, zone, ip)
        del store.ips[zone][ip["id"]]
        return Response(status_code=204)

    return routes.table()
