"""Private networks of bare-metal servers (spec 1 §2.9, §4.6; `/baremetal/v2/zones/{zone}/servers/
{server_id}/private-networks`): add, list, replace the set, remove; attaching → attached with
time; at most eight per server; only in the zones that have them (fr-par-1, nl-ams-1)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..collection import matching
from ..core import check_unknown, is_uuid, json_body, page_page_size, path_zone, public
from ..errors import invalid_arguments, not_found
from ..lifecycle import GONE
from ..routing import Routes
from .state import BaremetalStore

PN_ZONES = ("fr-par-1", "nl-ams-1")
MAX_NETWORKS = 8
ATTACH = 5.0


def routes(store: BaremetalStore) -> list[Route]:
    routes = Routes("/baremetal/v2/zones/{zone}")

    def server(request: Request) -> dict[str, Any]:
        return store.get(
            path_zone(request, PN_ZONES, "private networks of bare-metal servers"), request.path_params["sid"]
        )

    def attachments(s: dict[str, Any]) -> dict[str, dict[str, Any]]:
        found = store.networks.setdefault(s["id"], {})
        for a in list(found.values()):
            store.attachment_steps.settle(a)
        return found

    def attach(s: dict[str, Any], pn: str) -> dict[str, Any]:
        found = attachments(s)
        vlan = max([a["vlan"] for a in found.values()] + [3000 + len(s["id"]) % 7 * 100]) + 1
        a = {
            "id": store.ids.uuid(),
            "project_id": store.project_id,
            "server_id": s["id"],
            "private_network_id": pn,
            "vlan": vlan,
            "status": "attaching",
            "created_at": store.clock.iso(),
            "updated_at": store.clock.iso(),
        }
        found[pn] = a
        store.attachment_steps.plan(a, (ATTACH, {"status": "attached"}))
        store.event(s["id"], "private network attached")
        return a

    def check_ids(ids: object, name: str) -> list[tuple[str, str, str]]:
        if not isinstance(ids, list) or not all(is_uuid(i) for i in ids):
            return [(name, "format", "private network IDs are UUIDs")]
        if len(ids) > MAX_NETWORKS:
            return [(name, "constraint", f"a server is in at most {MAX_NETWORKS} private networks")]
        return []

    @routes.get("/servers/{sid}/private-networks")
    async def listing(request: Request) -> Response:
        s = server(request)
        items = sorted(attachments(s).values(), key=lambda a: a["created_at"])
        if (request.query_params.get("order_by") or "").endswith("_desc"):
            items.reverse()
        status = request.query_params.get("status")
        if status:
            items = [a for a in items if a["status"] == status]
        return page_page_size(request, "server_private_networks", items, public)

    @routes.get("/server-private-networks")
    async def zone_listing(request: Request) -> Response:
        """Every attachment of the zone, filtered as the public clients ask (`server_id`,
        `private_network_id`, `project_id`, `organization_id`): how they list a server's networks."""
        zone = path_zone(request, PN_ZONES, "private networks of bare-metal servers")
        q = request.query_params
        items = (
            [a for s in list(store.servers[zone].values()) for a in attachments(s).values()]
            if zone in store.servers
            else []
        )
        items = matching(request, items, "server_id", "private_network_id", "project_id", name=None)
        if q.get("organization_id") and q["organization_id"] != store.organization_id:
            items = []
        items.sort(key=lambda a: a["created_at"], reverse=(q.get("order_by") or "").endswith("_desc"))
        return page_page_size(request, "server_private_networks", items, public)

    @routes.post("/servers/{sid}/private-networks")
    async def add(request: Request) -> Response:
        s = server(request)
        body = await json_body(request)
        pn = body.get("private_network_id")
        errs = check_unknown(body, {"private_network_id", "ipam_ip_ids"})  # the public clients may send IPAM IPs
        if not pn:
            errs.append(("private_network_id", "required", "private_network_id is required"))
        elif not is_uuid(pn):
            errs.append(("private_network_id", "format", "a private network ID (UUID)"))
        found = attachments(s)
        if is_uuid(pn) and pn in found:  # (a list or an object is refused above, and cannot be looked up)
            errs.append(("private_network_id", "constraint", "the server is already in this private network"))
        elif len(found) >= MAX_NETWORKS:
            errs.append(("private_network_id", "constraint", f"a server is in at most {MAX_NETWORKS} private networks"))
        if errs:
            raise invalid_arguments(*errs)
        assert pn is not None  # refused above otherwise
        return JSONResponse(public(attach(s, pn)))

    @routes.put("/servers/{sid}/private-networks")
    async def replace(request: Request) -> Response:
        s = server(request)
        body = await json_body(request)
        ids = body.get("private_network_ids")
        errs = check_ids(ids, "private_network_ids")
        if errs:
            raise invalid_arguments(*errs)
        assert ids is not None  # refused above otherwise
        found = attachments(s)
        for pn in list(found):
            if pn not in ids:
                store.attachment_steps.cancel(found.pop(pn))
        for pn in ids:
            if pn not in found:
                attach(s, pn)
        return JSONResponse({"server_private_networks": [public(a) for a in found.values()]})

    @routes.delete("/servers/{sid}/private-networks/{pn}")
    async def remove(request: Request) -> Response:
        s = server(request)
        found = attachments(s)
        pn = request.path_params["pn"]
        if pn not in found:
            raise not_found("baremetal_server_private_network", pn)
        found[pn]["status"] = "detaching"
        store.attachment_steps.replan(found[pn], (ATTACH, {GONE: True}))
        return Response(status_code=204)

    return routes.table()
