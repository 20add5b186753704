"""Instance routes for what hangs off a server: user data (a key/value store of raw bytes, text/plain)
and private NICs (spec 1 §4.2, spec/4 "Instance")."""

from __future__ import annotations

from typing import Any, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..core import checked_body, is_uuid, json_body, page_per_page
from ..errors import already_exists, invalid_arguments, not_found, or_not_found
from ..routing import Routes
from .listing import owned
from .state import InstanceStore
from .validation import check_tags, check_unknown
from .zones import encode

USER_DATA_MAX = 64 * 1024
USER_DATA_KEY_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")


def routes(store: InstanceStore, server_of: Callable[[Request], tuple[str, dict[str, Any]]]) -> list[Route]:
    routes = Routes("/instance/v1/zones/{zone}")

    # ---- user data: a key/value store per server; values are raw bytes (text/plain) ------------
    def user_key(request: Request) -> str:
        key = request.path_params["key"]
        if not key or len(key) > 128 or set(key) - USER_DATA_KEY_CHARS:
            raise invalid_arguments(
                ("key", "format", "keys are letters, digits, dots, dashes and underscores (at most 128)")
            )
        return key

    @routes.get("/servers/{sid}/user_data")
    async def list_user_data(request: Request) -> Response:
        _, server = server_of(request)
        return JSONResponse({"user_data": sorted(store.user_data.get(server["id"], {}))})

    @routes.get("/servers/{sid}/user_data/{key}")
    async def get_user_data(request: Request) -> Response:
        _, server = server_of(request)
        key = user_key(request)
        value = or_not_found(store.user_data.get(server["id"], {}).get(key), "instance_user_data", key)
        return Response(value, media_type="text/plain")

    @routes.patch("/servers/{sid}/user_data/{key}")
    async def set_user_data(request: Request) -> Response:
        _, server = server_of(request)
        key = user_key(request)
        value = await request.body()
        if len(value) > USER_DATA_MAX:
            raise invalid_arguments(("user_data", "constraint", f"a value is at most {USER_DATA_MAX} bytes"))
        store.user_data.setdefault(server["id"], {})[key] = value
        return Response(status_code=204)

    @routes.delete("/servers/{sid}/user_data/{key}")
    async def delete_user_data(request: Request) -> Response:
        _, server = server_of(request)
        key = user_key(request)
        if store.user_data.get(server["id"], {}).pop(key, None) is None:
            raise not_found("instance_user_data", key)
        return Response(status_code=204)

    # ---- private NICs: one per private network per server -------------------------------------
    def nic_of(request: Request, zone: str, server: dict[str, Any]) -> dict[str, Any]:
        nic = store.nics[zone].get(request.path_params["nid"])
        if nic is None or nic["server_id"] != server["id"]:
            raise not_found("instance_private_nic", request.path_params["nid"])
        return nic

    @routes.get("/servers/{sid}/private_nics")
    async def list_nics(request: Request) -> Response:
        zone, server = server_of(request)
        items = owned([n for n in store.nics[zone].values() if n["server_id"] == server["id"]], request.query_params)
        return page_per_page(request, "private_nics", items, encode)

    @routes.post("/servers/{sid}/private_nics")
    async def create_nic(request: Request) -> Response:
        zone, server = server_of(request)
        body = await json_body(request)
        errs = check_unknown(body, {"private_network_id", "tags", "ip_ids", "ipam_ip_ids"})
        pn = body.get("private_network_id")
        if pn is None:
            errs.append(("private_network_id", "required", "required key not provided"))
        elif not is_uuid(pn):
            errs.append(("private_network_id", "format", "private_network_id must be a UUID"))
        if "tags" in body:
            errs += check_tags(body["tags"])
        if errs:
            raise invalid_arguments(*errs)
        if any(n["server_id"] == server["id"] and n["private_network_id"] == pn for n in store.nics[zone].values()):
            raise already_exists("instance_private_nic", "a server has one NIC per private network")
        rng = store.ids.rng
        nic = {
            "id": store.ids.uuid(),
            "server_id": server["id"],
            "private_network_id": pn,
            "mac_address": "02:00:00:%02x:%02x:%02x" % (rng.randrange(256), rng.randrange(256), rng.randrange(256)),
            "state": "syncing",
            "tags": body.get("tags", []),
            "creation_date": store.clock.iso(),
            "modification_date": store.clock.iso(),
            "zone": zone,
        }
        store.nics[zone][nic["id"]] = nic
        store.server_changed(zone, server)
        store.nic_steps.plan(nic, (store.timings.nic, {"state": "available"}))
        return JSONResponse({"private_nic": nic}, status_code=201)

    @routes.get("/servers/{sid}/private_nics/{nid}")
    async def get_nic(request: Request) -> Response:
        zone, server = server_of(request)
        return JSONResponse({"private_nic": nic_of(request, zone, server)})

    @routes.patch("/servers/{sid}/private_nics/{nid}")
    async def patch_nic(request: Request) -> Response:
        zone, server = server_of(request)
        nic = nic_of(request, zone, server)
        body = await checked_body(request, {"tags"}, lambda body: check_tags(body["tags"]) if "tags" in body else [])
        nic.update(body)
        store.stamp(nic)
        store._touch(zone, server["id"])
        return JSONResponse(nic)  # the bare NIC, as the public clients read a PATCH (unlike create and get)

    @routes.delete("/servers/{sid}/private_nics/{nid}")
    async def delete_nic(request: Request) -> Response:
        zone, server = server_of(request)
        nic = nic_of(request, zone, server)
        store.nic_steps.cancel(store.nics[zone].pop(nic["id"]))
        store.server_changed(zone, server)
        return Response(status_code=204)

    return routes.table()
