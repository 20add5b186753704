"""Instance routes for storage: volumes, volume types, snapshots (with export), images and the
block-migration plan/apply flow (spec 1 §2.3 and §4.2, spec/4 "Instance")."""

from __future__ import annotations

import hashlib
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..core import is_uuid, json_body, page_per_page
from ..errors import invalid_arguments, invalid_request, not_found, permissions_denied
from .state import VOLUME_TYPES, InstanceStore, must, refuse_transient, still_in_use
from .validation import check_name, check_project, check_size, check_tags, check_unknown
from .zones import encode, zone_of

VOLUME_STATES = ("available", "snapshotting", "fetching", "saving", "attaching", "resizing", "hotsyncing", "error")


def snapshot_volume(store: InstanceStore, zone: str, vol: dict[str, Any], name: str, tags: list[str] | None = None) -> dict[str, Any]:
    """A snapshot of `vol`, of its type; both are `snapshotting` for a while."""
    refuse_transient("instance_volume", vol)
    if vol["volume_type"] == "sbs_volume":
        raise invalid_request("snapshots of sbs_volume volumes are made with the Block Storage API")
    now = store.clock.iso()
    snap = {
        "id": store.ids.uuid(), "name": name, "volume_type": vol["volume_type"], "size": vol["size"],
        "state": "snapshotting", "base_volume": {"id": vol["id"], "name": vol["name"]},
        "organization": store.organization, "project": store.project, "tags": list(tags or []),
        "creation_date": now, "modification_date": now, "error_reason": None, "zone": zone,
    }
    store.snapshots[zone][snap["id"]] = snap
    vol["state"] = "snapshotting"
    store.volume_changed(zone, vol)

    def done() -> None:
        if snap["id"] in store.snapshots[zone]:
            snap["state"] = "available"
            store.stamp(snap)
        store.set_volume_state(zone, vol["id"], "available")()

    store.later(store.timings.snapshot, done)
    return snap


