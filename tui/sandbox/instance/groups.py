"""Instance routes for placement groups and their member servers (spec 1 §2.5)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..core import json_body, page_per_page
from ..errors import invalid_arguments, invalid_request
from ..routing import Routes
from .listing import owned
from .server_state import policy_respected
from .state import InstanceStore, still_in_use
from .validation import check_choice, check_name, check_project, check_tags, check_unknown, refuse_creation
from .zones import encode, in_path, list_in_body, zone_of

POLICY_TYPES = ("max_availability", "low_latency")
POLICY_MODES = ("optional", "enforced")


def routes(store: InstanceStore) -> list[Route]:
    routes = Routes("/instance/v1/zones/{zone}")

    def group_of(request: Request) -> tuple[str, dict[str, Any]]:
        return in_path(store, request, store.placement_groups, "instance_placement_group", "pgid")

    def members(zone: str, pg: dict[str, Any]) -> list[dict[str, Any]]:
        return [s for s in store.servers[zone].values() if s["placement_group"] == pg["id"]]

    def check(body: dict[str, Any], creating: bool) -> list[tuple[str, str, str]]:
        errs = check_unknown(body, {"name", "project", "organization", "policy_type", "policy_mode", "tags"})
        if creating or "name" in body:
            errs += check_name(body.get("name"))
        if creating:
            errs += check_project(body)
        errs += check_choice(body, "policy_type", POLICY_TYPES)
        errs += check_choice(body, "policy_mode", POLICY_MODES)
        if "tags" in body:
            errs += check_tags(body["tags"])
        return errs

    def touch_members(zone: str, pg: dict[str, Any]) -> None:
        store.stamp(pg)
        for s in members(zone, pg):
            store._touch(zone, s["id"])

    @routes.get("/placement_groups")
    async def list_pgs(request: Request) -> Response:
        zone = zone_of(store, request)
        items = sorted(store.placement_groups[zone].values(), key=lambda g: (g["name"], g["id"]))
        items = owned(items, request.query_params)
        return page_per_page(
            request, "placement_groups", items, lambda g: encode(store.render_placement_group(zone, g))
        )

    @routes.post("/placement_groups")
    async def create_pg(request: Request) -> Response:
        zone = zone_of(store, request)
        body = await json_body(request)
        refuse_creation(store, body, check(body, creating=True), "placement_group")
        now = store.clock.iso()
        pg = {
            "id": store.ids.uuid(),
            "name": body["name"],
            "organization": store.organization,
            "project": store.project,
            "policy_type": body.get("policy_type", "max_availability"),
            "policy_mode": body.get("policy_mode", "optional"),
            "tags": body.get("tags", []),
            "creation_date": now,
            "modification_date": now,
            "zone": zone,
        }
        store.placement_groups[zone][pg["id"]] = pg
        return JSONResponse({"placement_group": store.render_placement_group(zone, pg)}, status_code=201)

    @routes.get("/placement_groups/{pgid}")
    async def get_pg(request: Request) -> Response:
        zone, pg = group_of(request)
        return JSONResponse({"placement_group": store.render_placement_group(zone, pg)})

    @routes.route("PUT PATCH", "/placement_groups/{pgid}")
    async def update_pg(request: Request) -> Response:
        zone, pg = group_of(request)
        body = await json_body(request)
        if request.method == "PUT":
            body = {k: v for k, v in body.items() if k in ("name", "policy_type", "policy_mode", "tags")}
            if "name" not in body:
                raise invalid_arguments(("name", "required", "required key not provided"))
        errs = check(body, creating=False)
        if errs:
            raise invalid_arguments(*errs)
        after = {**pg, **body}
        if after["policy_mode"] == "enforced" and not policy_respected(after, len(members(zone, pg))):
            raise invalid_request(
                f"an enforced {after['policy_type']} group cannot hold {len(members(zone, pg))} servers"
            )
        pg.update(body)
        touch_members(zone, pg)
        return JSONResponse({"placement_group": store.render_placement_group(zone, pg)})

    @routes.delete("/placement_groups/{pgid}")
    async def delete_pg(request: Request) -> Response:
        zone, pg = group_of(request)
        if members(zone, pg):
            raise still_in_use("instance_placement_group", "remove its servers first")
        del store.placement_groups[zone][pg["id"]]
        return Response(status_code=204)

    def member_list(zone: str, pg: dict[str, Any]) -> dict[str, Any]:
        ms = members(zone, pg)
        ok = policy_respected(pg, len(ms))
        return {"servers": [{"id": s["id"], "name": s["name"], "policy_respected": ok} for s in ms]}

    @routes.get("/placement_groups/{pgid}/servers")
    async def get_members(request: Request) -> Response:
        zone, pg = group_of(request)
        return JSONResponse(member_list(zone, pg))

    @routes.route("PUT PATCH", "/placement_groups/{pgid}/servers")
    async def set_members(request: Request) -> Response:
        """PUT and PATCH both set the whole member list; servers that join or leave must be stopped."""
        zone, pg = group_of(request)
        ids = await list_in_body(request, "servers", '{"servers": ["<server id>", …]}')
        wanted = []
        errs = []
        for i, ref in enumerate(ids):
            sid = ref.get("id") if isinstance(ref, dict) else ref
            server = store.servers[zone].get(sid) if isinstance(sid, str) else None
            if server is None:
                errs.append((f"servers.{i}", "constraint", "no such server in this zone"))
            else:
                wanted.append(server)
        if errs:
            raise invalid_arguments(*errs)
        current = {s["id"] for s in members(zone, pg)}
        new = {s["id"] for s in wanted}
        if pg["policy_mode"] == "enforced" and not policy_respected(pg, len(new)):
            raise invalid_request(f"an enforced {pg['policy_type']} group cannot hold {len(new)} servers")
        for sid in current - new:
            store.servers[zone][sid]["placement_group"] = None
            store.server_changed(zone, store.servers[zone][sid])
        for server in wanted:
            if server["placement_group"] != pg["id"]:
                server["placement_group"] = pg["id"]
                store.server_changed(zone, server)
        touch_members(zone, pg)
        return JSONResponse(member_list(zone, pg))

    return routes.table()
