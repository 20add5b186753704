"""Routes of the sandbox's key-value cache: every endpoint of spec 2 §4.1, plus the ACL and settings
replacements of spec/4, with the rules of spec 2 §2.1 and §8 enforced server-side."""

from __future__ import annotations

import ipaddress
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..collection import filtered, page
from ..core import check_password, check_unknown, checked_body, is_uuid, json_body, path_zone, public
from ..errors import invalid_arguments, not_found
from ..routing import Routes
from ..timeseries import certificate, pick, series, window
from .store import METRICS, ZONES, KvcacheStore, check_service_ips, node_types, versions

CREATE_FIELDS = {
    "project_id",
    "name",
    "version",
    "tags",
    "node_type",
    "user_name",
    "password",
    "cluster_size",
    "acl_rules",
    "endpoints",
    "tls_enabled",
    "cluster_settings",
}
ORDER = {
    "created_at_asc": ("created_at", False),
    "created_at_desc": ("created_at", True),
    "name_asc": ("name", False),
    "name_desc": ("name", True),
}
USER_NAME_MAX = 63


def _truthy(value: str | None) -> bool:
    return (value or "").lower() in ("1", "true", "yes")


def check_acls(rules: object, field: str = "acl_rules") -> list[tuple[str, str, str]]:
    if not isinstance(rules, list):
        return [(field, "format", "a list of {ip_cidr, description}")]
    for i, r in enumerate(rules):
        if not isinstance(r, dict) or not isinstance(r.get("ip_cidr"), str):
            return [(f"{field}.{i}.ip_cidr", "required", "ip_cidr is required")]
        try:
            ipaddress.ip_network(r["ip_cidr"], strict=False)
        except ValueError:
            return [(f"{field}.{i}.ip_cidr", "format", f"{r['ip_cidr']!r} is not an IP network in CIDR notation")]
        if len(str(r.get("description") or "")) > 255:
            return [(f"{field}.{i}.description", "constraint", "at most 255 characters")]
    return []


def check_settings(version: dict[str, Any] | None, settings: object, field: str) -> list[tuple[str, str, str]]:
    if not isinstance(settings, list):
        return [(field, "format", "a list of {name, value}")]
    known = {s["name"]: s for s in (version or {}).get("available_settings", [])}
    for i, s in enumerate(settings):
        if not isinstance(s, dict) or not isinstance(s.get("name"), str):
            return [(f"{field}.{i}.name", "required", "name is required")]
        spec = known.get(s["name"])
        if spec is None:
            return [(f"{field}.{i}.name", "constraint", f"{s['name']!r} is not a setting of this version")]
        value = str(s.get("value", ""))
        if spec["type"] == "INT":
            try:
                n = int(value)
            except ValueError:
                return [(f"{field}.{i}.value", "format", f"{s['name']} takes a whole number")]
            if (spec["min_value"] is not None and n < spec["min_value"]) or (
                spec["max_value"] is not None and n > spec["max_value"]
            ):
                return [
                    (
                        f"{field}.{i}.value",
                        "constraint",
                        f"{s['name']} is between {spec['min_value']} and {spec['max_value']}",
                    )
                ]
        elif spec["type"] == "BOOLEAN" and value not in ("true", "false"):
            return [(f"{field}.{i}.value", "format", f"{s['name']} is true or false")]
    return []


def check_endpoints(specs: object, size: int) -> list[tuple[str, str, str]]:
    if not isinstance(specs, list):
        return [("endpoints", "format", "a list of endpoint specs")]
    if len(specs) > 1:
        return [("endpoints", "constraint", "one endpoint: public, or one private network")]
    for i, spec in enumerate(specs):
        if (
            not isinstance(spec, dict)
            or len(spec) != 1
            or next(iter(spec)) not in ("private_network", "public_network")
        ):
            return [(f"endpoints.{i}", "constraint", "exactly one of private_network and public_network")]
        pn = spec.get("private_network")
        if pn is not None:
            if not isinstance(pn, dict) or not is_uuid(pn.get("id")):
                return [(f"endpoints.{i}.private_network.id", "format", "the private network's UUID")]
            errs = check_service_ips(pn.get("service_ips"), size, f"endpoints.{i}.private_network.service_ips")
            if errs:
                return errs
    return []


