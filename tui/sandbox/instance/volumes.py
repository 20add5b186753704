"""Instance routes for volumes: volume types, volumes and the block-migration plan/apply flow
(spec 1 §2.3 and §4.2, spec/4 "Instance")."""

from __future__ import annotations

import hashlib
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..catalog import VOLUME_TYPES
from ..core import is_uuid, json_body, page_per_page
from ..errors import invalid_arguments, invalid_request
from ..routing import Routes
from .actions import refuse_transient
from .listing import owned
from .state import InstanceStore, must, still_in_use
from .validation import (
    check_name,
    check_new,
    check_size,
    check_tags,
    check_unknown,
    refuse_creation,
    same_family,
)
from .zones import encode, find_in, zone_of

VOLUME_STATES = ("available", "snapshotting", "fetching", "saving", "attaching", "resizing", "hotsyncing", "error")


def routes(store: InstanceStore) -> list[Route]:
    routes = Routes("/instance/v1/zones/{zone}")

    # ---- volumes ------------------------------------------------------------------------------
    @routes.get("/products/volumes")
    async def volume_types(request: Request) -> Response:
        zone_of(store, request)
        return JSONResponse({"volumes": VOLUME_TYPES})

    @routes.get("/volumes")
    async def list_volumes(request: Request) -> Response:
        zone = zone_of(store, request)
        items = sorted(store.volumes[zone].values(), key=lambda v: (v["creation_date"], v["id"]), reverse=True)
        q = request.query_params
        if vtype := q.get("volume_type"):
            items = [v for v in items if v["volume_type"] == vtype]
        items = owned(items, q)
        return page_per_page(request, "volumes", items, encode)

    @routes.post("/volumes")
    async def create_volume(request: Request) -> Response:
        zone = zone_of(store, request)
        body = await json_body(request)
        errs = check_new(
            body, {"name", "project", "organization", "volume_type", "size", "base_snapshot", "base_volume", "tags"}
        )
        vtype = body.get("volume_type")
        if vtype is None:
            errs.append(("volume_type", "required", "required key not provided"))
        elif vtype not in VOLUME_TYPES:
            errs.append(("volume_type", "constraint", "volume_type must be l_ssd, b_ssd or sbs_volume"))
        sources = [k for k in ("size", "base_snapshot", "base_volume") if body.get(k) is not None]
        if len(sources) != 1:
            errs.append(("size", "required", "give exactly one of size, base_snapshot or base_volume"))
        if "tags" in body:
            errs += check_tags(body["tags"])
        if vtype in VOLUME_TYPES and body.get("size") is not None and not body.get("base_snapshot"):
            errs += check_size(body["size"], vtype)
        snap = base = None
        if body.get("base_snapshot") is not None:
            snap = store.snapshots[zone].get(body["base_snapshot"]) if is_uuid(body["base_snapshot"]) else None
            if snap is None:
                errs.append(("base_snapshot", "constraint", "no such snapshot in this zone"))
            elif vtype in VOLUME_TYPES and not same_family(snap["volume_type"], vtype):
                errs.append(
                    (
                        "volume_type",
                        "constraint",
                        f"a {snap['volume_type']} snapshot makes {snap['volume_type']} volumes only",
                    )
                )
        if body.get("base_volume") is not None:
            base = store.volumes[zone].get(body["base_volume"]) if is_uuid(body["base_volume"]) else None
            if base is None:
                errs.append(("base_volume", "constraint", "no such volume in this zone"))
        refuse_creation(store, body, errs, "volume")
        size = body.get("size") or (snap or base or {}).get("size")
        assert vtype is not None and size is not None  # refused above otherwise
        store.check_quota(vtype, size)
        if snap is not None:
            refuse_transient("instance_snapshot", snap)
        vol = store.new_volume(
            zone,
            body["name"],
            vtype,
            size,
            tags=body.get("tags"),
            base_snapshot=snap["id"] if snap else None,
            state="fetching" if (snap or base) else "available",
        )
        if snap or base:
            store.volume_ready_later(vol, store.timings.volume)
        return JSONResponse({"volume": vol}, status_code=201)

    @routes.get("/volumes/{vid}")
    async def get_volume(request: Request) -> Response:
        zone = zone_of(store, request)
        return JSONResponse({"volume": store.volume(zone, request.path_params["vid"])})

    @routes.route("PATCH PUT", "/volumes/{vid}")
    async def update_volume(request: Request) -> Response:
        """PATCH changes what it is given; PUT takes the whole volume (name required)."""
        zone = zone_of(store, request)
        vol = store.volume(zone, request.path_params["vid"])
        body = await json_body(request)
        if request.method == "PUT":
            body = {k: v for k, v in body.items() if k in ("name", "tags", "size")}
            if "name" not in body:
                raise invalid_arguments(("name", "required", "required key not provided"))
        errs = check_unknown(body, {"name", "tags", "size"})
        if "name" in body:
            errs += check_name(body["name"])
        if "tags" in body:
            errs += check_tags(body["tags"])
        size = body.get("size")
        if size is not None and size != vol["size"]:
            errs += check_size(size, vol["volume_type"])
        if errs:
            raise invalid_arguments(*errs)
        if size is not None and size != vol["size"]:
            must(vol["volume_type"] != "l_ssd", "l_ssd volumes cannot be resized")
            must(size > vol["size"], "a volume can only grow")
            refuse_transient("instance_volume", vol)
            store.check_quota(vol["volume_type"], size - vol["size"])
            vol["size"] = size
            vol["state"] = "resizing"
            store.volume_ready_later(vol, store.timings.volume)
        for key in ("name", "tags"):
            if key in body:
                vol[key] = body[key]
        store.volume_changed(zone, vol)
        return JSONResponse({"volume": vol})

    @routes.delete("/volumes/{vid}")
    async def delete_volume(request: Request) -> Response:
        zone = zone_of(store, request)
        vol = store.volume(zone, request.path_params["vid"])
        if vol["server"]:
            raise still_in_use("instance_volume", f"detach it from {vol['server']['name']} first")
        refuse_transient("instance_volume", vol, ("available", "error"))
        store.volume_steps.cancel(store.volumes[zone].pop(vol["id"]))
        return Response(status_code=204)

    # ---- block migration: b_ssd volumes and their snapshots to sbs ---------------------------
    def migration_set(zone: str, body: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        vol: dict[str, Any] | None
        errs = check_unknown(body, {"volume_id", "snapshot_id", "validation_key"})
        given = [k for k in ("volume_id", "snapshot_id") if body.get(k) is not None]
        if len(given) != 1:
            errs.append(("volume_id", "required", "give exactly one of volume_id or snapshot_id"))
        if errs:
            raise invalid_arguments(*errs)
        if given[0] == "volume_id":
            vol = store.volume(zone, body["volume_id"])
        else:
            snap = find_in(store.snapshots, "instance_snapshot", zone, body["snapshot_id"])
            vol = store.volumes[zone].get((snap.get("base_volume") or {}).get("id", ""))
            if vol is None:
                return [], [snap]
        if vol["volume_type"] != "b_ssd":
            raise invalid_request(
                f"only b_ssd volumes and their snapshots migrate to block storage ({vol['volume_type']})"
            )
        snaps = [s for s in store.snapshots[zone].values() if (s.get("base_volume") or {}).get("id") == vol["id"]]
        return [vol], snaps

    def fingerprint(volumes: list[dict[str, Any]], snaps: list[dict[str, Any]]) -> str:
        text = "|".join(sorted(f"{o['id']}:{o['modification_date']}" for o in volumes + snaps))
        return hashlib.sha256(text.encode()).hexdigest()[:32]

    @routes.post("/block-migration/plan")
    async def migration_plan(request: Request) -> Response:
        zone = zone_of(store, request)
        volumes, snaps = migration_set(zone, await json_body(request))
        key = fingerprint(volumes, snaps)
        # As the public clients read it: one volume (none when planning from a snapshot), its snapshots.
        return JSONResponse({"volume": volumes[0] if volumes else None, "snapshots": snaps, "validation_key": key})

    @routes.post("/block-migration/apply")
    async def migration_apply(request: Request) -> Response:
        zone = zone_of(store, request)
        body = await json_body(request)
        if not body.get("validation_key"):
            raise invalid_arguments(("validation_key", "required", "the validation_key of a plan is required"))
        volumes, snaps = migration_set(zone, body)
        if body["validation_key"] != fingerprint(volumes, snaps):
            raise invalid_request("the volumes or snapshots changed since the plan was made: plan again")
        for o in volumes + snaps:
            refuse_transient("instance_volume" if o in volumes else "instance_snapshot", o)
        for vol in volumes:
            vol["volume_type"] = "sbs_volume"
            vol["state"] = "hotsyncing"
            store.volume_changed(zone, vol)
            store.volume_ready_later(vol, store.timings.volume)
        for snap in snaps:
            snap["volume_type"] = "sbs_snapshot"
            store.stamp(snap)
        return Response(status_code=204)

    return routes.table()
