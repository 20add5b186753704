"""Instance routes for snapshots (with export) and images (spec 1 §2.3 and §4.2, spec/4 "Instance")."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..core import is_uuid, json_body, page_per_page
from ..errors import invalid_arguments, permissions_denied
from ..routing import Routes
from .actions import refuse_transient, snapshot_volume
from .listing import owned, query_bool
from .state import InstanceStore, still_in_use
from .validation import check_choice, check_name, check_new, check_tags, check_unknown
from .zones import encode, in_path, zone_of


def routes(store: InstanceStore) -> list[Route]:
    routes = Routes("/instance/v1/zones/{zone}")

    def image_of(request: Request) -> tuple[str, dict[str, Any]]:
        return in_path(store, request, store.images, "instance_image", "iid")

    def snapshot_of(request: Request) -> tuple[str, dict[str, Any]]:
        return in_path(store, request, store.snapshots, "instance_snapshot", "snid")

    # ---- snapshots ----------------------------------------------------------------------------
    @routes.get("/snapshots")
    async def list_snapshots(request: Request) -> Response:
        zone = zone_of(store, request)
        items = sorted(store.snapshots[zone].values(), key=lambda s: (s["creation_date"], s["id"]), reverse=True)
        q = request.query_params
        items = owned(items, q)
        if base := q.get("base_volume_id"):
            items = [s for s in items if (s.get("base_volume") or {}).get("id") == base]
        return page_per_page(request, "snapshots", items, encode)

    @routes.post("/snapshots")
    async def create_snapshot(request: Request) -> Response:
        """CreateSnapshotRequest: a copy of a volume (`volume_id`, `volume_type` to make it `unified`), or
        an import of a QCOW2 object (`bucket`, `key`, `size`), `importing` for a while."""
        zone = zone_of(store, request)
        body = {k: v for k, v in (await json_body(request)).items() if v is not None}  # null: not given
        if body.get("volume_type") == "unknown_volume_type":  # the enum's default: not asked
            del body["volume_type"]
        errs = check_new(
            body, {"name", "volume_id", "project", "organization", "tags", "volume_type", "bucket", "key", "size"}
        )
        errs += check_choice(body, "volume_type", ("l_ssd", "b_ssd", "unified"))
        vid = body.get("volume_id")
        importing = "bucket" in body or "key" in body
        if importing:
            errs += _import_errors(body, vid)
        elif vid is None:
            errs.append(("volume_id", "required", "a volume_id, or the bucket and key of an object to import"))
        elif not is_uuid(vid) or vid not in store.volumes[zone]:
            errs.append(("volume_id", "constraint", "no such volume in this zone"))
        if "tags" in body:
            errs += check_tags(body["tags"])
        if errs:
            raise invalid_arguments(*errs)
        if importing:
            snap = store.import_snapshot(
                zone, body["name"], body.get("volume_type", "unified"), body["size"], body.get("tags")
            )
        else:
            assert vid is not None  # refused above otherwise
            vol = store.volumes[zone][vid]
            snap = snapshot_volume(store, zone, vol, body["name"], body.get("tags"), body.get("volume_type"))
        task = store.task(zone, "volume_snapshot", f"/snapshots/{snap['id']}", f"/snapshots/{snap['id']}")
        return JSONResponse({"snapshot": snap, "task": task}, status_code=201)

    routes.read("/snapshots/{snid}", snapshot_of, lambda found: {"snapshot": found[1]})

    @routes.route("PATCH PUT", "/snapshots/{snid}")
    async def update_snapshot(request: Request) -> Response:
        zone, snap = snapshot_of(request)
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

    @routes.delete("/snapshots/{snid}")
    async def delete_snapshot(request: Request) -> Response:
        zone, snap = snapshot_of(request)
        users = [i["name"] for i in store.images[zone].values() if _image_uses(i, snap["id"])]
        if users:
            raise still_in_use(
                "instance_snapshot", f"image {users[0]} is made of this snapshot; delete the image first"
            )
        refuse_transient("instance_snapshot", snap, ("available", "error", "invalid_data"))
        del store.snapshots[zone][snap["id"]]
        return Response(status_code=204)

    @routes.post("/snapshots/{snid}/export")
    async def export_snapshot(request: Request) -> Response:
        zone, snap = snapshot_of(request)
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
        store.object_steps.plan(snap, (store.timings.export, {"state": "available"}))
        task = store.task(
            zone, "snapshot_export", f"/snapshots/{snap['id']}/export", f"s3://{body['bucket']}/{body['key']}"
        )
        return JSONResponse({"task": task}, status_code=202)

    # ---- images -------------------------------------------------------------------------------
    def extra_errors(zone: str, extra: object) -> list[tuple[str, str, str]]:
        if not isinstance(extra, dict) or any(
            not isinstance(v, dict) or not is_uuid(v.get("id")) or v["id"] not in store.snapshots[zone]
            for v in extra.values()
        ):
            return [("extra_volumes", "constraint", 'extra_volumes maps "1", "2", … to {"id": snapshot ID}')]
        return []

    @routes.get("/images")
    async def list_images(request: Request) -> Response:
        zone = zone_of(store, request)
        items = sorted(store.images[zone].values(), key=lambda i: (i["name"], i["id"]))
        q = request.query_params
        if arch := q.get("arch"):
            items = [i for i in items if i["arch"] == arch]
        items = owned(items, q)
        if (public := query_bool(q, "public")) is not None:
            items = [i for i in items if i["public"] == public]
        return page_per_page(request, "images", items, encode)

    @routes.post("/images")
    async def create_image(request: Request) -> Response:
        zone = zone_of(store, request)
        body = await json_body(request)
        errs = check_new(
            body, {"name", "root_volume", "arch", "project", "organization", "extra_volumes", "public", "tags"}
        )
        if body.get("arch") not in ("x86_64", "arm", "arm64"):
            errs.append(
                ("arch", "required" if body.get("arch") is None else "constraint", "arch must be x86_64, arm or arm64")
            )
        root = body.get("root_volume")
        snap = store.snapshots[zone].get(root) if is_uuid(root) else None
        if root is None:
            errs.append(("root_volume", "required", "the ID of the snapshot to boot from is required"))
        elif snap is None:
            errs.append(("root_volume", "constraint", "no such snapshot in this zone"))
        extra = body.get("extra_volumes") or {}
        errs += extra_errors(zone, extra)
        if "public" in body and not isinstance(body["public"], bool):
            errs.append(("public", "format", "public must be true or false"))
        if "tags" in body:
            errs += check_tags(body["tags"])
        if errs:
            raise invalid_arguments(*errs)
        assert snap is not None
        refuse_transient("instance_snapshot", snap)
        image = store.new_image(
            zone,
            body["name"],
            body["arch"],
            _snap_ref(snap),
            public=bool(body.get("public", False)),
            extra={k: _snap_ref(store.snapshots[zone][v["id"]]) for k, v in extra.items()},
            tags=body.get("tags"),
        )
        return JSONResponse({"image": image}, status_code=201)

    routes.read("/images/{iid}", image_of, lambda found: {"image": found[1]})

    @routes.route("PATCH PUT", "/images/{iid}")
    async def update_image(request: Request) -> Response:
        zone, image = image_of(request)
        if image["id"] in store.labels[zone].values():  # the marketplace's, not the project's
            raise permissions_denied("write", "image")
        body = await json_body(request)
        if request.method == "PUT":
            body = {k: v for k, v in body.items() if k in ("name", "arch", "tags", "public")}
        errs = check_unknown(body, {"name", "arch", "tags", "public", "extra_volumes"})
        if "name" in body:
            errs += check_name(body["name"])
        if "extra_volumes" in body:  # UpdateImageRequest: {"1": {"id": snapshot id}, …}, the whole set
            errs += extra_errors(zone, body["extra_volumes"])
        if "arch" in body and body["arch"] not in ("x86_64", "arm", "arm64"):
            errs.append(("arch", "constraint", "arch must be x86_64, arm or arm64"))
        if "tags" in body:
            errs += check_tags(body["tags"])
        if "public" in body and not isinstance(body["public"], bool):
            errs.append(("public", "format", "public must be true or false"))
        if errs:
            raise invalid_arguments(*errs)
        if "extra_volumes" in body:
            extra = body["extra_volumes"]
            body["extra_volumes"] = {k: _snap_ref(store.snapshots[zone][v["id"]]) for k, v in extra.items()}
        image.update(body)
        store.stamp(image)
        return JSONResponse({"image": image})

    @routes.delete("/images/{iid}")
    async def delete_image(request: Request) -> Response:
        zone, image = image_of(request)
        if image["id"] in store.labels[zone].values():
            raise permissions_denied("delete", "image")
        del store.images[zone][image["id"]]
        return Response(status_code=204)

    return routes.table()


def _import_errors(body: dict[str, Any], volume_id: object) -> list[tuple[str, str, str]]:
    errs = [
        (f, "required", f"the object-storage {f} to import")
        for f in ("bucket", "key")
        if not isinstance(body.get(f), str) or not body[f].strip()
    ]
    size = body.get("size")
    if not isinstance(size, int) or isinstance(size, bool) or size <= 0 or size % 512:
        reason = "required" if size is None else "constraint"
        errs.append(("size", reason, "the imported size: a multiple of 512 bytes"))
    if volume_id is not None:
        errs.append(("volume_id", "constraint", "a snapshot copies a volume or imports an object, not both"))
    return errs


def _snap_ref(snap: dict[str, Any]) -> dict[str, Any]:
    return {"id": snap["id"], "name": snap["name"], "size": snap["size"], "volume_type": snap["volume_type"]}


def _image_uses(image: dict[str, Any], snapshot_id: str) -> bool:
    refs = [image.get("root_volume") or {}, *(image.get("extra_volumes") or {}).values()]
    return any(r.get("id") == snapshot_id for r in refs)
