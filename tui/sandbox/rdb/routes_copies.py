"""Backups (with export and restore) and snapshots of relational-database instances (spec 2 §4.3;
spec/4 shapes): each created, renamed and deleted through `deleting` with the clock."""

from __future__ import annotations

from typing import Any, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..collection import between_pages, matching, ordered
from ..core import check_unknown, checked_body, json_body, page_page_size, public
from ..errors import invalid_arguments, invalid_request
from ..routing import Routes
from ..timeseries import parse_time
from . import catalog, rules
from .requests import PREFIX, instance_of, region_of
from .store import RdbStore, transient


def routes(store: RdbStore) -> list[Route]:
    routes = Routes(PREFIX)

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

    def copies(
        plural: str,
        param: str,
        table: dict[str, dict[str, dict[str, Any]]],
        get: Callable[[str, str], dict[str, Any]],
        key: str,
    ) -> Callable[[Request], dict[str, Any]]:
        """The routes backups and snapshots share under `/{plural}`: the region's, filtered by
        `instance_id` and `name`, ordered; one read, renamed, deleted (now deleting, gone after a
        while). Returns the one in a request's path."""

        def one(request: Request) -> dict[str, Any]:
            return get(region_of(request), request.path_params[param])

        @routes.get(f"/{plural}")
        async def listing(request: Request) -> Response:
            region = region_of(request)
            items = between_pages(
                request,
                store.timeline,
                lambda: ordered(request, matching(request, store.live(region, table, get), "instance_id")),
            )
            return page_page_size(request, key, items, public)

        routes.read(f"/{plural}/{{{param}}}", one, public)

        @routes.patch(f"/{plural}/{{{param}}}")
        async def update(request: Request) -> Response:
            return JSONResponse(public(rename(one(request), await json_body(request))))

        @routes.delete(f"/{plural}/{{{param}}}")
        async def delete(request: Request) -> Response:
            obj = one(request)
            if obj["status"] == "locked":  # held by the platform (as a locked instance or server is)
                raise invalid_request(f"the {plural[:-1]} is locked")
            return JSONResponse(public(obj if obj["status"] == "deleting" else store.delete_later(obj)))

        return one

    # ---- backups --------------------------------------------------------------------------------------------
    backup = copies("backups", "bid", store.backups, store.backup, "database_backups")

    @routes.post("/backups")
    async def create_backup(request: Request) -> Response:
        region = region_of(request)
        body = await checked_body(
            request,
            {"instance_id", "database_name", "name", "expires_at"},
            lambda body: rules.required(body, "instance_id", "database_name"),
        )
        i = store.instance(region, str(body["instance_id"]))
        if body["database_name"] not in i["_dbs"]:
            raise invalid_arguments(
                ("database_name", "constraint", f"no database {body['database_name']} on {i['name']}")
            )
        store.ready(i)
        name = body.get("name") or f"{body['database_name']}-{store.iso()[:19]}"
        return JSONResponse(public(store.create_backup(i, body["database_name"], name, expiry(body))))

    def backup_ready(b: dict[str, Any]) -> None:
        if b["status"] != "ready":
            raise transient("database_backup", b)

    @routes.post("/backups/{bid}/export")
    async def export_backup(request: Request) -> Response:
        b = backup(request)
        backup_ready(b)
        b["status"] = "exporting"
        store.timeline.plan(b, (store.t.export, {"status": "ready", **store.export_url(b)}))
        return JSONResponse(public(b))

    @routes.post("/backups/{bid}/restore")
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
            raise invalid_arguments(
                (
                    "instance_id",
                    "constraint",
                    f"a {family} backup restores only to a {family} instance, not {target['engine']}",
                )
            )
        store.ready(target)
        missing = [u for u in b["_users"] if u not in target["_users"]]
        if missing:
            raise invalid_request(
                f"the backup's users are missing on {target['name']}: {', '.join(missing)} "
                "(create users of the same names first)"
            )
        name = body.get("database_name") or b["database_name"]
        target["_dbs"].setdefault(name, {"name": name, "owner": "_rdb_superadmin", "managed": True, "size": b["size"]})
        b["status"] = "restoring"
        store.timeline.plan(b, (store.t.restore, {"status": "ready"}))
        return JSONResponse(public(b))

    # ---- snapshots --------------------------------------------------------------------------------------------
    snapshot = copies("snapshots", "sid", store.snapshots, store.snapshot, "snapshots")

    @routes.post("/instances/{iid}/snapshots")
    async def create_snapshot(request: Request) -> Response:
        i = instance_of(store, request)
        body = await checked_body(request, {"name", "expires_at"})
        if i["volume"]["type"] != "bssd":
            raise invalid_request("a snapshot copies a block volume: this instance has a local volume (lssd)")
        store.ready(i, also=())
        name = body.get("name") or f"{i['name']}-{store.iso()[:19]}"
        return JSONResponse(public(store.create_snapshot(i, name, expiry(body))))

    @routes.post("/snapshots/{sid}/create-instance")
    async def instance_from_snapshot(request: Request) -> Response:
        region = region_of(request)
        s = snapshot(request)
        body = await json_body(request)
        errs = check_unknown(
            body, {"instance_name", "is_ha_cluster", "node_type", "high_availability_mode"}
        ) + rules.required(body, "instance_name")
        ha_errs, is_ha = rules.high_availability(body)
        errs += ha_errs
        nt = catalog.node_type(region, body.get("node_type") or s["node_type"])
        if nt is None or nt["disabled"] or nt["stock_status"] == "out_of_stock":
            errs.append(("node_type", "constraint", "an available node type"))
        elif nt["is_ha_required"] and not is_ha:
            errs.append(("is_ha_cluster", "constraint", f"{nt['name']} runs only as a high-availability cluster"))
        if errs:
            raise invalid_arguments(*errs)
        assert nt is not None  # refused above otherwise
        if s["status"] != "ready":
            raise transient("snapshot", s)
        new = store.create_instance(
            region,
            {
                "name": body["instance_name"],
                "engine": s["_engine"],
                "node_type": nt["name"],
                "is_ha_cluster": is_ha,
                "volume_type": "bssd",
                "volume_size": s["size"],
            },
        )
        return JSONResponse(store.public_instance(new))

    return routes.table()
