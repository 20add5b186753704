"""Routes of the sandbox's container registry: spec 3 §4.2 and spec/4 "Container registry", with
the rules of spec 3 §2.2, §7 and §8 enforced server-side."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..collection import between_pages, matching, ordered, page
from ..core import check_unknown, checked_body, is_uuid, json_body, path_region
from ..errors import already_exists, invalid_arguments, precondition_failed
from ..routing import Routes
from .store import NAME_MAX, NAME_RULE, VISIBILITIES, RegistryStore

if TYPE_CHECKING:
    from ..collection import Collection

NS_ORDER = {
    "created_at_asc": ("created_at", False),
    "created_at_desc": ("created_at", True),
    "description_asc": ("description", False),
    "description_desc": ("description", True),
    "name_asc": ("name", False),
    "name_desc": ("name", True),
}
ORDER = {k: v for k, v in NS_ORDER.items() if not k.startswith("description")}
STATUSES = ("unknown", "ready", "deleting", "error", "locked")


def _filtered(request: Request, items: list[dict[str, Any]], *fields: str) -> list[dict[str, Any]]:
    q = request.query_params
    status = q.get("status")
    if status and status not in STATUSES:
        raise invalid_arguments(("status", "constraint", f"status is one of {', '.join(STATUSES)}"))
    return matching(request, items, "status", *fields)


def _check_name(name: object, what: str) -> list[tuple[str, str, str]]:
    if not name:
        return [("name", "required", "name is required")]
    if not isinstance(name, str) or len(name) > NAME_MAX or not NAME_RULE.match(name):
        return [("name", "format", f"a {what} name is lower-case letters and digits, separated by one '.', '_' or '-'")]
    return []


def _owner(body: dict[str, Any]) -> list[tuple[str, str, str]]:
    has_org, has_project = bool(body.get("organization_id")), bool(body.get("project_id"))
    if has_org and has_project:
        return [("project_id", "constraint", "give organization_id or project_id, not both")]
    if not has_org and not has_project:
        return [("project_id", "required", "project_id is required")]
    owner = body.get("project_id") or body.get("organization_id")
    return [] if is_uuid(owner) else [("project_id" if has_project else "organization_id", "format", "a UUID")]


def routes(store: RegistryStore) -> list[Route]:
    routes = Routes("/registry/v1/regions/{region}")

    def region_of(request: Request) -> str:
        return path_region(request, ("fr-par", "nl-ams", "pl-waw"), "container registries")

    def one(collection: Collection, key: str) -> Callable[[Request], dict[str, Any]]:
        return lambda request: collection.get(region_of(request), request.path_params[key])

    namespace, image, tag = (
        one(store.namespaces, "namespace_id"),
        one(store.images, "image_id"),
        one(store.tags, "tag_id"),
    )

    def image_out(region: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
        return lambda i: store.image_view(i, store.tags_of(region, i["id"]))

    # ---- namespaces --------------------------------------------------------------------------------
    @routes.get("/namespaces")
    async def list_namespaces(request: Request) -> Response:
        region = region_of(request)
        items = ordered(
            request,
            _filtered(request, store.namespaces.all(region), "project_id", "organization_id"),
            NS_ORDER,
            tie="id",
        )
        return page(request, "namespaces", items, store.namespace_view)

    @routes.post("/namespaces")
    async def create_namespace(request: Request) -> Response:
        region = region_of(request)
        body = await json_body(request)
        errs = check_unknown(body, {"name", "description", "organization_id", "project_id", "is_public"}) + _check_name(
            body.get("name"), "namespace"
        )
        errs += _owner(body) + _description(body) + _public_flag(body)
        if errs:
            raise invalid_arguments(*errs)
        if any(n["name"] == body["name"] for n in store.namespaces.all(region)):  # spec 3 §7.2, §8
            raise already_exists("namespace", f"the namespace name {body['name']!r} is already in use in {region}")
        ns = store.create_namespace(region, body["name"], body.get("description") or "", bool(body.get("is_public")))
        if body.get("project_id"):
            ns["project_id"] = body["project_id"]
        return JSONResponse(store.namespace_view(ns))

    routes.read("/namespaces/{namespace_id}", namespace, store.namespace_view)

    @routes.route("PATCH PUT", "/namespaces/{namespace_id}")
    async def update_namespace(request: Request) -> Response:
        ns = namespace(request)
        body = await checked_body(
            request, {"description", "is_public"}, lambda body: _description(body) + _public_flag(body)
        )
        store.namespaces.patch(ns, body, ("description", "is_public"))
        return JSONResponse(store.namespace_view(ns))

    @routes.delete("/namespaces/{namespace_id}")
    async def delete_namespace(request: Request) -> Response:
        return JSONResponse(store.namespace_view(store.delete(store.namespaces, namespace(request))))

    # ---- images ------------------------------------------------------------------------------------
    @routes.get("/images")
    async def list_images(request: Request) -> Response:
        region = region_of(request)
        q = request.query_params
        visibility = q.get("visibility")
        if visibility and visibility not in ("visibility_unknown", *VISIBILITIES):
            raise invalid_arguments(("visibility", "constraint", "visibility is inherit, public or private"))

        def found() -> list[dict[str, Any]]:
            items = store.images.all(region)
            if q.get("project_id") or q.get("organization_id"):
                owned = {
                    n["id"]
                    for n in store.namespaces.all(region)
                    if q.get("project_id") in (None, n["project_id"])
                    and q.get("organization_id") in (None, n["organization_id"])
                }
                items = [i for i in items if i["namespace_id"] in owned]
            return ordered(request, _filtered(request, items, "namespace_id", "visibility"), ORDER, tie="id")

        return page(request, "images", between_pages(request, store.timeline, found), image_out(region))

    @routes.get("/images/{image_id}")
    async def get_image(request: Request) -> Response:
        return JSONResponse(image_out(region_of(request))(image(request)))

    @routes.patch("/images/{image_id}")
    async def update_image(request: Request) -> Response:
        found = image(request)
        body = await json_body(request)
        errs = check_unknown(body, {"visibility"})
        if body.get("visibility") is not None and body["visibility"] not in VISIBILITIES:
            errs.append(("visibility", "constraint", "visibility is inherit (as its namespace), public or private"))
        if errs:
            raise invalid_arguments(*errs)
        store.images.patch(found, body, ("visibility",))
        return JSONResponse(image_out(region_of(request))(found))

    @routes.delete("/images/{image_id}")
    async def delete_image(request: Request) -> Response:
        found = store.delete(store.images, image(request))
        return JSONResponse(image_out(region_of(request))(found))

    # ---- tags --------------------------------------------------------------------------------------
    @routes.get("/images/{image_id}/tags")
    async def list_tags(request: Request) -> Response:
        region = region_of(request)
        found = image(request)
        items = between_pages(
            request,
            store.timeline,
            lambda: ordered(request, _filtered(request, store.tags_of(region, found["id"])), ORDER, tie="id"),
        )
        return page(request, "tags", items, lambda t: {k: v for k, v in t.items() if not k.startswith("_")})

    @routes.get("/tags/{tag_id}")
    async def get_tag(request: Request) -> Response:
        return JSONResponse({k: v for k, v in tag(request).items() if not k.startswith("_")})

    @routes.delete("/tags/{tag_id}")
    async def delete_tag(request: Request) -> Response:
        """A tag whose digest other tags share is one manifest: deleting it deletes them all, so the
        platform asks for `force` (412 without it)."""
        region = region_of(request)
        found = tag(request)
        force = (request.query_params.get("force") or "").lower() in ("1", "true")
        shared = [
            t
            for t in store.tags_of(region, found["image_id"])
            if t is not found and t["digest"] == found["digest"] and t["status"] != "deleting"
        ]
        if shared and not force:
            raise precondition_failed(
                "resource_still_in_use",
                f"tags {', '.join(t['name'] for t in shared)} share this digest: delete with force=true to delete them "
                "all",
            )
        for other in shared:
            store.delete(store.tags, other)
        store.delete(store.tags, found)
        return JSONResponse({k: v for k, v in found.items() if not k.startswith("_")})

    return routes.table()


def _description(body: dict[str, Any]) -> list[tuple[str, str, str]]:
    d = body.get("description")
    if d is not None and (not isinstance(d, str) or len(d) > 255):
        return [("description", "constraint", "a description is text of at most 255 characters")]
    return []


def _public_flag(body: dict[str, Any]) -> list[tuple[str, str, str]]:
    if body.get("is_public") is not None and not isinstance(body["is_public"], bool):
        return [("is_public", "format", "is_public is a boolean")]
    return []
