"""Users, databases, privileges, ACL rules, settings, backups, snapshots and the catalogue of the
sandbox's relational databases (spec 2 §4.3 and its behavioural rules; spec/4 shapes)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..core import check_unknown, json_body, page_page_size, public
from ..errors import invalid_arguments, invalid_request, not_found
from ..timeseries import parse_time
from . import catalog, rules
from .routes_instances import ordered, region_of
from .store import RdbStore, transient

ACL_DEFAULTS = {"port": 5432, "protocol": "tcp", "direction": "inbound", "action": "allow"}


def _page(request: Request, key: str, items: list[dict[str, Any]]) -> Response:
    return page_page_size(request, key, items, public)


def routes(store: RdbStore) -> list[Route]:
    base = "/rdb/v1/regions/{region}"

    def instance(request: Request) -> dict[str, Any]:
        return store.instance(region_of(request), request.path_params["iid"])

    def expiry(body: dict[str, Any]) -> str | None:
        at = parse_time(body.get("expires_at"), "expires_at")
        if at is not None and at <= store.now():
            raise invalid_arguments(("expires_at", "constraint", "expires_at must be in the future"))
        return store.iso(at) if at is not None else None

    def rename(obj: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
        """PATCH of a backup or a snapshot: its name and expiry."""
        errs = check_unknown(body, {"name", "expires_at"})
        if "name" in body and (not isinstance(body["name"], str) or not body["name"].strip()):
            errs.append(("name", "constraint", "a name is required"))
        if errs:
            raise invalid_arguments(*errs)
        if body.get("name"):
            obj["name"] = body["name"]
        if "expires_at" in body:
            obj["expires_at"] = expiry(body)
        obj["updated_at"] = store.iso()
        return obj

    async def names_in(request: Request, key: str, what: str) -> list[Any]:
        """The body of a DELETE that names what to remove: `{key: [...]}`, not empty."""
        body = await json_body(request)
        values = body.get(key)
        errs = check_unknown(body, {key})
        if not isinstance(values, list) or not values:
            errs.append((key, "required", what))
        if errs:
            raise invalid_arguments(*errs)
        return values

    def copies_listing(table: dict[str, dict[str, dict[str, Any]]], get: Any, key: str) -> Any:
        """GET of backups or snapshots: the region's, filtered by `instance_id` and `name`, ordered."""
        async def listing(request: Request) -> Response:
            region, q = region_of(request), request.query_params
            items = store.live(region, table, get)
            if q.get("instance_id"):
                items = [x for x in items if x["instance_id"] == q["instance_id"]]
            if q.get("name"):
                items = [x for x in items if q["name"].lower() in x["name"].lower()]
            return _page(request, key, ordered(request, items))

        return listing

    def delete_later(obj: dict[str, Any]) -> dict[str, Any]:
        """DELETE of a backup or a snapshot: deleting now, gone after a while."""
        return obj if obj["status"] == "deleting" else store.delete_later(obj)

    # ---- catalogue ----------------------------------------------------------------------------------
    async def engines(request: Request) -> Response:
        region = region_of(request)
        items = catalog.engines(region)
        if request.query_params.get("name"):
            items = [e for e in items if e["name"] == request.query_params["name"]]
        return _page(request, "engines", items)

    async def node_types(request: Request) -> Response:
        region = region_of(request)
        show_disabled = (request.query_params.get("include_disabled_types") or "").lower() == "true"
        return _page(request, "node_types", [n for n in catalog.node_types(region) if show_disabled or not n["disabled"]])

    # ---- users ----------------------------------------------------------------------------------------
    async def users(request: Request) -> Response:
        i = instance(request)
        items = [{"name": u["name"], "is_admin": u["is_admin"]} for u in sorted(i["_users"].values(), key=lambda u: u["name"])]
        if request.query_params.get("name"):
            items = [u for u in items if request.query_params["name"] in u["name"]]
        return _page(request, "users", items)

    async def create_user(request: Request) -> Response:
        i = instance(request)
        body = await json_body(request)
        errs = check_unknown(body, {"name", "password", "is_admin"}) + rules.user_name(body.get("name")) + rules.password(body.get("password"))
        if errs:
            raise invalid_arguments(*errs)
        if body["name"] in i["_users"]:
            raise invalid_arguments(("name", "constraint", f"user {body['name']} exists"))
        store.ready(i)
        i["_users"][body["name"]] = {"name": body["name"], "is_admin": bool(body.get("is_admin")), "_password": body["password"]}
        return JSONResponse({"name": body["name"], "is_admin": bool(body.get("is_admin"))})

    def user(i: dict[str, Any], name: str) -> dict[str, Any]:
        u = i["_users"].get(name)
        if u is None:
            raise not_found("user", name)
        return u

    async def update_user(request: Request) -> Response:
        i = instance(request)
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

    async def delete_user(request: Request) -> Response:
        i = instance(request)
        u = user(i, request.path_params["name"])
        del i["_users"][u["name"]]
        i["_privs"] = {k: v for k, v in i["_privs"].items() if k[0] != u["name"]}
        return Response(status_code=204)

    # ---- databases --------------------------------------------------------------------------------------
    async def databases(request: Request) -> Response:
        i = instance(request)
        items = sorted(i["_dbs"].values(), key=lambda d: d["name"])
        q = request.query_params
        if q.get("managed") in ("true", "false"):
            items = [d for d in items if d["managed"] == (q["managed"] == "true")]
        return _page(request, "databases", items)

    async def create_database(request: Request) -> Response:
        i = instance(request)
        body = await json_body(request)
        errs = check_unknown(body, {"name"}) + rules.db_name(body.get("name"))
        if errs:
            raise invalid_arguments(*errs)
        if body["name"] in i["_dbs"]:
            raise invalid_arguments(("name", "constraint", f"database {body['name']} exists"))
        store.ready(i)
        db = {"name": body["name"], "owner": "_rdb_superadmin", "managed": True, "size": 7_725_568}
        i["_dbs"][db["name"]] = db
        return JSONResponse(db)

    async def delete_database(request: Request) -> Response:
        i = instance(request)
        name = request.path_params["name"]
        if name not in i["_dbs"]:
            raise not_found("database", name)
        del i["_dbs"][name]
        i["_privs"] = {k: v for k, v in i["_privs"].items() if k[1] != name}
        return Response(status_code=204)

    # ---- privileges ---------------------------------------------------------------------------------------
    async def privileges(request: Request) -> Response:
        i = instance(request)
        q = request.query_params
        items = [{"permission": i["_privs"].get((u, d), "none"), "database_name": d, "user_name": u}
                 for u in sorted(i["_users"]) for d in sorted(i["_dbs"])
                 if (not q.get("user_name") or q["user_name"] == u) and (not q.get("database_name") or q["database_name"] == d)]
        return _page(request, "privileges", items)

    async def set_privilege(request: Request) -> Response:
        i = instance(request)
        body = await json_body(request)
        errs = check_unknown(body, {"database_name", "user_name", "permission"}) + rules.required(body, "database_name", "user_name", "permission")
        if not errs and body["permission"] not in rules.PERMISSIONS:
            errs.append(("permission", "constraint", f"one of {', '.join(rules.PERMISSIONS)}"))
        if errs:
            raise invalid_arguments(*errs)
        user(i, body["user_name"])
        store.refuse_unless_managed(i, body["database_name"])
        i["_privs"][(body["user_name"], body["database_name"])] = body["permission"]
        return JSONResponse({"permission": body["permission"], "database_name": body["database_name"], "user_name": body["user_name"]})

    # ---- ACL rules ----------------------------------------------------------------------------------------
    def rule_out(r: dict[str, Any]) -> dict[str, Any]:
        return {"ip": r["ip"], **ACL_DEFAULTS, "description": r.get("description") or ""}

    async def acls(request: Request) -> Response:
        return _page(request, "rules", [rule_out(r) for r in instance(request)["_acls"]])

    async def add_acls(request: Request) -> Response:
        i = instance(request)
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
        return JSONResponse({"rules": [rule_out(r) for r in added]})

    async def set_acls(request: Request) -> Response:
        i = instance(request)
        body = await json_body(request)
        errs = check_unknown(body, {"rules"}) + rules.acl_rules(body.get("rules"))
        if errs:
            raise invalid_arguments(*errs)
        i["_acls"] = [{"ip": r["ip"], "description": r.get("description") or ""} for r in body["rules"]]
        return JSONResponse({"rules": [rule_out(r) for r in i["_acls"]]})

    async def delete_acls(request: Request) -> Response:
        i = instance(request)
        ips = await names_in(request, "acl_rule_ips", "the IPs of the rules to remove")
        missing = [ip for ip in ips if ip not in {r["ip"] for r in i["_acls"]}]
        if missing:
            raise not_found("acl_rule", str(missing[0]))
        removed = [r for r in i["_acls"] if r["ip"] in ips]
        i["_acls"] = [r for r in i["_acls"] if r["ip"] not in ips]
        return JSONResponse({"rules": [rule_out(r) for r in removed]})

    # ---- settings -----------------------------------------------------------------------------------------
    def version_of(i: dict[str, Any]) -> dict[str, Any] | None:
        return catalog.version(i["region"], i["engine"])

    async def settings_in(request: Request, i: dict[str, Any]) -> list[dict[str, Any]]:
        """The settings a POST or PUT sends, each checked against the engine version; the instance ready."""
        body = await json_body(request)
        errs = check_unknown(body, {"settings"}) + rules.settings(version_of(i), body.get("settings"))
        if errs:
            raise invalid_arguments(*errs)
        store.ready(i)
        return body["settings"]

    async def add_settings(request: Request) -> Response:
        i = instance(request)
        current = {s["name"]: s for s in i["settings"]}
        for s in await settings_in(request, i):
            current[s["name"]] = {"name": s["name"], "value": str(s["value"])}
        i["settings"] = list(current.values())
        return JSONResponse({"settings": i["settings"]})

    async def set_settings(request: Request) -> Response:
        i = instance(request)
        i["settings"] = [{"name": s["name"], "value": str(s["value"])} for s in await settings_in(request, i)]
        return JSONResponse({"settings": i["settings"]})

    async def delete_settings(request: Request) -> Response:
        i = instance(request)
        names = await names_in(request, "setting_names", "the names of the settings to set back to their defaults")
        i["settings"] = [s for s in i["settings"] if s["name"] not in names]
        return JSONResponse({"settings": i["settings"]})

    # ---- backups --------------------------------------------------------------------------------------------
    def backup(request: Request) -> dict[str, Any]:
        return store.backup(region_of(request), request.path_params["bid"])

    list_backups = copies_listing(store.backups, store.backup, "database_backups")

    async def create_backup(request: Request) -> Response:
        region = region_of(request)
        body = await json_body(request)
        errs = check_unknown(body, {"instance_id", "database_name", "name", "expires_at"}) + rules.required(body, "instance_id", "database_name")
        if errs:
            raise invalid_arguments(*errs)
        i = store.instance(region, str(body["instance_id"]))
        if body["database_name"] not in i["_dbs"]:
            raise invalid_arguments(("database_name", "constraint", f"no database {body['database_name']} on {i['name']}"))
        store.ready(i)
        name = body.get("name") or f"{body['database_name']}-{store.iso()[:19]}"
        return JSONResponse(public(store.create_backup(i, body["database_name"], name, expiry(body))))

    async def get_backup(request: Request) -> Response:
        return JSONResponse(public(backup(request)))

    async def update_backup(request: Request) -> Response:
        return JSONResponse(public(rename(backup(request), await json_body(request))))

    async def delete_backup(request: Request) -> Response:
        return JSONResponse(public(delete_later(backup(request))))

    def backup_ready(b: dict[str, Any]) -> None:
        if b["status"] != "ready":
            raise transient("database_backup", b)

    async def export_backup(request: Request) -> Response:
        b = backup(request)
        backup_ready(b)
        b["status"] = "exporting"
        store.timeline.plan(b, (store.t.export, {"status": "ready", **store.export_url(b)}))
        return JSONResponse(public(b))

    async def restore_backup(request: Request) -> Response:
        region = region_of(request)
        b = backup(request)
        body = await json_body(request)
        errs = check_unknown(body, {"instance_id", "database_name"}) + rules.required(body, "instance_id")
        if body.get("database_name") is not None:
            errs += rules.db_name(body["database_name"], "database_name")
        if errs:
            raise invalid_arguments(*errs)
        backup_ready(b)
        target = store.instance(region, str(body["instance_id"]))
        family = str(b.get("_engine", "")).partition("-")[0]
        if family and target["engine"].partition("-")[0] != family:
            raise invalid_arguments(("instance_id", "constraint", f"a {family} backup restores only to a {family} instance, not {target['engine']}"))
        store.ready(target)
        missing = [u for u in b["_users"] if u not in target["_users"]]
        if missing:
            raise invalid_request(f"the backup's users are missing on {target['name']}: {', '.join(missing)} (create users of the same names first)")
        name = body.get("database_name") or b["database_name"]
        target["_dbs"].setdefault(name, {"name": name, "owner": "_rdb_superadmin", "managed": True, "size": b["size"]})
        b["status"] = "restoring"
        store.timeline.plan(b, (store.t.restore, {"status": "ready"}))
        return JSONResponse(public(b))

    # ---- snapshots --------------------------------------------------------------------------------------------
    def snapshot(request: Request) -> dict[str, Any]:
        return store.snapshot(region_of(request), request.path_params["sid"])

    list_snapshots = copies_listing(store.snapshots, store.snapshot, "snapshots")

    async def create_snapshot(request: Request) -> Response:
        i = instance(request)
        body = await json_body(request)
        errs = check_unknown(body, {"name", "expires_at"})
        if errs:
            raise invalid_arguments(*errs)
        if i["volume"]["type"] != "bssd":
            raise invalid_request("a snapshot copies a block volume: this instance has a local volume (lssd)")
        store.ready(i, also=())
        name = body.get("name") or f"{i['name']}-{store.iso()[:19]}"
        return JSONResponse(public(store.create_snapshot(i, name, expiry(body))))

    async def get_snapshot(request: Request) -> Response:
        return JSONResponse(public(snapshot(request)))

    async def update_snapshot(request: Request) -> Response:
        return JSONResponse(public(rename(snapshot(request), await json_body(request))))

    async def delete_snapshot(request: Request) -> Response:
        return JSONResponse(public(delete_later(snapshot(request))))

    async def instance_from_snapshot(request: Request) -> Response:
        region = region_of(request)
        s = snapshot(request)
        body = await json_body(request)
        errs = check_unknown(body, {"instance_name", "is_ha_cluster", "node_type"}) + rules.required(body, "instance_name")
        nt = catalog.node_type(region, body.get("node_type") or s["node_type"])
        if nt is None or nt["disabled"] or nt["stock_status"] == "out_of_stock":
            errs.append(("node_type", "constraint", "an available node type"))
        elif nt["is_ha_required"] and not body.get("is_ha_cluster"):
            errs.append(("is_ha_cluster", "constraint", f"{nt['name']} runs only as a high-availability cluster"))
        if errs:
            raise invalid_arguments(*errs)
        if s["status"] != "ready":
            raise transient("snapshot", s)
        new = store.create_instance(region, {"name": body["instance_name"], "engine": s["_engine"], "node_type": nt["name"],
                                             "is_ha_cluster": bool(body.get("is_ha_cluster")), "volume_type": "bssd", "volume_size": s["size"]})
        return JSONResponse(store.public_instance(new))

    iid = base + "/instances/{iid}"
    return [
        Route(base + "/database-engines", engines, methods=["GET"]),
        Route(base + "/node-types", node_types, methods=["GET"]),
        Route(iid + "/users", users, methods=["GET"]),
        Route(iid + "/users", create_user, methods=["POST"]),
        Route(iid + "/users/{name}", update_user, methods=["PATCH"]),
        Route(iid + "/users/{name}", delete_user, methods=["DELETE"]),
        Route(iid + "/databases", databases, methods=["GET"]),
        Route(iid + "/databases", create_database, methods=["POST"]),
        Route(iid + "/databases/{name}", delete_database, methods=["DELETE"]),
        Route(iid + "/privileges", privileges, methods=["GET"]),
        Route(iid + "/privileges", set_privilege, methods=["PUT"]),
        Route(iid + "/acls", acls, methods=["GET"]),
        Route(iid + "/acls", add_acls, methods=["POST"]),
        Route(iid + "/acls", set_acls, methods=["PUT"]),
        Route(iid + "/acls", delete_acls, methods=["DELETE"]),
        Route(iid + "/settings", add_settings, methods=["POST"]),
        Route(iid + "/settings", set_settings, methods=["PUT"]),
        Route(iid + "/settings", delete_settings, methods=["DELETE"]),
        Route(base + "/backups", list_backups, methods=["GET"]),
        Route(base + "/backups", create_backup, methods=["POST"]),
        Route(base + "/backups/{bid}", get_backup, methods=["GET"]),
        Route(base + "/backups/{bid}", update_backup, methods=["PATCH"]),
        Route(base + "/backups/{bid}", delete_backup, methods=["DELETE"]),
        Route(base + "/backups/{bid}/export", export_backup, methods=["POST"]),
        Route(base + "/backups/{bid}/restore", restore_backup, methods=["POST"]),
        Route(iid + "/snapshots", create_snapshot, methods=["POST"]),
        Route(base + "/snapshots", list_snapshots, methods=["GET"]),
        Route(base + "/snapshots/{sid}", get_snapshot, methods=["GET"]),
        Route(base + "/snapshots/{sid}", update_snapshot, methods=["PATCH"]),
        Route(base + "/snapshots/{sid}", delete_snapshot, methods=["DELETE"]),
        Route(base + "/snapshots/{sid}/create-instance", instance_from_snapshot, methods=["POST"]),
    ]
