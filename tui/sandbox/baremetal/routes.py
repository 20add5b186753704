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
from ..errors import invalid_arguments, invalid_request, not_found, or_not_found
from ..lifecycle import GONE
from ..routing import Routes
from .state import EVENT, MAX_DESCRIPTION, ZONES, BaremetalStore

ORDERS = ("created_at_asc", "created_at_desc")
Detail = tuple[str, str, str]
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


# what the platform's public client sends beside the spec's fields (BaremetalV1API's requests)
CREATE = {
    "offer_id",
    "organization_id",
    "project_id",
    "name",
    "description",
    "tags",
    "protected",
    "install",
    "option_ids",
    "user_data",
}
UPDATE = {"name", "description", "tags", "protected", "user_data"}
INSTALL = {
    "os_id",
    "hostname",
    "ssh_key_ids",
    "user",
    "password",
    "service_user",
    "service_password",
    "partitioning_schema",
}


def _install(store: BaremetalStore, s: dict[str, Any], body: dict[str, Any], at: str = "") -> list[Detail]:
    """An install's fields (InstallServerRequest, or CreateServerRequestInstall under `install.`)."""
    errs = [(at + k, c, m) for k, c, m in _text(body, "os_id", True) + _text(body, "hostname", True)]
    compatible = {o["id"] for o in store.os_for(s["zone"], s["offer_id"])}
    if body.get("os_id") and body["os_id"] not in compatible:
        errs.append((at + "os_id", "constraint", "this OS cannot be installed on the server's offer"))
    if isinstance(body.get("hostname"), str) and body["hostname"] and not HOSTNAME.match(body["hostname"]):
        errs.append((at + "hostname", "format", "a hostname: letters, digits, dashes and dots"))
    keys = body.get("ssh_key_ids")
    if not isinstance(keys, list) or not keys:
        errs.append((at + "ssh_key_ids", "required", "at least one SSH key ID"))
    elif not all(is_uuid(k) for k in keys):
        errs.append((at + "ssh_key_ids", "format", "SSH key IDs are UUIDs"))
    for key in ("user", "password", "service_user", "service_password"):
        errs += [(at + k, c, m) for k, c, m in _text(body, key, False)]
    if body.get("partitioning_schema") is not None and not isinstance(body["partitioning_schema"], dict):
        errs.append((at + "partitioning_schema", "type", "a partitioning schema: disks, raids, filesystems, zfs"))
    return errs


def _installed(body: dict[str, Any]) -> dict[str, Any]:
    """The server's `install` (ServerInstall): the passwords are not answered."""
    got = {k: body[k] for k in ("os_id", "hostname", "ssh_key_ids", "partitioning_schema") if body.get(k) is not None}
    users = {"user": body.get("user") or "", "service_user": body.get("service_user") or ""}
    return {**got, **users, "status": "to_install"}


def _options(body: dict[str, Any]) -> list[Detail]:
    """`protected`, `option_ids` and `user_data` of a create or an update."""
    errs = []
    if body.get("protected") is not None and not isinstance(body["protected"], bool):
        errs.append(("protected", "type", "protected is a boolean"))
    ids = body.get("option_ids")
    if ids is not None and not (isinstance(ids, list) and all(is_uuid(o) for o in ids)):
        errs.append(("option_ids", "type", "a list of option IDs"))
    if body.get("user_data") is not None and not isinstance(body["user_data"], str):
        errs.append(("user_data", "type", "user_data is text (cloud-init)"))
    return errs


