"""Instance routes for the network: flexible IPs, security groups and their rules (spec 1 §2.4,
§2.6, §4.2; spec/4 "Instance")."""

from __future__ import annotations

import ipaddress
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..core import is_uuid, json_body, page_per_page
from ..routing import route_table
from ..errors import invalid_arguments, invalid_request, not_found, permissions_denied
from ..catalog import DEFAULT_RULES
from .listing import owned, query_bool
from .state import InstanceStore, still_in_use
from .validation import (
    Errors, check_bool, check_choice, check_ip_range, check_name, check_project, check_reverse, check_tags, check_unknown,
)
from .zones import encode, zone_of

RULE_FIELDS = {"protocol", "direction", "action", "ip_range", "dest_port_from", "dest_port_to", "position", "editable", "id", "zone"}
SG_FIELDS = {
    "name", "description", "project", "organization", "stateful", "inbound_default_policy", "outbound_default_policy",
    "project_default", "enable_default_security", "tags", "organization_default",
}


def check_rule(body: dict[str, Any], prefix: str = "") -> Errors:
    """One rule: protocol, direction, action, ip_range; ports only for TCP and UDP, from ≤ to.

    For ICMP and ANY a port of 0 means "no port", as the public clients send it: it is stored as
    none (the one change this check makes to `body`)."""
    if body.get("protocol") in ("ICMP", "ANY"):
        for field in ("dest_port_from", "dest_port_to"):
            if body.get(field) == 0 and not isinstance(body.get(field), bool):
                body[field] = None
    errs: Errors = [(prefix + k, "unknown", "unknown field") for k in sorted(set(body) - RULE_FIELDS)]
    for field, choices in (("protocol", ("TCP", "UDP", "ICMP", "ANY")), ("direction", ("inbound", "outbound")), ("action", ("accept", "drop"))):
        if field not in body:
            errs.append((prefix + field, "required", f"{field} is required ({' or '.join(choices)})"))
        elif body[field] not in choices:
            errs.append((prefix + field, "constraint", f"{field} must be {' or '.join(choices)}"))
    if "ip_range" not in body:
        errs.append((prefix + "ip_range", "required", "ip_range is required, e.g. 0.0.0.0/0"))
    else:
        errs += check_ip_range(body["ip_range"], prefix + "ip_range")
    lo, hi = body.get("dest_port_from"), body.get("dest_port_to")
    for field, port in (("dest_port_from", lo), ("dest_port_to", hi)):
        if port is not None and (not isinstance(port, int) or isinstance(port, bool) or not 1 <= port <= 65535):
            errs.append((prefix + field, "constraint", "a port is between 1 and 65535"))
    if (lo is not None or hi is not None) and body.get("protocol") in ("ICMP", "ANY"):
        errs.append((prefix + "dest_port_from", "constraint", "ports apply to TCP and UDP only"))
    if hi is not None and lo is None:
        errs.append((prefix + "dest_port_from", "required", "dest_port_to needs dest_port_from"))
    if isinstance(lo, int) and isinstance(hi, int) and hi < lo:
        errs.append((prefix + "dest_port_to", "constraint", "dest_port_to must not be below dest_port_from"))
    if "position" in body and (not isinstance(body["position"], int) or isinstance(body["position"], bool) or body["position"] < 1):
        errs.append((prefix + "position", "constraint", "position is a positive integer"))
    return errs


