"""The bare-metal HTTP layer (`/baremetal/v1alpha1/zones/{zone}`): thin handlers over `state`."""

from __future__ import annotations

import ipaddress
import re
import secrets
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..collection import filtered
from ..core import check_unknown, is_uuid, json_body, page_page_size, path_zone, public
from ..errors import invalid_arguments, not_found
from ..lifecycle import GONE
from ..routing import route_table
from .state import EVENT, MAX_DESCRIPTION, ZONES, BaremetalStore

ORDERS = ("created_at_asc", "created_at_desc")
HOSTNAME = re.compile(r"^[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$")


def _text(body: dict[str, Any], key: str, required: bool, limit: int | None = None) -> list[tuple[str, str, str]]:
    value = body.get(key)
    if value is None:
        return [(key, "required", f"{key} is required")] if required else []
    if not isinstance(value, str) or (required and not value.strip()):
        return [(key, "format", f"{key} must be a non-empty string")]
    if limit is not None and len(value) > limit:
        return [(key, "constraint", f"{key} must be at most {limit} characters")]
    return []


def _tags(body: dict[str, Any]) -> list[tuple[str, str, str]]:
    tags = body.get("tags")
    if tags is None or (isinstance(tags, list) and all(isinstance(t, str) for t in tags)):
        return []
    return [("tags", "format", "tags must be an array of strings")]


