"""Instance routes for servers: CRUD, actions, types, compatible types, volumes attached by PATCH
(spec 1 §4.2, spec/4 "Instance"); user data and private NICs are in `server_parts`."""

from __future__ import annotations

from typing import Any, cast

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .. import catalog
from ..core import is_uuid, json_body, page_per_page
from ..errors import invalid_arguments, invalid_request, permissions_denied
from ..routing import Routes
from . import server_parts
from .actions import run_action
from .ips import set_public_ips
from .server_checks import (
    apply_volumes,
    compatible_types,
    group_errors,
    key_id_errors,
    nic_id_errors,
    public_ip_ids,
    ref_id,
)
from .server_state import ALLOWED_ACTIONS, hostname, policy_respected
from .state import InstanceStore
from .validation import (
    OWNER,
    check_bool,
    check_choice,
    check_name,
    check_tags,
    check_unknown,
    default_volumes,
    validate_volumes,
    volume_templates,
)
from .zones import zone_of

ACTIONS = ("poweron", "poweroff", "stop_in_place", "reboot", "terminate", "backup", "enable_routed_ip")
SERVER_FIELDS = {
    "name",
    "project",
    "organization",
    "commercial_type",
    "image",
    "enable_ipv6",
    "volumes",
    "tags",
    "dynamic_ip_required",
    "routed_ip_enabled",
    "boot_type",
    "security_group",
    "placement_group",
    "public_ip",
    "public_ips",
    "protected",
    "admin_password_encryption_ssh_key_id",
}
PATCH_COPIED = (  # the fields a PATCH sets as they are given, in this order
    "name",
    "tags",
    "commercial_type",
    "enable_ipv6",
    "protected",
    "dynamic_ip_required",
    "boot_type",
    "routed_ip_enabled",
    "admin_password_encryption_ssh_key_id",
)
# UpdateServerRequest's fields
PATCH_FIELDS = {*PATCH_COPIED, "volumes", "security_group", "placement_group", "public_ips", "private_nics"}
TYPE_NAME = "commercial_type must be a commercial type name such as DEV1-S; see /products/servers"


