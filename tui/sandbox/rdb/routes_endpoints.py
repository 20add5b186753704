"""Endpoints and read replicas of relational-database instances (spec 2 §4.3): add, migrate and
remove endpoints; create, promote, reset and delete replicas with the clock."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..core import check_unknown, checked_body, json_body
from ..errors import invalid_arguments
from ..routing import Routes
from . import rules
from .requests import PREFIX, instance_of, region_of
from .store import RdbStore, transient


def routes(store: RdbStore) -> list[Route]:
    routes = Routes(PREFIX)

    # ---- endpoints --------------------------------------------------------------------------------
    @routes.post("/instances/{iid}/endpoints")
    async def add_endpoint(request: Request) -> Response:
        i = instance_of(store, request)
        body = await json_body(request)
        spec = body.get("endpoint_spec")
        errs = check_unknown(body, {"endpoint_spec"}) + rules.endpoint_spec(
            spec, "endpoint_spec", ("load_balancer", "private_network")
        )
        if errs:
            raise invalid_arguments(*errs)
        assert spec is not None  # refused above otherwise
        store.ready(i)
        if "load_balancer" in spec:
            if any("load_balancer" in e for e in i["endpoints"]):
                raise invalid_arguments(
                    ("endpoint_spec.load_balancer", "constraint", "the instance already has a load-balanced endpoint")
                )
            e = store.lb_endpoint(i["engine"])
        else:
            pn = spec["private_network"]["private_network_id"]
            if any((e.get("private_network") or {}).get("private_network_id") == pn for e in i["endpoints"]):
                raise invalid_arguments(
                    (
                        "endpoint_spec.private_network.private_network_id",
                        "constraint",
                        "the instance is already on this private network",
                    )
                )
            e = store.pn_endpoint(spec["private_network"], i["region"], i["engine"])
        i["endpoints"].append(e)
        return JSONResponse(e)

    @routes.get("/endpoints/{eid}")
    async def get_endpoint(request: Request) -> Response:
        _, e = store.find_endpoint(region_of(request), request.path_params["eid"])
        return JSONResponse(e)

    @routes.delete("/endpoints/{eid}")
    async def delete_endpoint(request: Request) -> Response:
        owner, e = store.find_endpoint(region_of(request), request.path_params["eid"])
        if owner["status"] not in ("ready", "disk_full", "backuping", "snapshotting"):
            raise transient("instance" if "engine" in owner else "read_replica", owner)
        owner["endpoints"].remove(e)
        if "engine" in owner:
            owner["endpoint"] = dict(owner["endpoints"][0]) if owner["endpoints"] else None
        return Response(status_code=204)

    @routes.post("/endpoints/{eid}/migrate")
    async def migrate_endpoint(request: Request) -> Response:
        region = region_of(request)
        owner, e = store.find_endpoint(region, request.path_params["eid"])
        body = await checked_body(request, {"instance_id"}, lambda body: rules.required(body, "instance_id"))
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
    @routes.post("/read-replicas")
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

    routes.read("/read-replicas/{rid}", replica, store.public_replica)

    @routes.delete("/read-replicas/{rid}")
    async def delete_replica(request: Request) -> Response:
        r = replica(request)
        if r["status"] not in ("deleting", "promoting"):
            store.delete_later(r)
        return JSONResponse(store.public_replica(r))

    @routes.post("/read-replicas/{rid}/endpoints")
    async def replica_endpoints(request: Request) -> Response:
        r = replica(request)
        body = await json_body(request)
        specs = body.get("endpoint_spec")
        errs = check_unknown(body, {"endpoint_spec"}) + rules.replica_endpoints(r["endpoints"], specs)
        if errs:
            raise invalid_arguments(*errs)
        assert specs is not None  # refused above otherwise
        store.ready(r, "read_replica", ())
        r["endpoints"].extend(store.replica_endpoint(s, r) for s in specs)
        return JSONResponse(store.public_replica(r))

    @routes.post("/read-replicas/{rid}/promote")
    async def promote(request: Request) -> Response:
        r = replica(request)
        store.ready(r, "read_replica", ())
        return JSONResponse(store.public_instance(store.promote(r)))

    @routes.post("/read-replicas/{rid}/reset")
    async def reset(request: Request) -> Response:
        r = replica(request)
        store.ready(r, "read_replica", ())
        store.busy_for(r, "configuring", store.t.configure)
        return JSONResponse(store.public_replica(r))

    return routes.table()