def routes(store: InstanceStore) -> list[Route]:
    z = "/instance/v1/zones/{zone}"

    def find(kind: str, table: dict[str, dict[str, dict[str, Any]]], zone: str, oid: str) -> dict[str, Any]:
        obj = table[zone].get(oid)
        if obj is None:
            raise not_found(kind, oid)
        return obj

    # ---- volumes ------------------------------------------------------------------------------
    async def volume_types(request: Request) -> Response:
        zone_of(store, request)
        return JSONResponse({"volumes": VOLUME_TYPES})

    async def list_volumes(request: Request) -> Response:
        zone = zone_of(store, request)
        items = sorted(store.volumes[zone].values(), key=lambda v: (v["creation_date"], v["id"]), reverse=True)
        q = request.query_params
        if vtype := q.get("volume_type"):
            items = [v for v in items if v["volume_type"] == vtype]
        if name := q.get("name"):
            items = [v for v in items if name.lower() in v["name"].lower()]
        if tags := q.get("tags"):
            items = [v for v in items if all(t in v["tags"] for t in tags.split(",") if t)]
        return page_per_page(request, "volumes", items, encode)

    async def create_volume(request: Request) -> Response:
        zone = zone_of(store, request)
        body = await json_body(request)
        errs = check_unknown(body, {"name", "project", "organization", "volume_type", "size", "base_snapshot", "base_volume", "tags"})
        errs += check_name(body.get("name"))
        errs += check_project(body)
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
            elif vtype in VOLUME_TYPES and snap["volume_type"] != vtype:
                errs.append(("volume_type", "constraint", f"a {snap['volume_type']} snapshot makes {snap['volume_type']} volumes only"))
        if body.get("base_volume") is not None:
            base = store.volumes[zone].get(body["base_volume"]) if is_uuid(body["base_volume"]) else None
            if base is None:
                errs.append(("base_volume", "constraint", "no such volume in this zone"))
        if errs:
            raise invalid_arguments(*errs)
        if body.get("project") and body["project"] != store.project:
            raise permissions_denied("write", "volume")
        size = body.get("size") or (snap or base or {}).get("size")
        store.check_quota(vtype, size)
        if snap is not None:
            refuse_transient("instance_snapshot", snap)
        vol = store.new_volume(
            zone, body["name"], vtype, size, tags=body.get("tags"), base_snapshot=snap["id"] if snap else None,
            state="fetching" if (snap or base) else "available",
        )
        if snap or base:
            store.later(store.timings.volume, store.set_volume_state(zone, vol["id"], "available"))
        return JSONResponse({"volume": vol}, status_code=201)

    async def get_volume(request: Request) -> Response:
        zone = zone_of(store, request)
        return JSONResponse({"volume": store.volume(zone, request.path_params["vid"])})

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
            store.later(store.timings.volume, store.set_volume_state(zone, vol["id"], "available"))
        for key in ("name", "tags"):
            if key in body:
                vol[key] = body[key]
        store.volume_changed(zone, vol)
        return JSONResponse({"volume": vol})

    async def delete_volume(request: Request) -> Response:
        zone = zone_of(store, request)
        vol = store.volume(zone, request.path_params["vid"])
        if vol["server"]:
            raise still_in_use("instance_volume", f"detach it from {vol['server']['name']} first")
        refuse_transient("instance_volume", vol, ("available", "error"))
        del store.volumes[zone][vol["id"]]
        return Response(status_code=204)

    # ---- snapshots ----------------------------------------------------------------------------
    async def list_snapshots(request: Request) -> Response:
        zone = zone_of(store, request)
        items = sorted(store.snapshots[zone].values(), key=lambda s: (s["creation_date"], s["id"]), reverse=True)
        q = request.query_params
        if name := q.get("name"):
            items = [s for s in items if name.lower() in s["name"].lower()]
        if base := q.get("base_volume_id"):
            items = [s for s in items if (s.get("base_volume") or {}).get("id") == base]
        return page_per_page(request, "snapshots", items, encode)

    async def create_snapshot(request: Request) -> Response:
        zone = zone_of(store, request)
        body = await json_body(request)
        errs = check_unknown(body, {"name", "volume_id", "project", "organization", "tags", "volume_type"})
        errs += check_name(body.get("name"))
        errs += check_project(body)
        vid = body.get("volume_id")
        if vid is None:
            errs.append(("volume_id", "required", "required key not provided"))
        elif not is_uuid(vid) or vid not in store.volumes[zone]:
            errs.append(("volume_id", "constraint", "no such volume in this zone"))
        if "tags" in body:
            errs += check_tags(body["tags"])
        if errs:
            raise invalid_arguments(*errs)
        vol = store.volumes[zone][vid]
        if body.get("volume_type") not in (None, vol["volume_type"]):
            raise invalid_arguments(("volume_type", "constraint", f"a snapshot takes the type of its volume ({vol['volume_type']})"))
        snap = snapshot_volume(store, zone, vol, body["name"], body.get("tags"))
        task = store.task(zone, "volume_snapshot", f"/snapshots/{snap['id']}", f"/snapshots/{snap['id']}")
        return JSONResponse({"snapshot": snap, "task": task}, status_code=201)

    async def get_snapshot(request: Request) -> Response:
        zone = zone_of(store, request)
        return JSONResponse({"snapshot": find("instance_snapshot", store.snapshots, zone, request.path_params["snid"])})

    async def update_snapshot(request: Request) -> Response:
        zone = zone_of(store, request)
        snap = find("instance_snapshot", store.snapshots, zone, request.path_params["snid"])
        body = await json_body(request)
        if request.method == "PUT":
            body = {k: v for k, v in body.items() if k in ("name", "tags")}
        errs = check_unknown(body, {"name", "tags"})
        if "name" in body:
            errs += check_name(body["name"])
        if "tags" in body:
            errs += check_tags(body["tags"])
        if errs:
            raise invalid_arguments(*errs)
        snap.update(body)
        store.stamp(snap)
        return JSONResponse({"snapshot": snap})

    async def delete_snapshot(request: Request) -> Response:
        zone = zone_of(store, request)
        snap = find("instance_snapshot", store.snapshots, zone, request.path_params["snid"])
        users = [i["name"] for i in store.images[zone].values() if _image_uses(i, snap["id"])]
        if users:
            raise still_in_use("instance_snapshot", f"image {users[0]} is made of this snapshot; delete the image first")
        refuse_transient("instance_snapshot", snap, ("available", "error", "invalid_data"))
        del store.snapshots[zone][snap["id"]]
        return Response(status_code=204)

    async def export_snapshot(request: Request) -> Response:
        zone = zone_of(store, request)
        snap = find("instance_snapshot", store.snapshots, zone, request.path_params["snid"])
        body = await json_body(request)
        errs = check_unknown(body, {"bucket", "key"})
        for field in ("bucket", "key"):
            if not isinstance(body.get(field), str) or not body[field].strip():
                errs.append((field, "required", f"the object-storage {field} to export to is required"))
        if errs:
            raise invalid_arguments(*errs)
        refuse_transient("instance_snapshot", snap)
        snap["state"] = "exporting"
        store.stamp(snap)

        def done() -> None:
            if snap["id"] in store.snapshots[zone]:
                snap["state"] = "available"
                store.stamp(snap)

        store.later(store.timings.export, done)
        task = store.task(zone, "snapshot_export", f"/snapshots/{snap['id']}/export", f"s3://{body['bucket']}/{body['key']}")
        return JSONResponse({"task": task}, status_code=202)

    # ---- images -------------------------------------------------------------------------------
    async def list_images(request: Request) -> Response:
        zone = zone_of(store, request)
        items = sorted(store.images[zone].values(), key=lambda i: (i["name"], i["id"]))
        q = request.query_params
        if arch := q.get("arch"):
            items = [i for i in items if i["arch"] == arch]
        if name := q.get("name"):
            items = [i for i in items if name.lower() in i["name"].lower()]
        if (public := q.get("public")) in ("true", "false"):
            items = [i for i in items if i["public"] == (public == "true")]
        return page_per_page(request, "images", items, encode)

    async def create_image(request: Request) -> Response:
        zone = zone_of(store, request)
        body = await json_body(request)
        errs = check_unknown(body, {"name", "root_volume", "arch", "project", "organization", "extra_volumes", "public", "tags"})
        errs += check_name(body.get("name"))
        errs += check_project(body)
        if body.get("arch") not in ("x86_64", "arm", "arm64"):
            errs.append(("arch", "required" if body.get("arch") is None else "constraint", "arch must be x86_64, arm or arm64"))
        root = body.get("root_volume")
        snap = store.snapshots[zone].get(root) if is_uuid(root) else None
        if root is None:
            errs.append(("root_volume", "required", "the ID of the snapshot to boot from is required"))
        elif snap is None:
            errs.append(("root_volume", "constraint", "no such snapshot in this zone"))
        extra = body.get("extra_volumes") or {}
        if not isinstance(extra, dict) or any(not isinstance(v, dict) or v.get("id") not in store.snapshots[zone] for v in extra.values()):
            errs.append(("extra_volumes", "constraint", 'extra_volumes maps "1", "2", … to {"id": snapshot ID}'))
        if "public" in body and not isinstance(body["public"], bool):
            errs.append(("public", "format", "public must be true or false"))
        if "tags" in body:
            errs += check_tags(body["tags"])
        if errs:
            raise invalid_arguments(*errs)
        assert snap is not None
        refuse_transient("instance_snapshot", snap)
        image = store.new_image(
            zone, body["name"], body["arch"], _snap_ref(snap), public=bool(body.get("public", False)),
            extra={k: _snap_ref(store.snapshots[zone][v["id"]]) for k, v in extra.items()}, tags=body.get("tags"),
        )
        return JSONResponse({"image": image}, status_code=201)

    async def get_image(request: Request) -> Response:
        zone = zone_of(store, request)
        return JSONResponse({"image": find("instance_image", store.images, zone, request.path_params["iid"])})

    async def update_image(request: Request) -> Response:
        zone = zone_of(store, request)
        image = find("instance_image", store.images, zone, request.path_params["iid"])
        if image["id"] in store.labels[zone].values():  # the marketplace's, not the project's
            raise permissions_denied("write", "image")
        body = await json_body(request)
        if request.method == "PUT":
            body = {k: v for k, v in body.items() if k in ("name", "arch", "tags", "public")}
        errs = check_unknown(body, {"name", "arch", "tags", "public"})
        if "name" in body:
            errs += check_name(body["name"])
        if "arch" in body and body["arch"] not in ("x86_64", "arm", "arm64"):
            errs.append(("arch", "constraint", "arch must be x86_64, arm or arm64"))
        if "tags" in body:
            errs += check_tags(body["tags"])
        if "public" in body and not isinstance(body["public"], bool):
            errs.append(("public", "format", "public must be true or false"))
        if errs:
            raise invalid_arguments(*errs)
        image.update(body)
        store.stamp(image)
        return JSONResponse({"image": image})

    async def delete_image(request: Request) -> Response:
        zone = zone_of(store, request)
        image = find("instance_image", store.images, zone, request.path_params["iid"])
        if image["id"] in store.labels[zone].values():
            raise permissions_denied("delete", "image")
        del store.images[zone][image["id"]]
        return Response(status_code=204)

    # ---- block migration: b_ssd volumes and their snapshots to sbs ---------------------------
    def migration_set(zone: str, body: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        errs = check_unknown(body, {"volume_id", "snapshot_id", "validation_key"})
        given = [k for k in ("volume_id", "snapshot_id") if body.get(k) is not None]
        if len(given) != 1:
            errs.append(("volume_id", "required", "give exactly one of volume_id or snapshot_id"))
        if errs:
            raise invalid_arguments(*errs)
        if given[0] == "volume_id":
            vol = store.volume(zone, body["volume_id"])
        else:
            snap = find("instance_snapshot", store.snapshots, zone, body["snapshot_id"])
            vol = store.volumes[zone].get((snap.get("base_volume") or {}).get("id", ""))
            if vol is None:
                return [], [snap]
        if vol["volume_type"] != "b_ssd":
            raise invalid_request(f"only b_ssd volumes and their snapshots migrate to block storage ({vol['volume_type']})")
        snaps = [s for s in store.snapshots[zone].values() if (s.get("base_volume") or {}).get("id") == vol["id"]]
        return [vol], snaps

    def fingerprint(volumes: list[dict[str, Any]], snaps: list[dict[str, Any]]) -> str:
        text = "|".join(sorted(f"{o['id']}:{o['modification_date']}" for o in volumes + snaps))
        return hashlib.sha256(text.encode()).hexdigest()[:32]

    async def migration_plan(request: Request) -> Response:
        zone = zone_of(store, request)
        volumes, snaps = migration_set(zone, await json_body(request))
        key = fingerprint(volumes, snaps)
        # As the public clients read it: one volume (none when planning from a snapshot), its snapshots.
        return JSONResponse({"volume": volumes[0] if volumes else None, "snapshots": snaps, "validation_key": key})

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
            store.later(store.timings.volume, store.set_volume_state(zone, vol["id"], "available"))
        for snap in snaps:
            snap["volume_type"] = "sbs_snapshot"
            store.stamp(snap)
        return Response(status_code=204)

    return [
        Route(z + "/products/volumes", volume_types, methods=["GET"]),
        Route(z + "/volumes", list_volumes, methods=["GET"]),
        Route(z + "/volumes", create_volume, methods=["POST"]),
        Route(z + "/volumes/{vid}", get_volume, methods=["GET"]),
        Route(z + "/volumes/{vid}", update_volume, methods=["PATCH", "PUT"]),
        Route(z + "/volumes/{vid}", delete_volume, methods=["DELETE"]),
        Route(z + "/snapshots", list_snapshots, methods=["GET"]),
        Route(z + "/snapshots", create_snapshot, methods=["POST"]),
        Route(z + "/snapshots/{snid}", get_snapshot, methods=["GET"]),
        Route(z + "/snapshots/{snid}", update_snapshot, methods=["PATCH", "PUT"]),
        Route(z + "/snapshots/{snid}", delete_snapshot, methods=["DELETE"]),
        Route(z + "/snapshots/{snid}/export", export_snapshot, methods=["POST"]),
        Route(z + "/images", list_images, methods=["GET"]),
        Route(z + "/images", create_image, methods=["POST"]),
        Route(z + "/images/{iid}", get_image, methods=["GET"]),
        Route(z + "/images/{iid}", update_image, methods=["PATCH", "PUT"]),
        Route(z + "/images/{iid}", delete_image, methods=["DELETE"]),
        Route(z + "/block-migration/plan", migration_plan, methods=["POST"]),
        Route(z + "/block-migration/apply", migration_apply, methods=["POST"]),
    ]


def _snap_ref(snap: dict[str, Any]) -> dict[str, Any]:
    return {"id": snap["id"], "name": snap["name"], "size": snap["size"], "volume_type": snap["volume_type"]}


def _image_uses(image: dict[str, Any], snapshot_id: str) -> bool:
    refs = [image.get("root_volume") or {}, *(image.get("extra_volumes") or {}).values()]
    return any(r.get("id") == snapshot_id for r in refs)