def routes(store: InstanceStore) -> list[Route]:
    routes = Routes("/instance/v1/zones/{zone}")

    def server_of(request: Request) -> tuple[str, dict[str, Any]]:
        zone = zone_of(store, request)
        return zone, store.get_server(zone, request.path_params["sid"])

    @routes.get("/servers")
    async def list_servers(request: Request) -> Response:
        zone = zone_of(store, request)
        items = store.server_list(
            zone, {k: v for k, v in request.query_params.items() if k not in ("page", "per_page")}
        )
        return page_per_page(request, "servers", items, store.encoded)

    @routes.post("/servers")
    async def create_server(request: Request) -> Response:
        zone = zone_of(store, request)
        body = {k: v for k, v in (await json_body(request)).items() if v is not None}  # null: not given
        if "volumes" in body:
            body["volumes"] = volume_templates(body["volumes"])
        errs = check_unknown(body, SERVER_FIELDS)
        if "name" in body:
            errs += check_name(body["name"])
        project = body.get("project")
        if project is None and body.get("organization") is None:
            errs.append(("project", "required", "required key not provided"))
        elif project is not None and not is_uuid(project):
            errs.append(("project", "format", "project must be a UUID"))
        ctype_name = body.get("commercial_type")
        ctype = None
        if ctype_name is None:
            errs.append(("commercial_type", "required", "required key not provided"))
        elif not isinstance(ctype_name, str):
            errs.append(("commercial_type", "format", TYPE_NAME))
        elif ctype_name not in store.types:
            errs.append(
                ("commercial_type", "constraint", f"unknown commercial type {ctype_name!r}; see /products/servers")
            )
        else:
            ctype = store.types[ctype_name]
        image = None
        image_ref = body.get("image")
        if image_ref is None:
            vols = body.get("volumes")
            if not (
                isinstance(vols, dict)
                and isinstance(vols.get("0"), dict)
                and ({"base_snapshot", "id"} & set(vols["0"]))
            ):
                errs.append(
                    ("image", "required", "an image label or ID is required unless volume 0 comes from a snapshot")
                )
        elif not isinstance(image_ref, str) or (image := store.resolve_image(zone, image_ref)) is None:
            errs.append(("image", "constraint", "unknown image label or ID in this zone; see /images"))
        errs += check_bool(body, "enable_ipv6", "dynamic_ip_required", "routed_ip_enabled", "protected")
        if "tags" in body:
            errs += check_tags(body["tags"])
        errs += check_choice(body, "boot_type", ("local", "rescue"))
        if "volumes" in body:
            errs += validate_volumes(store, zone, body["volumes"], ctype)
        errs += key_id_errors(body)
        ip_ids, ip_errs = public_ip_ids(store, zone, body)
        errs += ip_errs
        sg = ref_id(body.get("security_group"))
        if sg is not None:
            errs += group_errors(store.security_groups[zone], "security_group", sg, "security group")
        pg = ref_id(body.get("placement_group"))
        if pg is not None:
            errs += group_errors(store.placement_groups[zone], "placement_group", pg, "placement group")
        if errs:
            raise invalid_arguments(*errs)
        if project is not None and project != store.project:
            raise permissions_denied("write", "server")
        assert ctype is not None and ctype_name is not None
        if image is not None and image["state"] != "available":
            raise invalid_request(f"image {image['name']} is {image['state']}")
        if image is not None and image["arch"] != ctype["arch"]:
            raise invalid_request(
                f"image arch {image['arch']} is not compatible with commercial type {ctype_name} ({ctype['arch']})"
            )
        # (an image is found only for an `image_ref` that is a string)
        volumes = body.get("volumes") or (
            default_volumes(store, zone, cast(str, image_ref), image, ctype) if image else {}
        )
        for key, vol in list(volumes.items()):
            if "id" in vol:
                if store.volumes[zone][vol["id"]]["server"]:
                    raise invalid_request(f"volume {vol['id']} is already attached to a server")
                continue
            if "size" not in vol:
                snap = store.snapshots[zone].get(vol.get("base_snapshot") or "")
                vol = {
                    **vol,
                    "size": snap["size"] if snap else (image["root_volume"]["size"] if image else 10 * catalog.GB),
                }
            vol = {k: v for k, v in vol.items() if k not in OWNER}
            volumes[key] = {**vol, "volume_type": vol.get("volume_type", "b_ssd")}
        for vtype in ("l_ssd", "b_ssd", "sbs_volume"):
            store.check_quota(
                vtype, sum(v["size"] for v in volumes.values() if "id" not in v and v["volume_type"] == vtype)
            )
        name = body.get("name") or f"srv-{store.ids.uuid()[:8]}"
        server = store.add_server(
            zone,
            name,
            ctype_name,
            image or {},
            tags=body.get("tags"),
            volumes=volumes,
            enable_ipv6=body.get("enable_ipv6", False),
            dynamic_ip_required=body.get("dynamic_ip_required", True),
        )
        if body.get("boot_type"):
            server["boot_type"] = body["boot_type"]
        if sg is not None:
            server["security_group"] = sg
        if pg is not None:
            server["placement_group"] = pg
        server["protected"] = body.get("protected", False)
        server["routed_ip_enabled"] = body.get("routed_ip_enabled", True)
        server["admin_password_encryption_ssh_key_id"] = body.get("admin_password_encryption_ssh_key_id") or None
        if ip_ids:
            set_public_ips(store, zone, server, ip_ids)
        store._touch(zone, server["id"])
        return JSONResponse({"server": store.render(server)}, status_code=201)

    @routes.get("/servers/{sid}")
    async def get_server(request: Request) -> Response:
        zone, server = server_of(request)
        return JSONResponse({"server": store.render(server)})

    @routes.patch("/servers/{sid}")
    async def patch_server(request: Request) -> Response:
        zone, server = server_of(request)
        body = await json_body(request)
        for key in ("public_ips", "private_nics"):  # repeated fields: empty is their default, not asked
            if body.get(key) == []:
                del body[key]
        if "volumes" in body:
            body["volumes"] = volume_templates(body["volumes"])
        errs = [(k, "unknown", "this field cannot be updated") for k in sorted(set(body) - PATCH_FIELDS)]
        if "name" in body:
            errs += check_name(body["name"])
        if "tags" in body:
            errs += check_tags(body["tags"])
        errs += check_bool(body, "enable_ipv6", "protected", "dynamic_ip_required", "routed_ip_enabled")
        errs += key_id_errors(body)
        ip_ids, ip_errs = public_ip_ids(store, zone, {"public_ips": body.get("public_ips")}, server["id"])
        errs += ip_errs + nic_id_errors(store, zone, server, body.get("private_nics"))
        if body.get("commercial_type") is not None and not isinstance(body["commercial_type"], str):
            errs.append(("commercial_type", "format", TYPE_NAME))
        elif "commercial_type" in body and body["commercial_type"] not in store.types:
            errs.append(("commercial_type", "constraint", "unknown commercial type"))
        errs += check_choice(body, "boot_type", ("local", "rescue"))
        sg = ref_id(body.get("security_group")) if "security_group" in body else None
        if "security_group" in body:
            errs += group_errors(store.security_groups[zone], "security_group", sg, "security group")
        pg = ref_id(body.get("placement_group")) if "placement_group" in body else None
        if pg is not None:
            errs += group_errors(store.placement_groups[zone], "placement_group", pg, "placement group")
        if errs:
            raise invalid_arguments(*errs)
        ctype = body.get("commercial_type")
        if ctype is not None and ctype != server["commercial_type"]:
            if server["state"] != "stopped":
                raise invalid_request("instance should be powered off to change its commercial type")
            if ctype not in compatible_types(store, server):
                raise invalid_request(
                    f"{ctype} is not compatible with this server; see /servers/{server['id']}/compatible-types"
                )
        if pg is not None and pg != server["placement_group"]:
            group = store.placement_groups[zone][pg]
            members = 1 + sum(1 for s in store.servers[zone].values() if s["placement_group"] == pg)
            if group["policy_mode"] == "enforced" and not policy_respected(group, members):
                raise invalid_request(f"an enforced {group['policy_type']} group cannot hold {members} servers")
        if "volumes" in body:
            apply_volumes(store, zone, server, body["volumes"])
        if ip_ids:
            set_public_ips(store, zone, server, ip_ids)
        for key in PATCH_COPIED:
            if key in body:
                server[key] = body[key]
        if "security_group" in body:
            server["security_group"] = sg
        if "placement_group" in body:
            server["placement_group"] = pg
        if "name" in body:
            server["hostname"] = hostname(body["name"])
            for ref in server["volumes"].values():
                vol = store.volumes[zone].get(ref["id"])
                if vol is not None:
                    vol["server"] = {"id": server["id"], "name": body["name"]}
        store.server_changed(zone, server)
        return JSONResponse({"server": store.render(server)})

    @routes.delete("/servers/{sid}")
    async def delete_server(request: Request) -> Response:
        zone, server = server_of(request)
        if server["state"] != "stopped":
            raise invalid_request("instance should be powered off")
        if server.get("protected"):
            raise invalid_request("server is protected: unset protection before deleting it")
        store.remove_server(zone, server, keep_volumes=False)
        return Response(status_code=204)

    @routes.get("/servers/{sid}/action")
    async def get_actions(request: Request) -> Response:
        _, server = server_of(request)
        return JSONResponse({"actions": ALLOWED_ACTIONS.get(server["state"], [])})

    @routes.post("/servers/{sid}/action")
    async def post_action(request: Request) -> Response:
        zone, server = server_of(request)
        body = await json_body(request)
        action = body.get("action") or "poweron"  # ServerActionRequest's default
        if action not in ACTIONS:
            raise invalid_arguments(("action", "constraint", f"action must be one of {', '.join(ACTIONS)}"))
        unknown = set(body) - {"action", "name", "volumes", "disable_ipv6"}
        if unknown:
            raise invalid_arguments(*[(k, "unknown", "unknown field") for k in sorted(unknown)])
        errs = check_bool(body, "disable_ipv6")
        if body.get("disable_ipv6") and action != "enable_routed_ip":
            errs.append(("disable_ipv6", "constraint", "disable_ipv6 goes with the enable_routed_ip action"))
        if body.get("volumes") and action != "backup":
            errs.append(("volumes", "constraint", "volumes go with the backup action"))
        if errs:
            raise invalid_arguments(*errs)
        task = run_action(store, zone, server, action, body)
        return JSONResponse({"task": task}, status_code=202)

    @routes.get("/servers/{sid}/compatible-types")
    async def get_compatible(request: Request) -> Response:
        _, server = server_of(request)
        return JSONResponse({"compatible_types": compatible_types(store, server)})

    @routes.get("/products/servers")
    async def products_servers(request: Request) -> Response:
        zone_of(store, request)
        return JSONResponse({"servers": store.types})

    @routes.get("/products/servers/availability")
    async def products_availability(request: Request) -> Response:
        zone = zone_of(store, request)
        scarce = {"GP1-S": "scarce", "GPU-3070-S": "shortage" if zone != "fr-par-2" else "scarce"}
        return JSONResponse(
            {"servers": {name: {"availability": scarce.get(name, "available")} for name in store.types}}
        )

    return routes.table() + server_parts.routes(store, server_of)
