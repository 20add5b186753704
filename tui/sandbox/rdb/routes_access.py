"""Users, databases, privileges, ACL rules and settings of a relational-database instance, and the
catalogue of engines and node types (spec 2 §4.3 and its behavioural rules; spec/4 shapes)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..core import check_unknown, checked_body, json_body, page_page_size, public
from ..errors import invalid_arguments, not_found, or_not_found
from ..routing import Routes
from . import catalog, rules
from .requests import PREFIX, instance_of, region_of
from .store import RdbStore

ACL_DEFAULTS = {"protocol": "tcp", "direction": "inbound", "action": "allow"}


def _page(request: Request, key: str, items: list[dict[str, Any]]) -> Response:
    return page_page_size(request, key, items, public)


def routes(store: RdbStore) -> list[Route]:
    routes = Routes(PREFIX)

    async def names_in(request: Request, key: str, what: str) -> list[Any]:
        """The body of a DELETE that names what to remove: `{key: [...]}`, not empty."""
        body = await json_body(request)
        values = body.get(key)
        errs = check_unknown(body, {key})
        if not isinstance(values, list) or not values:
            errs.append((key, "required", what))
        if errs:
            raise invalid_arguments(*errs)
        assert values is not None  # refused above otherwise
        return values

    # ---- catalogue ----------------------------------------------------------------------------------
    @routes.get("/database-engines")
    async def engines(request: Request) -> Response:
        region = region_of(request)
        items = catalog.engines(region)
        if request.query_params.get("name"):
            items = [e for e in items if e["name"] == request.query_params["name"]]
        return _page(request, "engines", items)

    @routes.get("/node-types")
    async def node_types(request: Request) -> Response:
        region = region_of(request)
        show_disabled = (request.query_params.get("include_disabled_types") or "").lower() == "true"
        return _page(
            request, "node_types", [n for n in catalog.node_types(region) if show_disabled or not n["disabled"]]
        )

    # ---- users ----------------------------------------------------------------------------------------
    @routes.get("/instances/{iid}/users")
    async def users(request: Request) -> Response:
        i = instance_of(store, request)
        items = [
            {"name": u["name"], "is_admin": u["is_admin"]}
            for u in sorted(i["_users"].values(), key=lambda u: u["name"])
        ]
        if request.query_params.get("name"):
            items = [u for u in items if request.query_params["name"] in u["name"]]
        return _page(request, "users", items)

    @routes.post("/instances/{iid}/users")
    async def create_user(request: Request) -> Response:
        i = instance_of(store, request)
        body = await checked_body(
            request,
            {"name", "password", "is_admin"},
            lambda body: rules.user_name(body.get("name")) + rules.password(body.get("password")),
        )
        if body["name"] in i["_users"]:
            raise invalid_arguments(("name", "constraint", f"user {body['name']} exists"))
        store.ready(i)
        i["_users"][body["name"]] = {
            "name": body["name"],
            "is_admin": bool(body.get("is_admin")),
            "_password": body["password"],
        }
        return JSONResponse({"name": body["name"], "is_admin": bool(body.get("is_admin"))})

    def user(i: dict[str, Any], name: str) -> dict[str, Any]:
        return or_not_found(i["_users"].get(name), "user", name)

    @routes.patch("/instances/{iid}/users/{name}")
    async def update_user(request: Request) -> Response:
        i = instance_of(store, request)
        u = user(i, request.path_params["name"])
        body = await json_body(request)
        errs = check_unknown(body, {"password", "is_admin"})
        if body.get("password") is not None:
            errs += rules.password(body["password"])
        if errs:
            raise invalid_arguments(*errs)
        if body.get("password") is not None:
            u["_password"] = body["password"]
        if body.get("is_admin") is not None:
            u["is_admin"] = bool(body["is_admin"])
        return JSONResponse({"name": u["name"], "is_admin": u["is_admin"]})

    @routes.delete("/instances/{iid}/users/{name}")
    async def delete_user(request: Request) -> Response:
        i = instance_of(store, request)
        u = user(i, request.path_params["name"])
        del i["_users"][u["name"]]
        i["_privs"] = {k: v for k, v in i["_privs"].items() if k[0] != u["name"]}
        return Response(status_code=204)

    # ---- databases --------------------------------------------------------------------------------------
    @routes.get("/instances/{iid}/databases")
    async def databases(request: Request) -> Response:
        i = instance_of(store, request)
        items = sorted(i["_dbs"].values(), key=lambda d: d["name"])
        q = request.query_params
        if q.get("managed") in ("true", "false"):
            items = [d for d in items if d["managed"] == (q["managed"] == "true")]
        return _page(request, "databases", items)

    @routes.post("/instances/{iid}/databases")
    async def create_database(request: Request) -> Response:
        i = instance_of(store, request)
        body = await checked_body(request, {"name"}, lambda body: rules.db_name(body.get("name")))
        if body["name"] in i["_dbs"]:
            raise invalid_arguments(("name", "constraint", f"database {body['name']} exists"))
        store.ready(i)
        db = {"name": body["name"], "owner": "_rdb_superadmin", "managed": True, "size": 7_725_568}
        i["_dbs"][db["name"]] = db
        return JSONResponse(db)

    @routes.delete("/instances/{iid}/databases/{name}")
    async def delete_database(request: Request) -> Response:
        i = instance_of(store, request)
        name = request.path_params["name"]
        if name not in i["_dbs"]:
            raise not_found("database", name)
        del i["_dbs"][name]
        i["_privs"] = {k: v for k, v in i["_privs"].items() if k[1] != name}
        return Response(status_code=204)

    # ---- privileges ---------------------------------------------------------------------------------------
    @routes.get("/instances/{iid}/privileges")
    async def privileges(request: Request) -> Response:
        i = instance_of(store, request)
        q = request.query_params
        items = [
            {"permission": i["_privs"].get((u, d), "none"), "database_name": d, "user_name": u}
            for u in sorted(i["_users"])
            for d in sorted(i["_dbs"])
            if (not q.get("user_name") or q["user_name"] == u)
            and (not q.get("database_name") or q["database_name"] == d)
        ]
        return _page(request, "privileges", items)

    @routes.put("/instances/{iid}/privileges")
    async def set_privilege(request: Request) -> Response:
        i = instance_of(store, request)
        body = await json_body(request)
        errs = check_unknown(body, {"database_name", "user_name", "permission"}) + rules.required(
            body, "database_name", "user_name", "permission"
        )
        if not errs and body["permission"] not in rules.PERMISSIONS:
            errs.append(("permission", "constraint", f"one of {', '.join(rules.PERMISSIONS)}"))
        if errs:
            raise invalid_arguments(*errs)
        user(i, body["user_name"])
        store.refuse_unless_managed(i, body["database_name"])
        i["_privs"][(body["user_name"], body["database_name"])] = body["permission"]
        return JSONResponse(
            {"permission": body["permission"], "database_name": body["database_name"], "user_name": body["user_name"]}
        )

    # ---- ACL rules ----------------------------------------------------------------------------------------
    def rule_out(r: dict[str, Any], i: dict[str, Any]) -> dict[str, Any]:
        return {
            "ip": r["ip"],
            "port": catalog.port_of(i["engine"]),
            **ACL_DEFAULTS,
            "description": r.get("description") or "",
        }

    @routes.get("/instances/{iid}/acls")
    async def acls(request: Request) -> Response:
        i = instance_of(store, request)
        return _page(request, "rules", [rule_out(r, i) for r in i["_acls"]])

    @routes.post("/instances/{iid}/acls")
    async def add_acls(request: Request) -> Response:
        i = instance_of(store, request)
        body = await json_body(request)
        errs = check_unknown(body, {"rules"}) + rules.acl_rules(body.get("rules"))
        if not errs:
            taken = {r["ip"] for r in i["_acls"]}
            clash = [r["ip"] for r in body["rules"] if r["ip"] in taken]
            if clash:
                errs.append(("rules", "constraint", f"{clash[0]} is already allowed"))
        if errs:
            raise invalid_arguments(*errs)
        added = [{"ip": r["ip"], "description": r.get("description") or ""} for r in body["rules"]]
        i["_acls"].extend(added)
        return JSONResponse({"rules": [rule_out(r, i) for r in added]})

    @routes.put("/instances/{iid}/acls")
    async def set_acls(request: Request) -> Response:
        i = instance_of(store, request)
        body = await checked_body(request, {"rules"}, lambda body: rules.acl_rules(body.get("rules")))
        i["_acls"] = [{"ip": r["ip"], "description": r.get("description") or ""} for r in body["rules"]]
        return JSONResponse({"rules": [rule_out(r, i) for r in i["_acls"]]})

    @routes.delete("/instances/{iid}/acls")
    async def delete_acls(request: Request) -> Response:
        i = instance_of(store, request)
        ips = await names_in(request, "acl_rule_ips", "the IPs of the rules to remove")
        missing = [ip for ip in ips if ip not in {r["ip"] for r in i["_acls"]}]
        if missing:
            raise not_found("acl_rule", str(missing[0]))
        removed = [r for r in i["_acls"] if r["ip"] in ips]
        i["_acls"] = [r for r in i["_acls"] if r["ip"] not in ips]
        return JSONResponse({"rules": [rule_out(r, i) for r in removed]})

    # ---- settings -----------------------------------------------------------------------------------------
    def version_of(i: dict[str, Any]) -> dict[str, Any] | None:
        return catalog.version(i["region"], i["engine"])

    async def settings_in(request: Request, i: dict[str, Any]) -> list[dict[str, Any]]:
        """The settings a POST or PUT sends, each checked against the engine version; the instance ready."""
        body = await checked_body(
            request, {"settings"}, lambda body: rules.settings(version_of(i), body.get("settings"))
        )
        store.ready(i)
        return body["settings"]

    @routes.post("/instances/{iid}/settings")
    async def add_settings(request: Request) -> Response:
        i = instance_of(store, request)
        current = {s["name"]: s for s in i["settings"]}
        for s in await settings_in(request, i):
            current[s["name"]] = {"name": s["name"], "value": str(s["value"])}
        i["settings"] = list(current.values())
        return JSONResponse({"settings": i["settings"]})

    @routes.put("/instances/{iid}/settings")
    async def set_settings(request: Request) -> Response:
        i = instance_of(store, request)
        i["settings"] = [{"name": s["name"], "value": str(s["value"])} for s in await settings_in(request, i)]
        return JSONResponse({"settings": i["settings"]})

    @routes.delete("/instances/{iid}/settings")
    async def delete_settings(request: Request) -> Response:
        i = instance_of(store, request)
        names = await names_in(request, "setting_names", "the names of the settings to set back to their defaults")
        i["settings"] = [s for s in i["settings"] if s["name"] not in names]
        return JSONResponse({"settings": i["settings"]})

    return routes.table()
