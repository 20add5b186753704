"""Routes of the sandbox's load balancers: spec 3 §4.3 and spec/4 "Load balancer" (a backend or frontend
is deleted at the path of either), by region as the spec says and by zone as newer public clients
call them (`/lb/v1/zones/{zone}/…`, the same objects), with the backend servers and health-check
updates the public clients send."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..collection import matching, ordered, page
from ..core import check_unknown, is_uuid, json_body
from ..errors import invalid_arguments, not_found, precondition_failed, transient_state
from ..routing import Routes
from .checks import SSL_LEVELS, check_backend, check_frontend, check_health, check_ips, millis, normal_health
from .store import REGIONS, TYPES, LbStore, zone_region

if TYPE_CHECKING:
    from typing import Protocol

    from .checks import Errs

    class _Check(Protocol):  # how a backend's or a frontend's body is checked
        def __call__(self, body: dict[str, Any], creating: bool) -> Errs: ...


BUSY = ("to_create", "creating", "to_delete", "deleting")


def region_of(request: Request) -> str:
    if "region" in request.path_params:
        region = request.path_params["region"]
        if region not in REGIONS:
            raise invalid_arguments(
                ("region", "constraint", f"load balancers exist in {', '.join(REGIONS)} only, not {region!r}")
            )
        return region
    region = zone_region(request.path_params["zone"])
    if region is None:
        raise invalid_arguments(("zone", "constraint", f"no load balancers in zone {request.path_params['zone']!r}"))
    return region


def routes(store: LbStore) -> list[Route]:
    routes = Routes("/lb/v1/regions/{region}", "/lb/v1/zones/{zone}")

    def lb_of(request: Request, key: str = "lb_id") -> dict[str, Any]:
        return store.lbs.get(region_of(request), request.path_params[key])

    def ready_lb(request: Request) -> dict[str, Any]:
        lb = lb_of(request)
        if lb["status"] in BUSY:
            raise transient_state("lb", lb["id"], lb["status"])
        return lb

    def child(request: Request, objects: dict[str, Any], resource: str, key: str) -> dict[str, Any]:
        """A backend or frontend by id; under `/lbs/{lb_id}/…` (spec 3 §4.3) it is that load balancer's."""
        region = region_of(request)
        obj = objects.get(request.path_params[key])
        if (
            obj is None
            or store.lbs.items[region].get(obj["_lb"]) is None
            or request.path_params.get("lb_id", obj["_lb"]) != obj["_lb"]
        ):
            raise not_found(resource, request.path_params[key])
        return obj

    # ---- types and IPs -----------------------------------------------------------------------------
    @routes.get("/lb-types")
    async def lb_types(request: Request) -> Response:
        region = region_of(request)
        items = [
            {"name": n, "stock_status": s, "description": d, "region": region, "zone": f"{region}-1"}
            for n, s, d in TYPES
        ]
        return page(request, "lb_types", items, dict)

    def settled(request: Request) -> str:
        """The region, with load balancers' due steps applied (a deleted one releases or keeps its IP)."""
        store.timeline.settle_due()
        return region_of(request)

    @routes.get("/ips")
    async def list_ips(request: Request) -> Response:
        region = settled(request)
        items = store.ips.all(region)
        if request.query_params.get("ip_address"):
            items = [i for i in items if i["ip_address"] == request.query_params["ip_address"]]
        return page(request, "ips", items, dict)

    @routes.get("/ips/{ip_id}")
    async def get_ip(request: Request) -> Response:
        return JSONResponse(store.ips.get(settled(request), request.path_params["ip_id"]))

    @routes.delete("/ips/{ip_id}")
    async def delete_ip(request: Request) -> Response:
        ip = store.ips.get(settled(request), request.path_params["ip_id"])
        if ip["lb_id"]:
            raise precondition_failed("resource_still_in_use", "the IP is used by a load balancer")
        store.ips.remove(ip)
        return Response(status_code=204)

    # ---- load balancers ----------------------------------------------------------------------------
    @routes.get("/lbs")
    async def list_lbs(request: Request) -> Response:
        region = region_of(request)
        items = matching(request, store.lbs.all(region), "project_id", "organization_id")
        return page(request, "lbs", ordered(request, items, tie="id"), store.view)

    @routes.post("/lbs")
    async def create_lb(request: Request) -> Response:
        region = settled(request)
        body = await json_body(request)
        errs = check_unknown(
            body,
            {
                "organization_id",
                "project_id",
                "name",
                "description",
                "ip_id",
                "ip_ids",
                "tags",
                "type",
                "ssl_compatibility_level",
                "assign_flexible_ip",
                "assign_flexible_ipv6",
            },
        )
        if body.get("organization_id") and body.get("project_id"):
            errs.append(("project_id", "constraint", "give organization_id or project_id, not both"))
        elif not body.get("organization_id") and not body.get("project_id"):
            errs.append(("project_id", "required", "project_id is required"))
        if not isinstance(body.get("name"), str) or not body["name"]:
            errs.append(("name", "required", "name is required"))
        lb_type = next((t for t in TYPES if t[0].lower() == str(body.get("type") or "").lower()), None)
        if not body.get("type"):
            errs.append(("type", "required", "type is required: one of GET /lb-types"))
        elif lb_type is None:
            errs.append(("type", "constraint", f"type is one of {', '.join(t[0] for t in TYPES)}"))
        elif lb_type[1] == "out_of_stock":
            errs.append(("type", "constraint", f"{lb_type[0]} is out of stock"))
        level = body.get("ssl_compatibility_level")
        if level is not None and level not in SSL_LEVELS:
            errs.append(
                ("ssl_compatibility_level", "constraint", f"ssl_compatibility_level is one of {', '.join(SSL_LEVELS)}")
            )
        if body.get("tags") is not None and (
            not isinstance(body["tags"], list) or not all(isinstance(t, str) for t in body["tags"])
        ):
            errs.append(("tags", "format", "tags is a list of strings"))
        ip_id = body.get("ip_id") or (body.get("ip_ids") or [None])[0]
        ip = None
        if ip_id:
            ip = store.ips.items[region].get(ip_id) if is_uuid(ip_id) else None
            if ip is None:
                errs.append(("ip_id", "constraint", f"no IP {ip_id} in {region}"))
            elif ip["lb_id"]:
                errs.append(
                    ("ip_id", "constraint", "this IP is used by another load balancer (spec: one IP per load balancer)")
                )
        if errs:
            raise invalid_arguments(*errs)
        lb = store.create(region, {**body, "type": lb_type[0]}, ip=ip)  # type: ignore[index]  # (None: refused above)
        return JSONResponse(store.view(lb))

    routes.read("/lbs/{lb_id}", lb_of, store.view)

    @routes.put("/lbs/{lb_id}")
    async def put_lb(request: Request) -> Response:
        lb = lb_of(request)
        body = await json_body(request)
        errs = check_unknown(body, {"name", "description", "tags", "ssl_compatibility_level"})
        for key in ("name", "description"):  # spec 3 §4.3: both required
            if not isinstance(body.get(key), str) or (key == "name" and not body[key]):
                errs.append((key, "required", f"{key} is required"))
        if body.get("ssl_compatibility_level") is not None and body["ssl_compatibility_level"] not in SSL_LEVELS:
            errs.append(
                ("ssl_compatibility_level", "constraint", f"ssl_compatibility_level is one of {', '.join(SSL_LEVELS)}")
            )
        if errs:
            raise invalid_arguments(*errs)
        store.lbs.patch(lb, body, ("name", "description", "tags", "ssl_compatibility_level"))
        return JSONResponse(store.view(lb))

    @routes.delete("/lbs/{lb_id}")
    async def delete_lb(request: Request) -> Response:
        lb = lb_of(request)
        raw = (request.query_params.get("release_ip") or "false").lower()
        if raw not in ("true", "false", "1", "0"):
            raise invalid_arguments(("release_ip", "format", "release_ip is true or false"))
        store.delete(lb, raw in ("true", "1"))
        return Response(status_code=204)

    # ---- backends ----------------------------------------------------------------------------------
    @routes.get("/lbs/{lb_id}/backends")
    async def list_backends(request: Request) -> Response:
        lb = lb_of(request)
        items = [b for b in store.backends.values() if b["_lb"] == lb["id"]]
        if request.query_params.get("name"):
            items = [b for b in items if request.query_params["name"].lower() in b["name"].lower()]
        return page(request, "backends", ordered(request, items, tie="id"), store.backend_view)

    async def add_child(
        request: Request,
        check: _Check,
        add: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]],
        view: Callable[[dict[str, Any]], dict[str, Any]],
        rules: Callable[[dict[str, Any], dict[str, Any]], Errs] | None = None,
    ) -> Response:
        """POST of a backend or a frontend: checked (then by `rules`, where the body is sound), added
        to its load balancer, which it changes."""
        lb = ready_lb(request)
        body = await json_body(request)
        errs = check(body, creating=True)
        errs += rules(lb, body) if rules is not None and not errs else []
        if errs:
            raise invalid_arguments(*errs)
        obj = add(lb, body)
        store.stamp(lb)
        return JSONResponse(view(obj))

    @routes.post("/lbs/{lb_id}/backends")
    async def create_backend(request: Request) -> Response:
        return await add_child(request, check_backend, store.add_backend, store.backend_view)

    def backend(request: Request) -> dict[str, Any]:
        return child(request, store.backends, "backend", "backend_id")

    routes.read("/backends/{backend_id}", backend, store.backend_view)

    @routes.put("/backends/{backend_id}")
    async def put_backend(request: Request) -> Response:
        """The backend's settings (its servers and health check have routes of their own)."""
        b = backend(request)
        body = await json_body(request)
        errs = check_backend(body, creating=False)
        errs += [(k, "unknown", f"{k} is set by its own route") for k in ("health_check", "server_ip") if k in body]
        for key in ("name", "forward_protocol", "forward_port"):
            if key not in body:
                errs.append((key, "required", f"{key} is required"))
        if errs:
            raise invalid_arguments(*errs)
        for key, value in body.items():
            if key.startswith("timeout_"):
                value = millis(value)
            b[key] = value
        b["proxy_protocol"] = "proxy_protocol_v2" if b.get("send_proxy_v2") else "proxy_protocol_none"
        b["updated_at"] = store.clock.iso()
        return JSONResponse(store.backend_view(b))

    @routes.put("/backends/{backend_id}/healthcheck")
    async def put_health(request: Request) -> Response:
        b = backend(request)
        body = await json_body(request)
        errs = check_health(body, "")
        if errs:
            raise invalid_arguments(*[(a.lstrip(".") or "health_check", r, h) for a, r, h in errs])
        b["health_check"], b["updated_at"] = normal_health(body), store.clock.iso()
        return JSONResponse(b["health_check"])

    @routes.route("PUT POST DELETE", "/backends/{backend_id}/servers")
    async def servers(request: Request) -> Response:
        """PUT replaces the pool, POST adds to it, DELETE takes out (`server_ip`)."""
        b = backend(request)
        body = await json_body(request)
        errs = check_unknown(body, {"server_ip"}) + check_ips(body.get("server_ip"))
        if errs:
            raise invalid_arguments(*errs)
        ips = body["server_ip"]
        if request.method == "PUT":
            b["pool"] = list(ips)
        elif request.method == "POST":
            b["pool"] = b["pool"] + [ip for ip in ips if ip not in b["pool"]]
        else:
            b["pool"] = [ip for ip in b["pool"] if ip not in ips]
        b["updated_at"] = store.clock.iso()
        return JSONResponse(store.backend_view(b))

    @routes.delete("/backends/{backend_id}", "/lbs/{lb_id}/backends/{backend_id}")  # spec/4's path, spec 3 §4.3's
    async def delete_backend(request: Request) -> Response:
        b = backend(request)
        users = [f["name"] for f in store.frontends.values() if f["_backend"] == b["id"]]
        if users:
            raise precondition_failed(
                "resource_still_in_use",
                f"frontend(s) {', '.join(users)} forward to this backend: delete or repoint them first",
            )
        del store.backends[b["id"]]
        return Response(status_code=204)

    # ---- frontends ---------------------------------------------------------------------------------
    @routes.get("/lbs/{lb_id}/frontends")
    async def list_frontends(request: Request) -> Response:
        lb = lb_of(request)
        items = [f for f in store.frontends.values() if f["_lb"] == lb["id"]]
        return page(request, "frontends", ordered(request, items, tie="id"), store.frontend_view)

    def frontend_rules(
        lb: dict[str, Any], body: dict[str, Any], exclude: str | None = None
    ) -> list[tuple[str, str, str]]:
        errs = []
        if body.get("backend_id"):
            b = store.backends.get(body["backend_id"])
            if b is None or b["_lb"] != lb["id"]:
                errs.append(("backend_id", "constraint", "no such backend on this load balancer"))
        port = body.get("inbound_port")
        if port is not None and any(
            f["inbound_port"] == port and f["_lb"] == lb["id"] and f["id"] != exclude for f in store.frontends.values()
        ):
            errs.append(("inbound_port", "constraint", f"another frontend of this load balancer listens on {port}"))
        return errs

    @routes.post("/lbs/{lb_id}/frontends")
    async def create_frontend(request: Request) -> Response:
        return await add_child(request, check_frontend, store.add_frontend, store.frontend_view, frontend_rules)

    def frontend(request: Request) -> dict[str, Any]:
        return child(request, store.frontends, "frontend", "frontend_id")

    routes.read("/frontends/{frontend_id}", frontend, store.frontend_view)

    @routes.put("/frontends/{frontend_id}")
    async def put_frontend(request: Request) -> Response:
        f = frontend(request)
        body = await json_body(request)
        errs = check_frontend(body, creating=False)
        for key in ("name", "inbound_port", "backend_id"):
            if key not in body:
                errs.append((key, "required", f"{key} is required"))
        lb = store._lb_of(f)
        errs += frontend_rules(lb, body, exclude=f["id"]) if not errs and lb else []
        if errs:
            raise invalid_arguments(*errs)
        f.update(
            name=body["name"],
            inbound_port=body["inbound_port"],
            _backend=body["backend_id"],
            updated_at=store.clock.iso(),
        )
        if body.get("timeout_client") is not None:
            f["timeout_client"] = millis(body["timeout_client"])
        if body.get("certificate_ids") is not None:
            f["certificate_ids"] = list(body["certificate_ids"])
        if body.get("inbound_protocol") is not None:
            f["inbound_protocol"] = body["inbound_protocol"]
        return JSONResponse(store.frontend_view(f))

    @routes.delete("/frontends/{frontend_id}", "/lbs/{lb_id}/frontends/{frontend_id}")
    async def delete_frontend(request: Request) -> Response:
        del store.frontends[frontend(request)["id"]]
        return Response(status_code=204)

    return routes.table()