def routes(store: BaremetalStore) -> list[Route]:
    routes = Routes("/baremetal/v1alpha1/zones/{zone}")

    def zone_of(request: Request) -> str:
        return path_zone(request, ZONES, "bare-metal servers")

    def server(request: Request) -> dict[str, Any]:
        return store.get(zone_of(request), request.path_params["sid"])

    def order(request: Request) -> str:
        value = request.query_params.get("order_by") or "created_at_asc"
        if value not in ORDERS:
            raise invalid_arguments(("order_by", "constraint", f"order_by must be one of {', '.join(ORDERS)}"))
        return value

    @routes.get("/offers")
    async def list_offers(request: Request) -> Response:
        zone = zone_of(request)
        return page_page_size(request, "offers", list(store.offers[zone].values()), dict)

    @routes.get("/os")
    async def list_os(request: Request) -> Response:
        zone = zone_of(request)
        offer_id = request.query_params.get("offer_id")
        if offer_id and store.offer(zone, offer_id) is None:
            raise not_found("baremetal_offer", offer_id)
        return page_page_size(request, "os", store.os_for(zone, offer_id), dict)

    @routes.get("/offers/{offer_id}")
    async def one_offer(request: Request) -> Response:  # get_offer
        found = store.offer(zone_of(request), request.path_params["offer_id"])
        if found is None:
            raise not_found("baremetal_offer", request.path_params["offer_id"])
        return JSONResponse(dict(found))

    @routes.get("/os/{os_id}")
    async def one_os(request: Request) -> Response:  # get_os
        zone_of(request)
        found = or_not_found(store.os.get(request.path_params["os_id"]), "baremetal_os", request.path_params["os_id"])
        return JSONResponse(public(found))

    @routes.get("/servers")
    async def list_servers(request: Request) -> Response:
        zone = zone_of(request)
        items = [s for s in store.all() if s["zone"] == zone]
        statuses = request.query_params.getlist("status")
        if statuses:
            items = [s for s in items if s["status"] in statuses]
        items = filtered(items, request.query_params)
        items.sort(key=lambda s: (s["created_at"], s["_seq"]), reverse=order(request) == "created_at_desc")
        return page_page_size(request, "servers", items, public)

    @routes.post("/servers")
    async def create_server(request: Request) -> Response:
        zone = zone_of(request)
        body = await json_body(request)
        errs = check_unknown(body, CREATE) + _text(body, "name", True)
        errs += _text(body, "description", False, MAX_DESCRIPTION)
        errs += _tags(body) + _options(body)
        if not body.get("organization_id") and not body.get("project_id"):
            errs.append(("organization_id", "required", "organization_id is required"))
        offer = store.offer(zone, body.get("offer_id") or "")
        if not body.get("offer_id"):
            errs.append(("offer_id", "required", "offer_id is required"))
        elif offer is None:
            errs.append(("offer_id", "constraint", "no such offer in this zone"))
        elif offer["stock"] == "empty":
            errs.append(("offer_id", "constraint", "this offer is out of stock"))
        install = body.get("install")
        if install is not None and offer is not None:
            if isinstance(install, dict):
                errs += [("install." + k, c, m) for k, c, m in check_unknown(install, INSTALL)]
                errs += _install(store, {"zone": zone, "offer_id": offer["id"]}, install, "install.")
            else:
                errs.append(("install", "type", "an install: os_id, hostname, ssh_key_ids"))
        if errs:
            raise invalid_arguments(*errs)
        made = store.create(zone, body)
        if install is not None:  # installed once delivered
            made["install"] = _installed(install)
            store.timeline.plan(
                made,
                (store.t.install_start, {"install": {"status": "installing"}}),
                (store.t.install, {"install": {"status": "completed"}, EVENT: "installed"}),
            )
        return JSONResponse(public(made))

    routes.read("/servers/{sid}", server, public)

    @routes.patch("/servers/{sid}")
    async def patch_server(request: Request) -> Response:
        s = server(request)
        body = await json_body(request)
        errs = check_unknown(body, UPDATE) + _text(body, "description", False, MAX_DESCRIPTION)
        errs += _tags(body) + _options(body)
        if body.get("name") is not None:
            errs += _text(body, "name", True)
        if errs:
            raise invalid_arguments(*errs)
        return JSONResponse(public(store.collection.patch(s, body, tuple(UPDATE))))

    @routes.delete("/servers/{sid}")
    async def delete_server(request: Request) -> Response:
        s = server(request)
        if s["status"] == "deleting":
            return JSONResponse(public(s))
        if s.get("protected"):  # Server.protected: "the server can not be deleted"
            raise invalid_request("the server is protected: update it with protected false first")
        store.collection.delete_later(s, store.t.delete)
        store.event(s["id"], "delete")
        s["updated_at"] = store.clock.iso()
        return JSONResponse(public(s))

    def power(request: Request, action: str, needs: str, moving: str, settled: str, ping: str) -> Response:
        """Start or stop: only from `needs`, through `moving`, to `settled` after the power delay."""
        s = server(request)
        store.delivered(s)
        if s["status"] != needs:
            raise invalid_arguments(
                ("status", "constraint", f"the server is {s['status']}: only a {needs} server can {action}")
            )
        s["status"] = moving
        store.event(s["id"], action)
        store.plan(s, (store.t.power, {"status": settled, "ping_status": ping}))
        return JSONResponse(public(s))

    @routes.post("/servers/{sid}/start")
    async def start(request: Request) -> Response:
        return power(request, "start", "stopped", "starting", "ready", "ping_status_up")

    @routes.post("/servers/{sid}/stop")
    async def stop(request: Request) -> Response:
        return power(request, "stop", "ready", "stopping", "stopped", "ping_status_down")

    @routes.post("/servers/{sid}/reboot")
    async def reboot(request: Request) -> Response:
        s = server(request)
        store.delivered(s)
        body = await json_body(request)
        boot = body.get("boot_type", "normal")
        errs = check_unknown(body, {"boot_type", "ssh_key_ids"})  # RebootServerRequest: keys for the rescue system
        if boot not in ("normal", "rescue"):
            errs.append(("boot_type", "constraint", "boot_type must be normal or rescue"))
        if s["status"] != "ready":
            errs.append(("status", "constraint", f"the server is {s['status']}: only a ready server reboots"))
        if errs:
            raise invalid_arguments(*errs)
        s["status"], s["ping_status"] = "stopping", "ping_status_down"
        store.event(s["id"], f"reboot ({boot})")
        store.plan(
            s,
            (store.t.power, {"status": "starting", "boot_type": boot}),
            (store.t.power, {"status": "ready", "ping_status": "ping_status_up"}),
        )
        return JSONResponse(public(s))

    @routes.post("/servers/{sid}/install")
    async def install(request: Request) -> Response:
        s = server(request)
        store.delivered(s)
        body = await json_body(request)
        errs = check_unknown(body, INSTALL | {"user_data"}) + _install(store, s, body)
        errs += _options({"user_data": body.get("user_data")})
        if s["status"] != "ready" or (s["install"] or {}).get("status") in ("to_install", "installing"):
            errs.append(("status", "constraint", "the server must be ready and not installing"))
        if errs:
            raise invalid_arguments(*errs)
        s["install"] = _installed(body)
        store.event(s["id"], "install")
        store.plan(
            s,
            (store.t.install_start, {"install": {"status": "installing"}}),
            (store.t.install, {"install": {"status": "completed"}, EVENT: "installed"}),
        )
        return JSONResponse(public(s))

    @routes.get("/servers/{sid}/events")
    async def events(request: Request) -> Response:
        s = server(request)
        items = store.events.get(s["id"], [])
        items = list(reversed(items)) if order(request) == "created_at_desc" else list(items)
        return page_page_size(request, "event", items, dict)

    @routes.route("GET POST DELETE", "/servers/{sid}/remote-access")
    async def remote_access(request: Request) -> Response:
        s = server(request)
        if request.method == "DELETE":
            # (mypy picks `pop`'s overload by the context, refusing the default None)
            store.access_steps.cancel(store.remote.pop(s["id"], None) or {})  # type: ignore[arg-type]
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
        access = {
            "url": f"https://bmc-{s['id'][:8]}.{s['zone']}.example/",
            "login": "admin",
            "password": secrets.token_urlsafe(12),
            "expires_at": store.clock.iso(until),
            "ip": body["ip"],
            "_server": s["id"],
        }
        store.access_steps.cancel(store.remote.get(s["id"]) or {})
        store.remote[s["id"]] = access
        store.access_steps.plan(access, (store.t.remote_access, {GONE: True}))
        store.event(s["id"], "remote access")
        return JSONResponse(public(access))

    @routes.patch("/servers/{sid}/ips/{ip}")
    async def patch_ip(request: Request) -> Response:
        s = server(request)
        ip = next((i for i in s["ips"] if i["id"] == request.path_params["ip"]), None)
        if ip is None:
            raise not_found("baremetal_ip", request.path_params["ip"])
        body = await json_body(request)
        errs = check_unknown(body, {"reverse"})
        reverse = body.get("reverse")
        if reverse is not None and (
            not isinstance(reverse, str) or (reverse and not HOSTNAME.match(reverse.rstrip(".")))
        ):
            errs.append(("reverse", "format", "a host name"))
        if errs:
            raise invalid_arguments(*errs)
        if reverse is not None:
            ip.update(reverse=reverse, reverse_status="pending", reverse_status_message=None)
            store.plan(s, (store.t.reverse, {f"ip:{ip['id']}": {"reverse_status": "active"}}))
        return JSONResponse(dict(ip))

    return routes.table()
