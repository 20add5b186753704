"""Instance routes for security groups and their rules (spec 1 §2.6, §4.2; spec/4 "Instance");
flexible IPs are in `ips`."""

from __future__ import annotations

import ipaddress
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..catalog import DEFAULT_RULES
from ..core import is_uuid, json_body, page_per_page
from ..errors import invalid_arguments, invalid_request, or_not_found
from ..routing import Routes
from .listing import owned, query_bool
from .state import InstanceStore, still_in_use
from .validation import (
    Errors,
    check_bool,
    check_choice,
    check_ip_range,
    check_name,
    check_project,
    check_tags,
    check_unknown,
    refuse_creation,
)
from .zones import encode, in_path, list_in_body, zone_of

RULE_FIELDS = {
    "protocol",
    "direction",
    "action",
    "ip_range",
    "dest_port_from",
    "dest_port_to",
    "position",
    "editable",
    "id",
    "zone",
}
SG_FIELDS = {
    "name",
    "description",
    "project",
    "organization",
    "stateful",
    "inbound_default_policy",
    "outbound_default_policy",
    "project_default",
    "enable_default_security",
    "tags",
    "organization_default",
}


def check_rule(body: dict[str, Any], prefix: str = "") -> Errors:
    """One rule: protocol, direction, action, ip_range; ports only for TCP and UDP, from ≤ to.

    For ICMP and ANY a port of 0 means "no port", as the public clients send it: it is stored as
    none; a position of 0 is not asked (the changes this check makes to `body`)."""
    if body.get("protocol") in ("ICMP", "ANY"):
        for field in ("dest_port_from", "dest_port_to"):
            if body.get(field) == 0 and not isinstance(body.get(field), bool):
                body[field] = None
    if body.get("position") == 0 and not isinstance(body["position"], bool):  # the default: at the end, in order
        del body["position"]
    errs: Errors = [(prefix + k, "unknown", "unknown field") for k in sorted(set(body) - RULE_FIELDS)]
    for field, choices in (
        ("protocol", ("TCP", "UDP", "ICMP", "ANY")),
        ("direction", ("inbound", "outbound")),
        ("action", ("accept", "drop")),
    ):
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
    if "position" in body and (
        not isinstance(body["position"], int) or isinstance(body["position"], bool) or body["position"] < 1
    ):
        errs.append((prefix + "position", "constraint", "position is a positive integer"))
    return errs