def routes(store: KvcacheStore) -> list[Route]:
    routes = Routes("/kvcache/v1/zones/{zone}")

    def zone_of(request: Request) -> str:
        return path_zone(request, ZONES, "key-value cache clusters")

    def cluster(request: Request) -> dict[str, Any]:
        return store.collection.get(zone_of(request), request.path_params["cid"])

    def out(c: dict[str, Any]) -> dict[str, Any]:
        return public(c)

    @routes.get("/clusters")
    async def listing(request: Request) -> Response:
        zone = zone_of(request)
        q = request.query_params
        items = filtered(store.collection.all(zone), q, exact=("version",))
        order = q.get("order_by") or "created_at_asc"
        if order not in ORDER:
            raise invalid_arguments(("order_by", "constraint", f"order_by must be one of {', '.join(ORDER)}"))
        key, rev = ORDER[order]
        items = sorted(items, key=lambda c: c[key], reverse=rev)
        return page(request, "clusters", items, out)

    @routes.post("/clusters")
    async def create(request: Request) -> Response:
        zone = zone_of(request)
        body = await json_body(request)
        errs = check_unknown(body, CREATE_FIELDS)
        for f in ("project_id", "name", "version", "node_type", "user_name", "password"):
            if not body.get(f):
                errs.append((f, "required", f"{f} is required"))
        if errs:
            raise invalid_arguments(*errs)
        if not is_uuid(body["project_id"]):
            errs.append(("project_id", "format", "a UUID"))
        version = store.version(zone, body["version"])
        if version is None:
            errs.append(("version", "constraint", "not a version of GET /cluster-versions"))
        nt = store.node_type(zone, body["node_type"])
        if nt is None or nt["disabled"]:
            errs.append(("node_type", "constraint", "not an available node type"))
        elif nt["stock_status"] == "out_of_stock":
            errs.append(("node_type", "constraint", f"{nt['name']} is out of stock"))
        size = body.get("cluster_size")
        if size is None:
            size = 1
        if not isinstance(size, int) or isinstance(size, bool) or not (size == 1 or 3 <= size <= 6):
            errs.append(("cluster_size", "constraint", "1 for a standalone node, or 3 to 6 for cluster mode"))
            size = 1
        if not isinstance(body["user_name"], str) or len(body["user_name"]) > USER_NAME_MAX:
            errs.append(("user_name", "constraint", f"at most {USER_NAME_MAX} characters"))
        errs += check_password(body["password"])
        errs += check_acls(body.get("acl_rules") or [])
        errs += check_settings(version, body.get("cluster_settings") or [], "cluster_settings")
        errs += check_endpoints(body.get("endpoints") or [], size)
        if any(c["name"] == body["name"] for c in store.clusters[zone].values()):
            errs.append(("name", "constraint", "a cluster of this name exists in this zone"))
        if errs:
            raise invalid_arguments(*errs)
        return JSONResponse(out(store.create(zone, {**body, "cluster_size": size})))

    routes.read("/clusters/{cid}", cluster, out)

    @routes.patch("/clusters/{cid}")
    async def patch(request: Request) -> Response:
        c = cluster(request)
        body = await json_body(request)
        errs = check_unknown(body, {"name", "tags", "user_name", "password"})
        if body.get("password") is not None:
            errs += check_password(body["password"])
        if body.get("tags") is not None and not (
            isinstance(body["tags"], list) and all(isinstance(t, str) for t in body["tags"])
        ):
            errs.append(("tags", "format", "a list of strings"))
        if body.get("name") is not None and (not isinstance(body["name"], str) or not body["name"].strip()):
            errs.append(("name", "constraint", "a name is required"))
        if errs:
            raise invalid_arguments(*errs)
        if body.get("password") is not None:
            c["_password"] = body["password"]
        return JSONResponse(out(store.collection.patch(c, body, ("name", "tags", "user_name"))))

    @routes.delete("/clusters/{cid}")
    async def delete(request: Request) -> Response:
        c = cluster(request)
        store.delete(c)
        return JSONResponse(out(c))

    @routes.post("/clusters/{cid}/migrate")
    async def migrate(request: Request) -> Response:
        c = cluster(request)
        body = await json_body(request)
        errs = check_unknown(body, {"version", "node_type", "cluster_size"})
        given = [k for k in ("version", "node_type", "cluster_size") if body.get(k) is not None]
        if len(given) != 1:
            errs.append(("body", "constraint", "exactly one of version, node_type and cluster_size per request"))
        if errs:
            raise invalid_arguments(*errs)
        store.ready(c)
        field, value = given[0], body[given[0]]
        if field == "version" and value not in c["upgradable_versions"]:
            raise invalid_arguments(
                (
                    "version",
                    "constraint",
                    f"{c['version']} upgrades to {', '.join(c['upgradable_versions']) or 'nothing'}",
                )
            )
        if field == "node_type":
            nt = store.node_type(c["zone"], value)
            if nt is None or nt["disabled"] or nt["stock_status"] == "out_of_stock" or value == c["node_type"]:
                raise invalid_arguments(("node_type", "constraint", "another available node type"))
        if field == "cluster_size":
            if c["cluster_size"] == 1:
                raise invalid_arguments(("cluster_size", "constraint", "a standalone node does not scale horizontally"))
            if (
                not isinstance(value, int)
                or isinstance(value, bool)
                or not 3 <= value <= 6
                or value == c["cluster_size"]
            ):
                raise invalid_arguments(("cluster_size", "constraint", "3 to 6 nodes, other than now"))
        store.migrate(c, {field: value})
        return JSONResponse(out(c))

    @routes.get("/clusters/{cid}/metrics")
    async def metrics(request: Request) -> Response:
        c = cluster(request)
        start, end = window(request.query_params, store.clock.now(), "start_at", "end_at")
        names = pick(request.query_params, list(METRICS))
        out_series = []
        for name in names:
            b, swing, high = METRICS[name]
            for node in range(c["cluster_size"]):
                out_series.append(
                    series(
                        name,
                        c["id"],
                        start,
                        end,
                        store.clock.iso,
                        base=b + node * 2,
                        swing=swing,
                        high=high,
                        metadata={"node": f"node-{node}"},
                    )
                )
        return JSONResponse({"timeseries": out_series})

    @routes.get("/clusters/{cid}/certificate")
    async def cert(request: Request) -> Response:
        c = cluster(request)
        if not c["tls_enabled"]:
            raise not_found("certificate", c["id"])
        return JSONResponse(certificate(f"SSL_{c['name']}.pem", f"{c['name']} #{c['_cert']}"))

    @routes.post("/clusters/{cid}/renew-certificate")
    async def renew(request: Request) -> Response:
        c = cluster(request)
        if not c["tls_enabled"]:
            raise invalid_arguments(("tls_enabled", "constraint", "TLS is not enabled on this cluster"))
        store.ready(c)
        c["_cert"] += 1
        c["updated_at"] = store.clock.iso()
        return JSONResponse(out(c))

    @routes.put("/clusters/{cid}/acls")
    async def set_acls(request: Request) -> Response:
        c = cluster(request)
        body = await checked_body(request, {"acl_rules"}, lambda body: check_acls(body.get("acl_rules")))
        c["acl_rules"] = [
            {"id": store.ids.uuid(), "ip_cidr": r["ip_cidr"], "description": r.get("description") or ""}
            for r in body["acl_rules"]
        ]
        c["updated_at"] = store.clock.iso()
        return JSONResponse({"acl_rules": c["acl_rules"], "total_count": len(c["acl_rules"])})

    @routes.put("/clusters/{cid}/settings")
    async def set_settings(request: Request) -> Response:
        c = cluster(request)
        body = await checked_body(
            request,
            {"settings"},
            lambda body: check_settings(store.version(c["zone"], c["version"]), body.get("settings"), "settings"),
        )
        c["cluster_settings"] = [{"name": s["name"], "value": str(s["value"])} for s in body["settings"]]
        c["updated_at"] = store.clock.iso()
        return JSONResponse({"settings": c["cluster_settings"]})

    @routes.get("/node-types")
    async def list_node_types(request: Request) -> Response:
        zone = zone_of(request)
        items = [
            n
            for n in node_types(zone)
            if _truthy(request.query_params.get("include_disabled_types")) or not n["disabled"]
        ]
        return page(request, "node_types", items, dict)

    @routes.get("/cluster-versions")
    async def list_versions(request: Request) -> Response:
        zone = zone_of(request)
        q = request.query_params
        items = [
            v
            for v in versions(zone)
            if (_truthy(q.get("include_beta")) or not v["beta"])
            and (_truthy(q.get("include_deprecated")) or not v["deprecated"])
            and (not q.get("version") or q["version"] in v["version"])
        ]
        return page(request, "versions", items, public)

    return routes.table()
