"""Relational-database instances: create, list, update, delete, restart, maintenance, upgrade,
clone, metrics and certificate (spec 2 §4.3); endpoints, replicas and logs have their own modules."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..collection import matching, ordered
from ..core import check_unknown, is_uuid, json_body, page_page_size
from ..errors import invalid_arguments, invalid_request
from ..routing import Routes
from ..timeseries import certificate, pick, series, window
from . import catalog, rules
from .requests import PREFIX, instance_of, region_of
from .store import RdbStore

CREATE = {
    "project_id",
    "organization_id",
    "name",
    "engine",
    "node_type",
    "is_ha_cluster",
    "disable_backup",
    "tags",
    "user_name",
    "password",
    "volume_type",
    "volume_size",
    "init_settings",
    "init_endpoints",
    "backup_same_region",
    "encryption",
    "high_availability_mode",
}
UPDATE = {
    "name",
    "tags",
    "backup_schedule_frequency",
    "backup_schedule_retention",
    "is_backup_schedule_disabled",
    "logs_policy",
    "backup_same_region",
    "backup_schedule_start_hour",
}
# UpgradeInstanceRequest's one-of, in the public client's order (it sends the first it is given)
UPGRADE = (
    "node_type",
    "enable_ha",
    "high_availability_mode",
    "volume_size",
    "volume_type",
    "upgradable_version_id",
    "major_upgrade_workflow",
    "enable_encryption",
)
NOT_ASKED = {"high_availability_mode": "unknown_high_availability_mode"}  # the client's default mode asks for nothing
STRICT = ("disk_full",)  # what a restart, an upgrade or a clone waits for: nothing else under way


def check_volume(
    nt: dict[str, Any] | None, volume_type: object, size: object, field: str = "volume_size"
) -> list[rules.Detail]:
    if volume_type not in ("lssd", "bssd"):
        return [("volume_type", "constraint", "lssd or bssd")]
    if nt is None:
        return []
    vt = next((v for v in nt["available_volume_types"] if v["type"] == volume_type), None)
    if vt is None:
        return [
            (
                "volume_type",
                "constraint",
                f"{nt['name']} takes {', '.join(v['type'] for v in nt['available_volume_types'])}",
            )
        ]
    if volume_type == "lssd":
        # the public clients always send a size (CreateInstanceRequest.volume_size is required): 0 with a local volume
        return (
            [(field, "constraint", "a size is given only with a block volume (bssd)")] if size not in (None, 0) else []
        )
    if not isinstance(size, int) or isinstance(size, bool):
        return [(field, "required", "a block volume (bssd) needs a size in bytes")]
    if not vt["min_size"] <= size <= vt["max_size"] or size % vt["chunk_size"]:
        return [
            (
                field,
                "constraint",
                f"{vt['min_size'] // catalog.GB} to {vt['max_size'] // catalog.GB} GB in steps of "
                f"{vt['chunk_size'] // catalog.GB} GB",
            )
        ]
    return []


def routes(store: RdbStore) -> list[Route]:
    routes = Routes(PREFIX)

    def out(i: dict[str, Any]) -> dict[str, Any]:
        return store.public_instance(i)

    @routes.get("/instances")
    async def listing(request: Request) -> Response:
        region = region_of(request)
        q = request.query_params
        items = matching(request, store.all_instances(region))
        wanted = q.getlist("tags")
        if wanted:
            items = [i for i in items if all(t in i["tags"] for t in wanted)]
        return page_page_size(request, "instances", ordered(request, items), out)

    @routes.post("/instances")
    async def create(request: Request) -> Response:
        region = region_of(request)
        body = await json_body(request)
        errs = check_unknown(body, CREATE) + rules.required(
            body, "name", "engine", "node_type", "user_name", "password"
        )
        if errs:
            raise invalid_arguments(*errs)
        if body.get("project_id") is not None and not is_uuid(body["project_id"]):
            errs.append(("project_id", "format", "a UUID"))
        version = catalog.version(region, body["engine"])
        if version is None or version["disabled"]:
            errs.append(("engine", "constraint", "not an available version of GET /database-engines"))
        nt = catalog.node_type(region, body["node_type"])
        if nt is None or nt["disabled"]:
            errs.append(("node_type", "constraint", "not an available node type of GET /node-types"))
            nt = None
        elif nt["stock_status"] == "out_of_stock":
            errs.append(("node_type", "constraint", f"{nt['name']} is out of stock"))
        ha_errs, is_ha = rules.high_availability(body)
        errs += ha_errs
        if nt is not None and nt["is_ha_required"] and not is_ha:
            errs.append(("is_ha_cluster", "constraint", f"{nt['name']} runs only as a high-availability cluster"))
        errs += check_volume(nt, body.get("volume_type") or "lssd", body.get("volume_size"))
        errs += (
            rules.user_name(body["user_name"], "user_name")
            + rules.password(body["password"])
            + rules.tags(body.get("tags"))
        )
        if body.get("init_settings") is not None:
            errs += rules.settings(version, body["init_settings"], "init_settings", init=True)
        if errs:
            raise invalid_arguments(*errs)
        return JSONResponse(out(store.create_instance(region, {**body, "is_ha_cluster": is_ha})))

    routes.read("/instances/{iid}", lambda request: instance_of(store, request), out)

    @routes.patch("/instances/{iid}")
    async def patch(request: Request) -> Response:
        i = instance_of(store, request)
        body = await json_body(request)
        errs = check_unknown(body, UPDATE) + rules.tags(body.get("tags"))
        if "name" in body and (
            not isinstance(body["name"], str) or not body["name"].strip() or len(body["name"]) > 255
        ):
            errs.append(("name", "constraint", "1 to 255 characters"))
        for f, lo, hi in (
            ("backup_schedule_frequency", 1, 24),
            ("backup_schedule_retention", 1, 365),
            ("backup_schedule_start_hour", 0, 23),
        ):
            v = body.get(f)
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi):
                errs.append((f, "constraint", f"a whole number from {lo} to {hi}"))
        if errs:
            raise invalid_arguments(*errs)
        for f in ("name", "tags", "backup_same_region", "logs_policy"):
            if body.get(f) is not None:
                i[f] = body[f]
        sched = i["backup_schedule"]
        for f, k in (
            ("backup_schedule_frequency", "frequency"),
            ("backup_schedule_retention", "retention"),
            ("is_backup_schedule_disabled", "disabled"),
        ):
            if body.get(f) is not None:
                sched[k] = body[f]
        return JSONResponse(out(i))

    @routes.delete("/instances/{iid}")
    async def delete(request: Request) -> Response:
        i = instance_of(store, request)
        if i["status"] != "deleting":
            store.delete_instance(i)
        return JSONResponse(out(i))

    @routes.post("/instances/{iid}/restart")
    async def restart(request: Request) -> Response:
        i = instance_of(store, request)
        store.ready(i, also=STRICT)
        store.busy_for(i, "restarting", store.t.restart)
        return JSONResponse(out(i))

    @routes.post("/instances/{iid}/apply-maintenance")
    async def apply_maintenance(request: Request) -> Response:
        i = instance_of(store, request)
        pending = [m for m in i["maintenances"] if m.get("status") == "pending"]
        if not pending:
            raise invalid_request("no pending maintenance on this instance")
        store.ready(i, also=STRICT)
        m = pending[0]
        m["status"], m["forced_at"] = "ongoing", store.iso()
        store.busy_for(
            i, "configuring", store.t.configure, {"maintenances": [x for x in i["maintenances"] if x is not m]}
        )
        return JSONResponse(m)

    @routes.post("/instances/{iid}/upgrade")
    async def upgrade(request: Request) -> Response:
        i = instance_of(store, request)
        body = await json_body(request)
        errs = check_unknown(body, set(UPGRADE))
        given = [k for k in UPGRADE if body.get(k) is not None and body[k] != NOT_ASKED.get(k)]
        if len(given) != 1:
            errs.append(("body", "constraint", f"exactly one of {', '.join(UPGRADE)}"))
        if errs:
            raise invalid_arguments(*errs)
        store.ready(i, also=STRICT)
        field, value = given[0], body[given[0]]
        then: dict[str, Any] = {}
        if field == "node_type":
            nt = catalog.node_type(i["region"], value)
            if nt is None or nt["disabled"] or nt["stock_status"] == "out_of_stock" or value == i["node_type"]:
                raise invalid_arguments(("node_type", "constraint", "another available node type"))
            if nt["is_ha_required"] and not i["is_ha_cluster"]:
                raise invalid_arguments(
                    ("node_type", "constraint", f"{value} runs only as a high-availability cluster")
                )
            then = {"node_type": value}
        elif field == "enable_ha":
            if value is not True or i["is_ha_cluster"]:
                raise invalid_arguments(
                    ("enable_ha", "constraint", "true, on an instance that is not highly available yet")
                )
            then = {"is_ha_cluster": True}
        elif field == "high_availability_mode":
            if value not in ("single_zone", "multiple_zone") or i["is_ha_cluster"]:
                raise invalid_arguments((field, "constraint", "single_zone or multiple_zone, on a non-HA instance"))
            then = {"is_ha_cluster": True, "high_availability_mode": value}
        elif field == "volume_type":
            if value != "bssd" or i["volume"]["type"] == "bssd":
                raise invalid_arguments(("volume_type", "constraint", "bssd, from a local volume"))
            then = {"volume": {**i["volume"], "type": "bssd", "class": "bssd"}}
        elif field == "volume_size":
            if i["volume"]["type"] != "bssd":
                raise invalid_arguments(("volume_size", "constraint", "only a block volume (bssd) is resized"))
            nt = catalog.node_type(i["region"], i["node_type"])
            errs = check_volume(nt, "bssd", value)
            if not errs and value <= i["volume"]["size"]:
                errs = [("volume_size", "constraint", "larger than the volume now: a volume does not shrink")]
            if errs:
                raise invalid_arguments(*errs)
            then = {"volume": {**i["volume"], "size": value}}
        elif field == "upgradable_version_id":
            target = next((v for v in i["upgradable_version"] if v["id"] == value), None)
            if target is None:
                raise invalid_arguments(
                    ("upgradable_version_id", "constraint", "one of the instance's upgradable_version ids")
                )
            then = {"engine": target["name"]}
        elif field == "major_upgrade_workflow":
            # UpgradeInstanceRequestMajorUpgradeWorkflow: the version to reach, the endpoints kept (with_endpoints)
            wanted = value.get("upgradable_version_id") if isinstance(value, dict) else None
            target = next((v for v in i["upgradable_version"] if v["id"] == wanted), None)
            if target is None or not isinstance(value.get("with_endpoints", False), bool):
                raise invalid_arguments((f"{field}.upgradable_version_id", "constraint", "an upgradable_version id"))
            then = {"engine": target["name"]}
        else:  # enable_encryption: encryption at rest is turned on, never off
            if value is not True or (i.get("encryption") or {}).get("enabled"):
                raise invalid_arguments((field, "constraint", "true, on an instance not encrypted yet"))
            then = {"encryption": {"enabled": True}}
        store.busy_for(i, "configuring", store.t.configure, then)
        return JSONResponse(out(i))

    @routes.post("/instances/{iid}/clone")
    async def clone(request: Request) -> Response:
        i = instance_of(store, request)
        body = await json_body(request)
        errs = check_unknown(body, {"name", "node_type"}) + rules.required(body, "name")
        if body.get("node_type") is not None:
            nt = catalog.node_type(i["region"], body["node_type"])
            if nt is None or nt["disabled"] or nt["stock_status"] == "out_of_stock":
                errs.append(("node_type", "constraint", "an available node type"))
        if errs:
            raise invalid_arguments(*errs)
        store.ready(i, also=STRICT)
        new = store.create_instance(
            i["region"],
            {
                "name": body["name"],
                "engine": i["engine"],
                "node_type": body.get("node_type") or i["node_type"],
                "is_ha_cluster": i["is_ha_cluster"],
                "tags": list(i["tags"]),
                "volume_type": i["volume"]["type"],
                "volume_size": i["volume"]["size"] if i["volume"]["type"] == "bssd" else None,
            },
        )
        new["_users"] = {k: dict(v) for k, v in i["_users"].items()}
        new["_dbs"] = {k: dict(v) for k, v in i["_dbs"].items()}
        new["_privs"] = dict(i["_privs"])
        return JSONResponse(out(new))

    @routes.get("/instances/{iid}/certificate")
    async def cert(request: Request) -> Response:
        i = instance_of(store, request)
        return JSONResponse(certificate(f"ssl_{i['name']}.pem", f"{i['name']} #{i['_cert']}"))

    @routes.post("/instances/{iid}/renew-certificate")
    async def renew(request: Request) -> Response:
        i = instance_of(store, request)
        store.ready(i)
        i["_cert"] += 1
        return Response(status_code=204)

    @routes.get("/instances/{iid}/metrics")
    async def metrics(request: Request) -> Response:
        i = instance_of(store, request)
        start, end = window(request.query_params, store.now(), "start_date", "end_date")
        names = pick(request.query_params, list(catalog.METRICS))
        nodes = ["main", "standby"] if i["is_ha_cluster"] else ["main"]
        found = []
        for name in names:
            b, swing, high = catalog.METRICS[name]
            if name == "disk_usage_percent" and i["status"] == "disk_full":
                b, swing = 96.0, 1.0
            for n, node in enumerate(nodes):
                base, wide = catalog.STANDBY.get(name, (b - 4, swing)) if node == "standby" else (b, swing)
                found.append(
                    series(
                        name, i["id"], start, end, store.iso, base=base, swing=wide, high=high, metadata={"node": node}
                    )
                )
        return JSONResponse({"timeseries": found})

    return routes.table()
