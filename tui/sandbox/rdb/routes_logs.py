"""Logs of relational-database instances (spec 2 §4.3): prepared with the clock, listed, sized, purged."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..collection import ordered
from ..core import checked_body, page_page_size
from ..errors import invalid_arguments, not_found
from ..routing import Routes
from ..timeseries import parse_time
from .requests import PREFIX, instance_of, region_of
from .store import RdbStore


def routes(store: RdbStore) -> list[Route]:
    routes = Routes(PREFIX)

    # ---- logs ---------------------------------------------------------------------------------------
    @routes.post("/instances/{iid}/prepare-logs")
    async def prepare_logs(request: Request) -> Response:
        i = instance_of(store, request)
        body = await checked_body(request, {"start_date", "end_date"})
        end = parse_time(body.get("end_date"), "end_date") or store.now()
        start = parse_time(body.get("start_date"), "start_date") or end - 3600
        if start >= end:
            raise invalid_arguments(("start_date", "constraint", "start_date must be before end_date"))
        logs = store.prepare_logs(i, start, end)
        return JSONResponse({"instance_logs": [public_log(x) for x in logs]})

    @routes.get("/instances/{iid}/logs")
    async def list_logs(request: Request) -> Response:
        i = instance_of(store, request)
        items = [
            store.log(i["region"], lid) for lid, x in list(store.logs[i["region"]].items()) if x["_instance"] == i["id"]
        ]
        return page_page_size(request, "instance_logs", ordered(request, items), public_log)

    @routes.get("/logs/{lid}")
    async def get_log(request: Request) -> Response:
        return JSONResponse(public_log(store.log(region_of(request), request.path_params["lid"])))

    @routes.get("/instances/{iid}/logs-details")
    async def logs_details(request: Request) -> Response:
        i = instance_of(store, request)
        files = i["_logfiles"]
        return JSONResponse({"details": [{"log_name": k, "size": v} for k, v in files.items()]})

    @routes.post("/instances/{iid}/purge-logs")
    async def purge_logs(request: Request) -> Response:
        i = instance_of(store, request)
        body = await checked_body(request, {"log_name"})
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

    return routes.table()


def public_log(log: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in log.items() if not k.startswith("_")}