def routes(store: InstanceStore) -> list[Route]:

    # ---- flexible IPs -------------------------------------------------------------------------
    def ip_of(zone: str, ref: str) -> dict[str, Any]:
        ips = store.ips[zone]
        ip = ips.get(ref) or next((i for i in ips.values() if i["address"] == ref), None)
        if ip is None:
            raise not_found("instance_ip", ref)
        return ip

    def new_address(kind: str) -> str:
        rng = store.ids.rng
        if kind == "routed_ipv6":
            return f"2001:bc8:{rng.randrange(0x1000, 0xffff):x}:{rng.randrange(0x1000, 0xffff):x}::1"
        return f"163.172.{rng.randrange(1, 254)}.{rng.randrange(1, 254)}"

    def attach(zone: str, ip: dict[str, Any], server: dict[str, Any]) -> None:
        """Spec 1 §2.4: attaching replaces the server's previous public IP (its connections are cut),
        unless it is on the routed stack and already has a flexible IP."""
        keep_others = server.get("routed_ip_enabled") and server["flexible_ips"]
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

    def detach(zone: str, ip: dict[str, Any]) -> None:
        server = store.servers[zone].get((ip.get("server") or {}).get("id", ""))
        if server is not None:
            server["flexible_ips"] = [i for i in server["flexible_ips"] if i != ip["id"]]
            store.server_changed(zone, server)
        ip["server"] = None
        ip["state"] = "detached"

    def server_ref(zone: str, value: Any) -> dict[str, Any] | None:
        sid = value.get("id") if isinstance(value, dict) else value
        return store.servers[zone].get(sid) if isinstance(sid, str) else None

    async def list_ips(request: Request) -> Response:
        zone = zone_of(store, request)
        items = sorted(store.ips[zone].values(), key=lambda i: (i["address"], i["id"]))
        q = request.query_params
        if kind := q.get("type"):
            items = [i for i in items if i["type"] == kind]
        items = owned(items, q, name_of="address")  # ListIpsRequest.name: a part of the address
        return page_per_page(request, "ips", items, encode)

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
        if errs:
            raise invalid_arguments(*errs)
        if body["project"] != store.project:
            raise permissions_denied("write", "ip")
        kind = body.get("type", "routed_ipv4")
        ip = {
            "id": store.ids.uuid(), "address": new_address(kind), "reverse": None, "server": None,
            "organization": store.organization, "project": store.project, "zone": zone, "type": kind,
            "state": "detached", "tags": body.get("tags", []), "prefix": None,
        }
        store.ips[zone][ip["id"]] = ip
        if server is not None:
            attach(zone, ip, server)
        return JSONResponse({"ip": ip}, status_code=201)

    async def get_ip(request: Request) -> Response:
        zone = zone_of(store, request)
        return JSONResponse({"ip": ip_of(zone, request.path_params["ip"])})

    async def patch_ip(request: Request) -> Response:
        zone = zone_of(store, request)
        ip = ip_of(zone, request.path_params["ip"])
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
            current = (ip.get("server") or {}).get("id")
            if server is None and current:
                detach(zone, ip)
            elif server is not None and server["id"] != current:
                if current:
                    detach(zone, ip)
                attach(zone, ip, server)
        for key in ("reverse", "tags"):
            if key in body:
                ip[key] = body[key]
        if ip.get("server") and ip["server"]["id"] in store.servers[zone]:
            store._touch(zone, ip["server"]["id"])
        return JSONResponse({"ip": ip})

    async def delete_ip(request: Request) -> Response:
        zone = zone_of(store, request)
        ip = ip_of(zone, request.path_params["ip"])
        if ip.get("server"):
            detach(zone, ip)
        del store.ips[zone][ip["id"]]
        return Response(status_code=204)

    # ---- security groups ----------------------------------------------------------------------
    def sg_of(zone: str, sgid: str) -> dict[str, Any]:
        sg = store.security_groups[zone].get(sgid)
        if sg is None:
            raise not_found("instance_security_group", sgid)
        return sg

    def render_sg(zone: str, sg: dict[str, Any]) -> dict[str, Any]:
        out = {k: v for k, v in sg.items() if k != "rules"}
        out["servers"] = [{"id": s["id"], "name": s["name"]} for s in store.servers[zone].values() if s["security_group"] == sg["id"]]
        return out

    def check_sg(body: dict[str, Any], creating: bool) -> Errors:
        errs = check_unknown(body, SG_FIELDS)
        if creating or "name" in body:
            errs += check_name(body.get("name"))
        if creating:
            errs += check_project(body)
        if "description" in body and (not isinstance(body["description"], str) or len(body["description"]) > 255):
            errs.append(("description", "constraint", "description is a string of at most 255 characters"))
        errs += check_bool(body, "stateful", "project_default", "enable_default_security")
        errs += check_choice(body, "inbound_default_policy", ("accept", "drop"))
        errs += check_choice(body, "outbound_default_policy", ("accept", "drop"))
        if "tags" in body:
            errs += check_tags(body["tags"])
        return errs

    def make_default(zone: str, sg: dict[str, Any]) -> None:
        for other in store.security_groups[zone].values():
            other["project_default"] = other is sg

    async def list_sgs(request: Request) -> Response:
        zone = zone_of(store, request)
        items = sorted(store.security_groups[zone].values(), key=lambda g: (not g["project_default"], g["name"], g["id"]))
        items = owned(items, request.query_params)
        if (default := query_bool(request.query_params, "project_default")) is not None:
            items = [g for g in items if g["project_default"] == default]
        return page_per_page(request, "security_groups", items, lambda g: encode(render_sg(zone, g)))

    async def create_sg(request: Request) -> Response:
        zone = zone_of(store, request)
        body = await json_body(request)
        errs = check_sg(body, creating=True)
        if errs:
            raise invalid_arguments(*errs)
        if body["project"] != store.project:
            raise permissions_denied("write", "security_group")
        fields = {k: body[k] for k in ("stateful", "inbound_default_policy", "outbound_default_policy", "enable_default_security", "tags") if k in body}
        sg = store.new_security_group(zone, store.ids.uuid(), body["name"], body.get("description") or "", **fields)
        if body.get("project_default"):
            make_default(zone, sg)
        return JSONResponse({"security_group": render_sg(zone, sg)}, status_code=201)

    async def get_sg(request: Request) -> Response:
        zone = zone_of(store, request)
        return JSONResponse({"security_group": render_sg(zone, sg_of(zone, request.path_params["sgid"]))})

    async def update_sg(request: Request) -> Response:
        zone = zone_of(store, request)
        sg = sg_of(zone, request.path_params["sgid"])
        body = await json_body(request)
        if request.method == "PUT":
            body = {k: v for k, v in body.items() if k in SG_FIELDS - {"project", "organization", "organization_default"}}
            if "name" not in body:
                raise invalid_arguments(("name", "required", "required key not provided"))
        body.pop("project", None)
        body.pop("organization", None)
        errs = check_sg(body, creating=False)
        if errs:
            raise invalid_arguments(*errs)
        if body.get("project_default") is False and sg["project_default"]:
            raise invalid_request("make another group the project default instead")
        for key in ("name", "description", "stateful", "inbound_default_policy", "outbound_default_policy", "enable_default_security", "tags"):
            if key in body:
                sg[key] = body[key]
        if body.get("project_default"):
            make_default(zone, sg)
        store.stamp(sg)
        for s in store.servers[zone].values():
            if s["security_group"] == sg["id"]:
                store._touch(zone, s["id"])
        return JSONResponse({"security_group": render_sg(zone, sg)})

    async def delete_sg(request: Request) -> Response:
        zone = zone_of(store, request)
        sg = sg_of(zone, request.path_params["sgid"])
        if sg["project_default"]:
            raise invalid_request("the project's default security group cannot be deleted")
        users = [s["name"] for s in store.servers[zone].values() if s["security_group"] == sg["id"]]
        if users:
            raise still_in_use("instance_security_group", f"move {', '.join(users[:3])} to another group first")
        del store.security_groups[zone][sg["id"]]
        return Response(status_code=204)

    # ---- rules --------------------------------------------------------------------------------
    def make_rule(zone: str, body: dict[str, Any], position: int) -> dict[str, Any]:
        return {
            "id": body.get("id") if is_uuid(body.get("id")) else store.ids.uuid(),
            "protocol": body["protocol"], "direction": body["direction"], "action": body["action"],
            "ip_range": str(ipaddress.ip_network(body["ip_range"], strict=False)),
            "dest_port_from": body.get("dest_port_from"), "dest_port_to": body.get("dest_port_to"),
            "position": position, "editable": True, "zone": zone,
        }

    def renumber(sg: dict[str, Any]) -> None:
        for i, rule in enumerate(sg["rules"], 1):
            rule["position"] = i
        store.stamp(sg)

    def rule_of(sg: dict[str, Any], rid: str) -> dict[str, Any]:
        rule = next((r for r in sg["rules"] if r["id"] == rid), None)
        if rule is None:
            raise not_found("instance_security_group_rule", rid)
        return rule

    async def list_rules(request: Request) -> Response:
        zone = zone_of(store, request)
        sg = sg_of(zone, request.path_params["sgid"])
        return page_per_page(request, "rules", sg["rules"], encode)

    async def create_rule(request: Request) -> Response:
        zone = zone_of(store, request)
        sg = sg_of(zone, request.path_params["sgid"])
        body = await json_body(request)
        errs = check_rule(body)
        if errs:
            raise invalid_arguments(*errs)
        position = min(body.get("position", len(sg["rules"]) + 1), len(sg["rules"]) + 1)
        rule = make_rule(zone, body, position)
        sg["rules"].insert(position - 1, rule)
        renumber(sg)
        return JSONResponse({"rule": rule}, status_code=201)

    async def replace_rules(request: Request) -> Response:
        """PUT the whole list: the rules given, in that order, replace every editable rule."""
        zone = zone_of(store, request)
        sg = sg_of(zone, request.path_params["sgid"])
        body = await json_body(request)
        rules = body.get("rules")
        if not isinstance(rules, list) or set(body) - {"rules"}:
            raise invalid_arguments(("rules", "required", 'the body is {"rules": [...]}'))
        errs: Errors = []
        for i, rule in enumerate(rules):
            errs += check_rule(rule, f"rules.{i}.") if isinstance(rule, dict) else [(f"rules.{i}", "format", "a rule is an object")]
        if errs:
            raise invalid_arguments(*errs)
        ordered = sorted(enumerate(rules), key=lambda p: (p[1].get("position", p[0] + 1), p[0]))
        sg["rules"] = [make_rule(zone, r, i) for i, (_, r) in enumerate(ordered, 1)]
        renumber(sg)
        return JSONResponse({"rules": sg["rules"]})

    async def get_rule(request: Request) -> Response:
        zone = zone_of(store, request)
        sg = sg_of(zone, request.path_params["sgid"])
        return JSONResponse({"rule": rule_of(sg, request.path_params["rid"])})

    async def update_rule(request: Request) -> Response:
        zone = zone_of(store, request)
        sg = sg_of(zone, request.path_params["sgid"])
        rule = rule_of(sg, request.path_params["rid"])
        body = await json_body(request)
        merged = {k: v for k, v in rule.items() if k not in ("id", "zone", "editable")} if request.method == "PATCH" else {}
        merged.update(body)
        errs = check_rule(merged)
        if errs:
            raise invalid_arguments(*errs)
        new = make_rule(zone, {**merged, "id": rule["id"]}, rule["position"])
        sg["rules"].remove(rule)
        position = min(max(1, merged.get("position", rule["position"])), len(sg["rules"]) + 1)
        sg["rules"].insert(position - 1, new)
        renumber(sg)
        return JSONResponse({"rule": new})

    async def delete_rule(request: Request) -> Response:
        zone = zone_of(store, request)
        sg = sg_of(zone, request.path_params["sgid"])
        sg["rules"].remove(rule_of(sg, request.path_params["rid"]))
        renumber(sg)
        return Response(status_code=204)

    async def default_rules(request: Request) -> Response:
        zone = zone_of(store, request)
        rules = [{**r, "id": f"00000000-0000-4000-8000-00000000000{i}", "position": i, "editable": False, "zone": zone} for i, r in enumerate(DEFAULT_RULES, 1)]
        return JSONResponse({"rules": rules}, headers={"X-Total-Count": str(len(rules))})

    return route_table(
        "/instance/v1/zones/{zone}",
        ("GET", "/ips", list_ips),
        ("POST", "/ips", create_ip),
        ("GET", "/ips/{ip}", get_ip),
        ("PATCH", "/ips/{ip}", patch_ip),
        ("DELETE", "/ips/{ip}", delete_ip),
        ("GET", "/security_groups", list_sgs),
        ("POST", "/security_groups", create_sg),
        ("GET", "/security_groups/default/rules", default_rules),
        ("GET", "/security_groups/{sgid}", get_sg),
        ("PATCH PUT", "/security_groups/{sgid}", update_sg),
        ("DELETE", "/security_groups/{sgid}", delete_sg),
        ("GET", "/security_groups/{sgid}/rules", list_rules),
        ("POST", "/security_groups/{sgid}/rules", create_rule),
        ("PUT", "/security_groups/{sgid}/rules", replace_rules),
        ("GET", "/security_groups/{sgid}/rules/{rid}", get_rule),
        ("PUT PATCH", "/security_groups/{sgid}/rules/{rid}", update_rule),
        ("DELETE", "/security_groups/{sgid}/rules/{rid}", delete_rule),
    )