def routes(store: InstanceStore) -> list[Route]:
    routes = Routes("/instance/v1/zones/{zone}")

    # ---- security groups ----------------------------------------------------------------------
    def sg_of(request: Request) -> tuple[str, dict[str, Any]]:
        return in_path(store, request, store.security_groups, "instance_security_group", "sgid")

    def render_sg(zone: str, sg: dict[str, Any]) -> dict[str, Any]:
        out = {k: v for k, v in sg.items() if k != "rules"}
        out["servers"] = [
            {"id": s["id"], "name": s["name"]} for s in store.servers[zone].values() if s["security_group"] == sg["id"]
        ]
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

    @routes.get("/security_groups")
    async def list_sgs(request: Request) -> Response:
        zone = zone_of(store, request)
        items = sorted(
            store.security_groups[zone].values(), key=lambda g: (not g["project_default"], g["name"], g["id"])
        )
        items = owned(items, request.query_params)
        if (default := query_bool(request.query_params, "project_default")) is not None:
            items = [g for g in items if g["project_default"] == default]
        return page_per_page(request, "security_groups", items, lambda g: encode(render_sg(zone, g)))

    @routes.post("/security_groups")
    async def create_sg(request: Request) -> Response:
        zone = zone_of(store, request)
        body = await json_body(request)
        refuse_creation(store, body, check_sg(body, creating=True), "security_group")
        fields = {
            k: body[k]
            for k in (
                "stateful",
                "inbound_default_policy",
                "outbound_default_policy",
                "enable_default_security",
                "tags",
            )
            if k in body
        }
        sg = store.new_security_group(zone, store.ids.uuid(), body["name"], body.get("description") or "", **fields)
        if body.get("project_default"):
            make_default(zone, sg)
        return JSONResponse({"security_group": render_sg(zone, sg)}, status_code=201)

    @routes.get("/security_groups/{sgid}")
    async def get_sg(request: Request) -> Response:
        zone, sg = sg_of(request)
        return JSONResponse({"security_group": render_sg(zone, sg)})

    @routes.route("PATCH PUT", "/security_groups/{sgid}")
    async def update_sg(request: Request) -> Response:
        zone, sg = sg_of(request)
        body = await json_body(request)
        if request.method == "PUT":
            body = {
                k: v for k, v in body.items() if k in SG_FIELDS - {"project", "organization", "organization_default"}
            }
            if "name" not in body:
                raise invalid_arguments(("name", "required", "required key not provided"))
        body.pop("project", None)
        body.pop("organization", None)
        errs = check_sg(body, creating=False)
        if errs:
            raise invalid_arguments(*errs)
        if body.get("project_default") is False and sg["project_default"]:
            raise invalid_request("make another group the project default instead")
        for key in (
            "name",
            "description",
            "stateful",
            "inbound_default_policy",
            "outbound_default_policy",
            "enable_default_security",
            "tags",
        ):
            if key in body:
                sg[key] = body[key]
        if body.get("project_default"):
            make_default(zone, sg)
        store.stamp(sg)
        for s in store.servers[zone].values():
            if s["security_group"] == sg["id"]:
                store._touch(zone, s["id"])
        return JSONResponse({"security_group": render_sg(zone, sg)})

    @routes.delete("/security_groups/{sgid}")
    async def delete_sg(request: Request) -> Response:
        zone, sg = sg_of(request)
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
            "protocol": body["protocol"],
            "direction": body["direction"],
            "action": body["action"],
            "ip_range": str(ipaddress.ip_network(body["ip_range"], strict=False)),
            "dest_port_from": body.get("dest_port_from"),
            "dest_port_to": body.get("dest_port_to"),
            "position": position,
            "editable": True,
            "zone": zone,
        }

    def renumber(sg: dict[str, Any]) -> None:
        for i, rule in enumerate(sg["rules"], 1):
            rule["position"] = i
        store.stamp(sg)

    def rule_of(sg: dict[str, Any], rid: str) -> dict[str, Any]:
        return or_not_found(next((r for r in sg["rules"] if r["id"] == rid), None), "instance_security_group_rule", rid)

    # before `/security_groups/{sgid}/rules`: "default" is not a group's id
    @routes.get("/security_groups/default/rules")
    async def default_rules(request: Request) -> Response:
        zone = zone_of(store, request)
        rules = [
            {**r, "id": f"00000000-0000-4000-8000-00000000000{i}", "position": i, "editable": False, "zone": zone}
            for i, r in enumerate(DEFAULT_RULES, 1)
        ]
        return JSONResponse({"rules": rules}, headers={"X-Total-Count": str(len(rules))})

    @routes.get("/security_groups/{sgid}/rules")
    async def list_rules(request: Request) -> Response:
        zone, sg = sg_of(request)
        return page_per_page(request, "rules", sg["rules"], encode)

    @routes.post("/security_groups/{sgid}/rules")
    async def create_rule(request: Request) -> Response:
        zone, sg = sg_of(request)
        body = await json_body(request)
        errs = check_rule(body)
        if errs:
            raise invalid_arguments(*errs)
        position = min(body.get("position", len(sg["rules"]) + 1), len(sg["rules"]) + 1)
        rule = make_rule(zone, body, position)
        sg["rules"].insert(position - 1, rule)
        renumber(sg)
        return JSONResponse({"rule": rule}, status_code=201)

    @routes.put("/security_groups/{sgid}/rules")
    async def replace_rules(request: Request) -> Response:
        """PUT the whole list: the rules given, in that order, replace every editable rule."""
        zone, sg = sg_of(request)
        rules = await list_in_body(request, "rules", '{"rules": [...]}')
        errs: Errors = []
        for i, rule in enumerate(rules):
            errs += (
                check_rule(rule, f"rules.{i}.")
                if isinstance(rule, dict)
                else [(f"rules.{i}", "format", "a rule is an object")]
            )
        if errs:
            raise invalid_arguments(*errs)
        ordered = sorted(enumerate(rules), key=lambda p: (p[1].get("position", p[0] + 1), p[0]))
        sg["rules"] = [make_rule(zone, r, i) for i, (_, r) in enumerate(ordered, 1)]
        renumber(sg)
        return JSONResponse({"rules": sg["rules"]})

    @routes.get("/security_groups/{sgid}/rules/{rid}")
    async def get_rule(request: Request) -> Response:
        zone, sg = sg_of(request)
        return JSONResponse({"rule": rule_of(sg, request.path_params["rid"])})

    @routes.route("PUT PATCH", "/security_groups/{sgid}/rules/{rid}")
    async def update_rule(request: Request) -> Response:
        zone, sg = sg_of(request)
        rule = rule_of(sg, request.path_params["rid"])
        body = await json_body(request)
        merged = (
            {k: v for k, v in rule.items() if k not in ("id", "zone", "editable")} if request.method == "PATCH" else {}
        )
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

    @routes.delete("/security_groups/{sgid}/rules/{rid}")
    async def delete_rule(request: Request) -> Response:
        zone, sg = sg_of(request)
        sg["rules"].remove(rule_of(sg, request.path_params["rid"]))
        renumber(sg)
        return Response(status_code=204)

    return routes.table()
