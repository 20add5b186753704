"""Routes of the DNS sandbox for records: list, the `changes` PATCH, clear, versions (list, records,
diff, restore), and imports (from another provider, from a BIND zone file) and the raw export.

Record editing — PATCH, clear, imports, restore — is refused (412) in a zone that does not use the
default name servers (spec 3 §4.1); listing its records is not. Versions are listed newest first.
The diff of a version is the changes that turn that version's records into the zone's current ones.
"""

from __future__ import annotations

import base64
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..core import check_unknown, checked_body, json_body, page_page_size
from ..errors import invalid_arguments
from ..routing import Routes
from . import bind, changes
from .names import record_name
from .records import check_record, record_type
from .routes_zones import order_param, project_of, zone_in_path
from .store import DnsStore

RECORD_ORDER = {"name_asc": False, "name_desc": True}
PATCH_FIELDS = {"changes", "return_all_records", "disallow_new_zone_creation", "serial"}


def record_routes(store: DnsStore, routes: Routes) -> None:
    def replace_all(z: dict[str, Any], contents: list[dict[str, Any]], field: str) -> list[dict[str, Any]]:
        """An import: the zone's records become `contents` (checked), plus its automatic NS records."""
        records: dict[str, dict[str, Any]] = {}
        errs = []
        for n, raw in enumerate(contents):
            rec, e = check_record(raw, f"{field}.{n}")
            errs += e
            if rec is not None:
                rid = store.uuid()
                records[rid] = {"id": rid, **rec, "updated_at": store.iso()}
        if errs:
            raise invalid_arguments(*errs)
        store.commit(z, store.with_ns(z, records))
        return store.sorted_records(z, False)

    # ---- versions first: `/dns-zones/version/{version_id}` is not a zone named "version" ----------
    @routes.get("/dns-zones/version/{version_id}")
    async def version_records(request: Request) -> Response:
        _, v = store.version(request.path_params["version_id"])
        items = sorted(v["_records"], key=lambda r: (r["name"], r["type"], r["data"]))
        return page_page_size(request, "records", items, dict)

    @routes.get("/dns-zones/version/{version_id}/diff")
    async def version_diff(request: Request) -> Response:
        z, v = store.version(request.path_params["version_id"])
        return JSONResponse({"changes": changes.diff(list(v["_records"]), list(z["_records"].values()))})

    @routes.post("/dns-zones/version/{version_id}/restore")
    async def restore(request: Request) -> Response:
        z, v = store.version(request.path_params["version_id"])
        await checked_body(request, set())  # an empty object, or none
        store.editable(z)
        store.commit(z, {r["id"]: r for r in v["_records"]})
        return JSONResponse({})

    # ---- records ---------------------------------------------------------------------------------
    @routes.get("/dns-zones/{dns_zone}/records")
    async def list_records(request: Request) -> Response:
        z = zone_in_path(store, request)
        q = request.query_params
        rev = RECORD_ORDER[order_param(request, RECORD_ORDER, "name_asc")]
        items = store.sorted_records(z, rev)
        if q.get("name"):
            name = record_name(q["name"])
            items = [r for r in items if r["name"] == name]
        if q.get("type"):
            rtype = record_type(q["type"]) or q["type"]
            items = [r for r in items if r["type"] == rtype]
        if q.get("id"):
            items = [r for r in items if r["id"] == q["id"]]
        return page_page_size(request, "records", items, dict)

    @routes.patch("/dns-zones/{dns_zone}/records")
    async def patch_records(request: Request) -> Response:
        z = zone_in_path(store, request)
        body = await json_body(request, multiline=("changes",))
        errs = check_unknown(body, PATCH_FIELDS)
        if "changes" not in body:
            errs.append(("changes", "required", "a list of changes"))
        for key in ("return_all_records", "disallow_new_zone_creation"):
            if body.get(key) is not None and not isinstance(body[key], bool):
                errs.append((key, "format", "true or false"))
        if body.get("serial") is not None and (
            not isinstance(body["serial"], int) or isinstance(body["serial"], bool) or body["serial"] < 0
        ):
            errs.append(("serial", "format", "a whole number"))
        if errs:
            raise invalid_arguments(*errs)
        store.editable(z)
        records, changed = changes.apply(z["_records"], body["changes"], store.uuid, store.iso())
        if records != z["_records"]:
            store.commit(z, records)
        if body.get("return_all_records") is False:
            return JSONResponse({"records": [records[rid] for rid in changed]})
        return JSONResponse({"records": store.sorted_records(z, False)})

    @routes.delete("/dns-zones/{dns_zone}/records")
    async def clear_records(request: Request) -> Response:
        z = store.editable(zone_in_path(store, request))
        store.commit(z, {})
        return JSONResponse({})

    @routes.get("/dns-zones/{dns_zone}/versions")
    async def list_versions(request: Request) -> Response:
        z = zone_in_path(store, request)
        return page_page_size(
            request, "versions", z["_versions"][::-1], lambda v: {"id": v["id"], "created_at": v["created_at"]}
        )

    @routes.post("/dns-zones/{dns_zone}/import-provider")
    async def import_provider(request: Request) -> Response:
        z = zone_in_path(store, request)
        body = await json_body(request)
        errs = check_unknown(body, {"online_v1"})
        online = body.get("online_v1")
        if not isinstance(online, dict) or not isinstance(online.get("token"), str) or not online["token"].strip():
            errs.append(("online_v1.token", "required", "the API token of the other provider"))
        if errs:
            raise invalid_arguments(*errs)
        assert online is not None  # refused above otherwise
        store.editable(z)
        return JSONResponse(
            {"records": replace_all(z, bind.provider_records(z["_name"], online["token"]), "online_v1")}
        )

    @routes.post("/dns-zones/{dns_zone}/raw")
    async def import_raw(request: Request) -> Response:
        z = zone_in_path(store, request)
        body = await json_body(request, multiline=("content", "bind_source.content"))
        errs = check_unknown(body, {"content", "project_id", "format", "bind_source", "axfr_source"})
        if body.get("format") not in (None, "bind", "unknown_raw_format"):
            errs.append(("format", "constraint", "bind"))
        if body.get("axfr_source") is not None:
            errs.append(
                (
                    "axfr_source",
                    "constraint",
                    "the sandbox cannot transfer a zone from another server: import a BIND zone file",
                )
            )
        field, text = "content", body.get("content")
        if isinstance(body.get("bind_source"), dict):
            field, text = "bind_source.content", body["bind_source"].get("content")
        if not errs and (not isinstance(text, str) or not text.strip()):
            errs.append((field, "required", "the zone file, in BIND format"))
        if errs:
            raise invalid_arguments(*errs)
        assert text is not None  # refused above otherwise
        project_of(body, store)
        store.editable(z)
        parsed, bad = bind.parse(text, z["_name"])
        if bad:
            raise invalid_arguments(*[(field, "format", f"line {n}: {why}") for n, why in bad])
        contents = [rec for _, rec in parsed]
        for n, rec in parsed:  # name the line of a refused record
            _, e = check_record(rec, field)
            if e:
                raise invalid_arguments(
                    *[(field, reason, f"line {n}: {help_message}") for _, reason, help_message in e]
                )
        return JSONResponse({"records": replace_all(z, contents, field)})

    @routes.get("/dns-zones/{dns_zone}/raw")
    async def export_raw(request: Request) -> Response:
        z = zone_in_path(store, request)
        fmt = request.query_params.get("format") or "bind"
        if fmt not in ("bind", "unknown_raw_format"):
            raise invalid_arguments(("format", "constraint", "bind"))
        text = bind.render(z["_name"], store.sorted_records(z, False), serial=z["_rev"])
        return JSONResponse(
            {
                "name": f"{z['_name']}.zone",
                "content_type": "text/plain",
                "content": base64.b64encode(text.encode()).decode(),
            }
        )
