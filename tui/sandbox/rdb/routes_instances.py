"""Instances, their endpoints, read replicas, metrics, certificate and logs (spec 2 §4.3)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..core import check_unknown, is_uuid, json_body, page_page_size
from ..errors import invalid_arguments, invalid_request, not_found
from ..timeseries import certificate, parse_time, pick, series, window
from . import catalog, rules
from .store import RdbStore, transient

CREATE = {"project_id", "organization_id", "name", "engine", "node_type", "is_ha_cluster", "disable_backup", "tags", "user_name",
          "password", "volume_type", "volume_size", "init_settings", "init_endpoints", "backup_same_region", "encryption"}
UPDATE = {"name", "tags", "backup_schedule_frequency", "backup_schedule_retention", "is_backup_schedule_disabled", "logs_policy",
          "backup_same_region", "backup_schedule_start_hour"}
UPGRADE = ("node_type", "enable_ha", "volume_size", "volume_type", "upgradable_version_id", "major_upgrade_workflow", "enable_encryption")
STRICT = ("disk_full",)  # what a restart, an upgrade or a clone waits for: nothing else under way
ORDER = {"created_at_asc": ("created_at", False), "created_at_desc": ("created_at", True), "name_asc": ("name", False), "name_desc": ("name", True)}


def region_of(request: Request) -> str:
    region = request.path_params["region"]
    if region not in catalog.REGIONS:
        raise invalid_arguments(("region", "constraint", f"databases exist in {', '.join(catalog.REGIONS)} only, not {region!r}"))
    return region


def ordered(request: Request, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    order = request.query_params.get("order_by") or "created_at_asc"
    if order not in ORDER:
        raise invalid_arguments(("order_by", "constraint", f"order_by must be one of {', '.join(ORDER)}"))
    key, rev = ORDER[order]
    try:  # the fields sorted on are strings; anything else is compared as its text
        return sorted(items, key=lambda x: x.get(key) or "", reverse=rev)
    except TypeError:
        return sorted(items, key=lambda x: str(x.get(key) or ""), reverse=rev)


def check_volume(nt: dict[str, Any] | None, volume_type: Any, size: Any, field: str = "volume_size") -> list[rules.Detail]:
    if volume_type not in ("lssd", "bssd"):
        return [("volume_type", "constraint", "lssd or bssd")]
    if nt is None:
        return []
    vt = next((v for v in nt["available_volume_types"] if v["type"] == volume_type), None)
    if vt is None:
        return [("volume_type", "constraint", f"{nt['name']} takes {', '.join(v['type'] for v in nt['available_volume_types'])}")]
    if volume_type == "lssd":
        return [(field, "constraint", "a size is given only with a block volume (bssd)")] if size is not None else []
    if not isinstance(size, int) or isinstance(size, bool):
        return [(field, "required", "a block volume (bssd) needs a size in bytes")]
    if not vt["min_size"] <= size <= vt["max_size"] or size % vt["chunk_size"]:
        return [(field, "constraint", f"{vt['min_size'] // catalog.GB} to {vt['max_size'] // catalog.GB} GB in steps of {vt['chunk_size'] // catalog.GB} GB")]
    return []


def routes(store: RdbStore) -> list[Route]:
    base = "/rdb/v1/regions/{region}"

    def instance(request: Request, key: str = "iid") -> dict[str, Any]:
        return store.instance(region_of(request), request.path_params[key])

    def out(i: dict[str, Any]) -> dict[str, Any]:
        return store.public_instance(i)

    async def listing(request: Request) -> Response:
        region = region_of(request)
        q = request.query_params
        items = store.all_instances(region)
        if q.get("name"):
            items = [i for i in items if q["name"].lower() in i["name"].lower()]
        wanted = q.getlist("tags")
        if wanted:
            items = [i for i in items if all(t in i["tags"] for t in wanted)]
        return page_page_size(request, "instances", ordered(request, items), out)

    async def create(request: Request) -> Response:
        region = region_of(request)
        body = await json_body(request)
        errs = check_unknown(body, CREATE) + rules.required(body, "name", "engine", "node_type", "user_name", "password")
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
        if nt is not None and nt["is_ha_required"] and not body.get("is_ha_cluster"):
            errs.append(("is_ha_cluster", "constraint", f"{nt['name']} runs only as a high-availability cluster"))
        errs += check_volume(nt, body.get("volume_type") or "lssd", body.get("volume_size"))
        errs += rules.user_name(body["user_name"], "user_name") + rules.password(body["password"]) + rules.tags(body.get("tags"))
        if body.get("init_settings") is not None:
            errs += rules.settings(version, body["init_settings"], "init_settings", init=True)
        if errs:
            raise invalid_arguments(*errs)
        return JSONResponse(out(store.create_instance(region, body)))

    async def get_one(request: Request) -> Response:
        return JSONResponse(out(instance(request)))

    async def patch(request: Request) -> Response:
        i = instance(request)
        body = await json_body(request)
        errs = check_unknown(body, UPDATE) + rules.tags(body.get("tags"))
        if "name" in body and (not isinstance(body["name"], str) or not body["name"].strip() or len(body["name"]) > 255):
            errs.append(("name", "constraint", "1 to 255 characters"))
        for f, lo, hi in (("backup_schedule_frequency", 1, 24), ("backup_schedule_retention", 1, 365), ("backup_schedule_start_hour", 0, 23)):
            v = body.get(f)
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi):
                errs.append((f, "constraint", f"a whole number from {lo} to {hi}"))
        if errs:
            raise invalid_arguments(*errs)
        for f in ("name", "tags", "backup_same_region", "logs_policy"):
            if body.get(f) is not None:
                i[f] = body[f]
        sched = i["backup_schedule"]
        for f, k in (("backup_schedule_frequency", "frequency"), ("backup_schedule_retention", "retention"), ("is_backup_schedule_disabled", "disabled")):
            if body.get(f) is not None:
                sched[k] = body[f]
        return JSONResponse(out(i))

    async def delete(request: Request) -> Response:
        i = instance(request)
        if i["status"] != "deleting":
            store.delete_instance(i)
        return JSONResponse(out(i))

    async def restart(request: Request) -> Response:
        i = instance(request)
        store.ready(i, also=STRICT)
        store.busy_for(i, "restarting", store.t.restart)
        return JSONResponse(out(i))

    async def apply_maintenance(request: Request) -> Response:
        i = instance(request)
        pending = [m for m in i["maintenances"] if m.get("status") == "pending"]
        if not pending:
            raise invalid_request("no pending maintenance on this instance")
        store.ready(i, also=STRICT)
        m = pending[0]
        m["status"], m["forced_at"] = "ongoing", store.iso()
        store.busy_for(i, "configuring", store.t.configure, {"maintenances": [x for x in i["maintenances"] if x is not m]})
        return JSONResponse(m)

    async def upgrade(request: Request) -> Response:
        i = instance(request)
        body = await json_body(request)
        errs = check_unknown(body, set(UPGRADE))
        given = [k for k in UPGRADE if body.get(k) is not None]
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
                raise invalid_arguments(("node_type", "constraint", f"{value} runs only as a high-availability cluster"))
            then = {"node_type": value}
        elif field == "enable_ha":
            if value is not True or i["is_ha_cluster"]:
                raise invalid_arguments(("enable_ha", "constraint", "true, on an instance that is not highly available yet"))
            then = {"is_ha_cluster": True}
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
                raise invalid_arguments(("upgradable_version_id", "constraint", "one of the instance's upgradable_version ids"))
            then = {"engine": target["name"]}
        else:
            raise invalid_arguments((field, "constraint", "not offered by this sandbox"))
        store.busy_for(i, "configuring", store.t.configure, then)
        return JSONResponse(out(i))

    async def clone(request: Request) -> Response:
        i = instance(request)
        body = await json_body(request)
        errs = check_unknown(body, {"name", "node_type"}) + rules.required(body, "name")
        if body.get("node_type") is not None:
            nt = catalog.node_type(i["region"], body["node_type"])
            if nt is None or nt["disabled"] or nt["stock_status"] == "out_of_stock":
                errs.append(("node_type", "constraint", "an available node type"))
        if errs:
            raise invalid_arguments(*errs)
        store.ready(i, also=STRICT)
        new = store.create_instance(i["region"], {"name": body["name"], "engine": i["engine"], "node_type": body.get("node_type") or i["node_type"],
                                                  "is_ha_cluster": i["is_ha_cluster"], "tags": list(i["tags"]), "volume_type": i["volume"]["type"],
                                                  "volume_size": i["volume"]["size"] if i["volume"]["type"] == "bssd" else None})
        new["_users"] = {k: dict(v) for k, v in i["_users"].items()}
        new["_dbs"] = {k: dict(v) for k, v in i["_dbs"].items()}
        new["_privs"] = dict(i["_privs"])
        return JSONResponse(out(new))

    async def cert(request: Request) -> Response:
        i = instance(request)
        return JSONResponse(certificate(f"ssl_{i['name']}.pem", f"{i['name']} #{i['_cert']}"))

    async def renew(request: Request) -> Response:
        i = instance(request)
        store.ready(i)
        i["_cert"] += 1
        return Response(status_code=204)

    async def metrics(request: Request) -> Response:
        i = instance(request)
        start, end = window(request.query_params, store.now(), "start_date", "end_date")
        names = pick(request.query_params, list(catalog.METRICS))
        nodes = ["main", "standby"] if i["is_ha_cluster"] else ["main"]
        found = []
        for name in names:
            b, swing, high = catalog.METRICS[name]
            if name == "disk_usage_percent" and i["status"] == "disk_full":
                b, swing = 96.0, 1.0
            for n, node in enumerate(nodes):
                found.append(series(name, i["id"], start, end, store.iso, base=b - 4 * n, swing=swing, high=high, metadata={"node": node}))
        return JSONResponse({"timeseries": found})

    # ---- endpoints --------------------------------------------------------------------------------
    async def add_endpoint(request: Request) -> Response:
        i = instance(request)
        body = await json_body(request)
        spec = body.get("endpoint_spec")
        errs = check_unknown(body, {"endpoint_spec"}) + rules.endpoint_spec(spec, "endpoint_spec", ("load_balancer", "private_network"))
        if errs:
            raise invalid_arguments(*errs)
        store.ready(i)
        if "load_balancer" in spec:
            if any("load_balancer" in e for e in i["endpoints"]):
                raise invalid_arguments(("endpoint_spec.load_balancer", "constraint", "the instance already has a load-balanced endpoint"))
            e = store.lb_endpoint()
        else:
            pn = spec["private_network"]["private_network_id"]
            if any((e.get("private_network") or {}).get("private_network_id") == pn for e in i["endpoints"]):
                raise invalid_arguments(("endpoint_spec.private_network.private_network_id", "constraint", "the instance is already on this private network"))
            e = store.pn_endpoint(spec["private_network"], i["region"])
        i["endpoints"].append(e)
        return JSONResponse(e)

    async def get_endpoint(request: Request) -> Response:
        _, e = store.find_endpoint(region_of(request), request.path_params["eid"])
        return JSONResponse(e)

    async def delete_endpoint(request: Request) -> Response:
        owner, e = store.find_endpoint(region_of(request), request.path_params["eid"])
        if owner["status"] not in ("ready", "disk_full", "backuping", "snapshotting"):
            raise transient("instance" if "engine" in owner else "read_replica", owner)
        owner["endpoints"].remove(e)
        if "engine" in owner:
            owner["endpoint"] = dict(owner["endpoints"][0]) if owner["endpoints"] else None
        return Response(status_code=204)

    async def migrate_endpoint(request: Request) -> Response:
        region = region_of(request)
        owner, e = store.find_endpoint(region, request.path_params["eid"])
        body = await json_body(request)
        errs = check_unknown(body, {"instance_id"}) + rules.required(body, "instance_id")
        if errs:
            raise invalid_arguments(*errs)
        target = store.instance(region, str(body["instance_id"]))
        if target is owner:
            raise invalid_arguments(("instance_id", "constraint", "the endpoint is already on this instance"))
        store.ready(target)
        owner["endpoints"].remove(e)
        target["endpoints"].append(e)
        for inst in (owner, target):
            if "engine" in inst:
                inst["endpoint"] = dict(inst["endpoints"][0]) if inst["endpoints"] else None
        return JSONResponse(e)

    # ---- read replicas ----------------------------------------------------------------------------
    async def create_replica(request: Request) -> Response:
        region = region_of(request)
        body = await json_body(request)
        errs = check_unknown(body, {"instance_id", "endpoint_spec", "same_zone"}) + rules.required(body, "instance_id")
        specs = body.get("endpoint_spec") or []
        errs += rules.replica_endpoints([], specs)
        if errs:
            raise invalid_arguments(*errs)
        i = store.instance(region, str(body["instance_id"]))
        store.ready(i)
        return JSONResponse(store.public_replica(store.create_replica(i, specs, bool(body.get("same_zone")))))

    def replica(request: Request) -> dict[str, Any]:
        return store.replica(region_of(request), request.path_params["rid"])

    async def get_replica(request: Request) -> Response:
        return JSONResponse(store.public_replica(replica(request)))

    async def delete_replica(request: Request) -> Response:
        r = replica(request)
        if r["status"] not in ("deleting", "promoting"):
            store.delete_later(r)
        return JSONResponse(store.public_replica(r))

    async def replica_endpoints(request: Request) -> Response:
        r = replica(request)
        body = await json_body(request)
        specs = body.get("endpoint_spec")
        errs = check_unknown(body, {"endpoint_spec"}) + rules.replica_endpoints(r["endpoints"], specs)
        if errs:
            raise invalid_arguments(*errs)
        store.ready(r, "read_replica", ())
        r["endpoints"].extend(store.replica_endpoint(s, r["region"]) for s in specs)
        return JSONResponse(store.public_replica(r))

    async def promote(request: Request) -> Response:
        r = replica(request)
        store.ready(r, "read_replica", ())
        return JSONResponse(out(store.promote(r)))

    async def reset(request: Request) -> Response:
        r = replica(request)
        store.ready(r, "read_replica", ())
        store.busy_for(r, "configuring", store.t.configure)
        return JSONResponse(store.public_replica(r))

    # ---- logs ---------------------------------------------------------------------------------------
    async def prepare_logs(request: Request) -> Response:
        i = instance(request)
        body = await json_body(request)
        errs = check_unknown(body, {"start_date", "end_date"})
        if errs:
            raise invalid_arguments(*errs)
        end = parse_time(body.get("end_date"), "end_date") or store.now()
        start = parse_time(body.get("start_date"), "start_date") or end - 3600
        if start >= end:
            raise invalid_arguments(("start_date", "constraint", "start_date must be before end_date"))
        logs = store.prepare_logs(i, start, end)
        return JSONResponse({"instance_logs": [public_log(x) for x in logs]})

    async def list_logs(request: Request) -> Response:
        i = instance(request)
        items = [store.log(i["region"], lid) for lid, x in list(store.logs[i["region"]].items()) if x["_instance"] == i["id"]]
        return page_page_size(request, "instance_logs", ordered(request, items), public_log)

    async def get_log(request: Request) -> Response:
        return JSONResponse(public_log(store.log(region_of(request), request.path_params["lid"])))

    async def logs_details(request: Request) -> Response:
        i = instance(request)
        files = i["_logfiles"]
        return JSONResponse({"details": [{"log_name": k, "size": v} for k, v in files.items()]})

    async def purge_logs(request: Request) -> Response:
        i = instance(request)
        body = await json_body(request)
        errs = check_unknown(body, {"log_name"})
        if errs:
            raise invalid_arguments(*errs)
        files = i["_logfiles"]
        name = body.get("log_name")
        if name:
            if name not in files:
                raise not_found("log", str(name))
            files[name] = 0
        else:
            for k in files:
                files[k] = 0
        return Response(status_code=204)

    iid = base + "/instances/{iid}"
    return [
        Route(base + "/instances", listing, methods=["GET"]),
        Route(base + "/instances", create, methods=["POST"]),
        Route(iid, get_one, methods=["GET"]),
        Route(iid, patch, methods=["PATCH"]),
        Route(iid, delete, methods=["DELETE"]),
        Route(iid + "/restart", restart, methods=["POST"]),
        Route(iid + "/apply-maintenance", apply_maintenance, methods=["POST"]),
        Route(iid + "/upgrade", upgrade, methods=["POST"]),
        Route(iid + "/clone", clone, methods=["POST"]),
        Route(iid + "/certificate", cert, methods=["GET"]),
        Route(iid + "/renew-certificate", renew, methods=["POST"]),
        Route(iid + "/metrics", metrics, methods=["GET"]),
        Route(iid + "/endpoints", add_endpoint, methods=["POST"]),
        Route(iid + "/prepare-logs", prepare_logs, methods=["POST"]),
        Route(iid + "/logs", list_logs, methods=["GET"]),
        Route(iid + "/logs-details", logs_details, methods=["GET"]),
        Route(iid + "/purge-logs", purge_logs, methods=["POST"]),
        Route(base + "/logs/{lid}", get_log, methods=["GET"]),
        Route(base + "/endpoints/{eid}", get_endpoint, methods=["GET"]),
        Route(base + "/endpoints/{eid}", delete_endpoint, methods=["DELETE"]),
        Route(base + "/endpoints/{eid}/migrate", migrate_endpoint, methods=["POST"]),
        Route(base + "/read-replicas", create_replica, methods=["POST"]),
        Route(base + "/read-replicas/{rid}", get_replica, methods=["GET"]),
        Route(base + "/read-replicas/{rid}", delete_replica, methods=["DELETE"]),
        Route(base + "/read-replicas/{rid}/endpoints", replica_endpoints, methods=["POST"]),
        Route(base + "/read-replicas/{rid}/promote", promote, methods=["POST"]),
        Route(base + "/read-replicas/{rid}/reset", reset, methods=["POST"]),
    ]


def public_log(log: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in log.items() if not k.startswith("_")}