def routes(store: BaremetalStore) -> list[Route]:
    base = "/baremetal/v1alpha1/zones/{zone}"

    def zone_of(request: Request) -> str:
        return path_zone(request, ZONES, "bare-metal servers")

    def server(request: Request) -> dict[str, Any]:
        return store.get(zone_of(request), request.path_params["sid"])

    def order(request: Request) -> str:
        value = request.query_params.get("order_by") or "created_at_asc"
        if value not in ORDERS:
            raise invalid_arguments(("order_by", "constraint", f"order_by must be one of {', '.join(ORDERS)}"))
        return value

    async def list_offers(request: Request) -> Response:
        zone = zone_of(request)
        return page_page_size(request, "offers", list(store.offers[zone].values()), dict)

    async def list_os(request: Request) -> Response:
        zone = zone_of(request)
        offer_id = request.query_params.get("offer_id")
        if offer_id and store.offer(zone, offer_id) is None:
            raise not_found("baremetal_offer", offer_id)
        return page_page_size(request, "os", store.os_for(zone, offer_id), dict)

    async def list_servers(request: Request) -> Response:
        zone = zone_of(request)
        items = [s for s in store.all() if s["zone"] == zone]
        statuses = request.query_params.getlist("status")
        if statuses:
            items = [s for s in items if s["status"] in statuses]
        items = filtered(items, request.query_params)
        items.sort(key=lambda s: (s["created_at"], s["_seq"]), reverse=order(request) == "created_at_desc")
        return page_page_size(request, "servers", items, public)

    async def create_server(request: Request) -> Response:
        zone = zone_of(request)
        body = await json_body(request)
        errs = check_unknown(body, {"offer_id", "organization_id", "project_id", "name", "description", "tags"})
        errs += _text(body, "name", True) + _text(body, "description", False, MAX_DESCRIPTION) + _tags(body)
        if not body.get("organization_id") and not body.get("project_id"):
            errs.append(("organization_id", "required", "organization_id is required"))
        offer = store.offer(zone, body.get("offer_id") or "")
        if not body.get("offer_id"):
            errs.append(("offer_id", "required", "offer_id is required"))
        elif offer is None:
            errs.append(("offer_id", "constraint", "no such offer in this zone"))
        elif offer["stock"] == "empty":
            errs.append(("offer_id", "constraint", "this offer is out of stock"))
        if errs:
            raise invalid_arguments(*errs)
        return JSONResponse(public(store.create(zone, body)))

    async def get_server(request: Request) -> Response:
        return JSONResponse(public(server(request)))

    async def patch_server(request: Request) -> Response:
        s = server(request)
        body = await json_body(request)
        errs = check_unknown(body, {"name", "description", "tags"}) + _text(body, "description", False, MAX_DESCRIPTION) + _tags(body)
        if body.get("name") is not None:
            errs += _text(body, "name", True)
        if errs:
            raise invalid_arguments(*errs)
        return JSONResponse(public(store.collection.patch(s, body, ("name", "description", "tags"))))

    async def delete_server(request: Request) -> Response:
        s = server(request)
        if s["status"] == "deleting":
            return JSONResponse(public(s))
        store.collection.delete_later(s, store.t.delete)
        store.event(s["id"], "delete")
        s["updated_at"] = store.clock.iso()
        return JSONResponse(public(s))

    def power(request: Request, action: str, needs: str, moving: str, settled: str, ping: str) -> Response:
        """Start or stop: only from `needs`, through `moving`, to `settled` after the power delay."""
        s = server(request)
        store.delivered(s)
        if s["status"] != needs:
            raise invalid_arguments(("status", "constraint", f"the server is {s['status']}: only a {needs} server can {action}"))
        s["status"] = moving
        store.event(s["id"], action)
        store.plan(s, (store.t.power, {"status": settled, "ping_status": ping}))
        return JSONResponse(public(s))

    async def start(request: Request) -> Response:
        return power(request, "start", "stopped", "starting", "ready", "ping_status_up")

    async def stop(request: Request) -> Response:
        return power(request, "stop", "ready", "stopping", "stopped", "ping_status_down")

    async def reboot(request: Request) -> Response:
        s = server(request)
        store.delivered(s)
        body = await json_body(request)
        boot = body.get("boot_type", "normal")
        errs = check_unknown(body, {"boot_type"})
        if boot not in ("normal", "rescue"):
            errs.append(("boot_type", "constraint", "boot_type must be normal or rescue"))
        if s["status"] != "ready":
            errs.append(("status", "constraint", f"the server is {s['status']}: only a ready server reboots"))
        if errs:
            raise invalid_arguments(*errs)
        s["status"], s["ping_status"] = "stopping", "ping_status_down"
        store.event(s["id"], f"reboot ({boot})")
        store.plan(s, (store.t.power, {"status": "starting", "boot_type": boot}),
                   (store.t.power, {"status": "ready", "ping_status": "ping_status_up"}))
        return JSONResponse(public(s))

    async def install(request: Request) -> Response:
        s = server(request)
        store.delivered(s)
        body = await json_body(request)
        errs = check_unknown(body, {"os_id", "hostname", "ssh_key_ids"}) + _text(body, "os_id", True) + _text(body, "hostname", True)
        offer = store.offer(s["zone"], s["offer_id"]) or {}
        compatible = {o["id"] for o in store.os_for(s["zone"], offer.get("id"))}
        if body.get("os_id") and body["os_id"] not in compatible:
            errs.append(("os_id", "constraint", "this OS cannot be installed on the server's offer"))
        if isinstance(body.get("hostname"), str) and body["hostname"] and not HOSTNAME.match(body["hostname"]):
            errs.append(("hostname", "format", "a hostname: letters, digits, dashes and dots"))
        keys = body.get("ssh_key_ids")
        if not isinstance(keys, list) or not keys:
            errs.append(("ssh_key_ids", "required", "at least one SSH key ID"))
        elif not all(is_uuid(k) for k in keys):
            errs.append(("ssh_key_ids", "format", "SSH key IDs are UUIDs"))
        if s["status"] != "ready" or (s["install"] or {}).get("status") in ("to_install", "installing"):
            errs.append(("status", "constraint", "the server must be ready and not installing"))
        if errs:
            raise invalid_arguments(*errs)
        s["install"] = {"os_id": body["os_id"], "hostname": body["hostname"], "ssh_key_ids": keys, "status": "to_install"}
        store.event(s["id"], "install")
        store.plan(s, (store.t.install_start, {"install": {"status": "installing"}}),
                   (store.t.install, {"install": {"status": "completed"}, EVENT: "installed"}))
        return JSONResponse(public(s))

    async def events(request: Request) -> Response:
        s = server(request)
        items = store.events.get(s["id"], [])
        items = list(reversed(items)) if order(request) == "created_at_desc" else list(items)
        return page_page_size(request, "event", items, dict)

    async def remote_access(request: Request) -> Response:
        s = server(request)
        if request.method == "DELETE":
            store.access_steps.cancel(store.remote.pop(s["id"], None) or {})
            return Response(status_code=204)
        if request.method == "GET":
            access = store.remote.get(s["id"])
            if access is None or store.access_steps.settle(access):
                raise not_found("baremetal_remote_access", s["id"])
            return JSONResponse(public(access))
        store.delivered(s)
        body = await json_body(request)
        errs = check_unknown(body, {"ip"})
        try:
            ipaddress.ip_address(str(body.get("ip") or ""))
        except ValueError:
            errs.append(("ip", "required" if not body.get("ip") else "format", "the allowed client IP address"))
        if errs:
            raise invalid_arguments(*errs)
        until = store.clock.now() + store.t.remote_access
        access = {"url": f"https://bmc-{s['id'][:8]}.{s['zone']}.example/", "login": "admin", "password": secrets.token_urlsafe(12),
                  "expires_at": store.clock.iso(until), "ip": body["ip"], "_server": s["id"]}
        store.access_steps.cancel(store.remote.get(s["id"]) or {})
        store.remote[s["id"]] = access
        store.access_steps.plan(access, (store.t.remote_access, {GONE: True}))
        store.event(s["id"], "remote access")
        return JSONResponse(public(access))

    async def patch_ip(request: Request) -> Response:
        s = server(request)
        ip = next((i for i in s["ips"] if i["id"] == request.path_params["ip"]), None)
        if ip is None:
            raise not_found("baremetal_ip", request.path_params["ip"])
        body = await json_body(request)
        errs = check_unknown(body, {"reverse"})
        reverse = body.get("reverse")
        if reverse is not None and (not isinstance(reverse, str) or (reverse and not HOSTNAME.match(reverse.rstrip(".")))):
            errs.append(("reverse", "format", "a host name"))
        if errs:
            raise invalid_arguments(*errs)
        if reverse is not None:
            ip.update(reverse=reverse, reverse_status="pending", reverse_status_message=None)
            store.plan(s, (store.t.reverse, {f"ip:{ip['id']}": {"reverse_status": "active"}}))
        return JSONResponse(dict(ip))

    return route_table(
        base,
        ("GET", "/offers", list_offers),
        ("GET", "/os", list_os),
        ("GET", "/servers", list_servers),
        ("POST", "/servers", create_server),
        ("GET", "/servers/{sid}", get_server),
        ("PATCH", "/servers/{sid}", patch_server),
        ("DELETE", "/servers/{sid}", delete_server),
        ("POST", "/servers/{sid}/start", start),
        ("POST", "/servers/{sid}/stop", stop),
        ("POST", "/servers/{sid}/reboot", reboot),
        ("POST", "/servers/{sid}/install", install),
        ("GET", "/servers/{sid}/events", events),
        ("GET POST DELETE", "/servers/{sid}/remote-access", remote_access),
        ("PATCH", "/servers/{sid}/ips/{ip}", patch_ip),
    )
