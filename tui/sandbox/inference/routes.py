"""Routes of the sandbox's inference product: the API (`/inference/v1alpha1`, spec 2 §4.4) and each
model's prediction endpoint (`/inference-endpoints/{model_id}`, see predict.py)."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..collection import between_pages, matching, ordered, page
from ..core import check_unknown, checked_body, is_uuid, json_body
from ..errors import HttpError, invalid_arguments
from ..routing import Routes
from .predict import PredictionError, documentation, predict
from .store import ENDPOINTS, FRAMEWORKS, INPUT_TYPES, InferenceStore, framework_names

PREFIX = "/inference/v1alpha1"
ORDER = {
    "created_at_desc": ("created_at", True),
    "created_at_asc": ("created_at", False),
    "name_asc": ("name", False),
    "name_desc": ("name", True),
    "framework_asc": ("framework", False),
    "framework_desc": ("framework", True),
}
CREATE_FIELDS = {"project_id", "path", "name", "framework", "config"}
NAME_MAX = 255
INFO = {
    "name": "inference",
    "description": "Deploys trained models behind REST prediction endpoints.",
    "version": "v1alpha1",
    "documentation_url": None,
}


def check_create(body: dict[str, Any]) -> list[tuple[str, str, str]]:
    errs = check_unknown(body, CREATE_FIELDS)
    pid = body.get("project_id")
    if not pid:
        errs.append(("project_id", "required", "project_id is required"))
    elif not is_uuid(pid):
        errs.append(("project_id", "format", "a Project ID (UUID)"))
    errs += check_name(body.get("name"))
    path = body.get("path")
    if not path:
        errs.append(("path", "required", "the URL of the model archive is required"))
    elif not isinstance(path, str) or urlsplit(path).scheme not in ("http", "https") or not urlsplit(path).hostname:
        errs.append(("path", "format", "an http:// or https:// URL of the zipped model archive"))
    framework = body.get("framework")
    if not framework:  # spec 2 §2.4: the backend must be given at creation
        errs.append(("framework", "required", f"framework is <backend>:<version>, backends {', '.join(FRAMEWORKS)}"))
    elif framework not in framework_names():
        backend = str(framework).split(":")[0]
        known = FRAMEWORKS.get(backend)
        errs.append(
            (
                "framework",
                "constraint",
                f"{backend} versions are {', '.join(known)}"
                if known
                else f"framework is <backend>:<version> with backend {' or '.join(FRAMEWORKS)}",
            )
        )
    config = body.get("config")
    if config is not None:
        if not isinstance(config, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in config.items()
        ):
            errs.append(("config", "format", "config is a map of strings to strings"))
        elif "input_type" in config and config["input_type"] not in INPUT_TYPES:
            errs.append(("config.input_type", "constraint", f"input_type is one of {', '.join(INPUT_TYPES)}"))
    return errs


def check_name(name: object) -> list[tuple[str, str, str]]:
    if name is None or name == "":
        return [("name", "required", "a name is required")]
    if not isinstance(name, str) or not name.strip() or len(name) > NAME_MAX:
        return [("name", "constraint", f"a name is 1 to {NAME_MAX} characters, not only spaces")]
    return []


def failure(status: int, message: str) -> Response:
    """The prediction endpoint's failure shape (spec 2 §4.4: not the normal answer's)."""
    return JSONResponse({"error": message}, status_code=status)


def routes(store: InferenceStore) -> list[Route]:
    routes = Routes(PREFIX)

    def base(request: Request) -> str:
        return store.endpoint_origin or str(request.base_url)

    def model_of(request: Request) -> dict[str, Any]:
        return store.get(request.path_params["model_id"])

    def answer(request: Request, model: dict[str, Any]) -> Response:
        return JSONResponse(store.view(model, base(request)))

    @routes.get("", "/")
    async def info(request: Request) -> Response:
        return JSONResponse(INFO)

    @routes.get("/models")
    async def list_models(request: Request) -> Response:
        items = between_pages(
            request,
            store.timeline,
            lambda: ordered(
                request, matching(request, store.all(), "organization_id", "project_id"), ORDER, "created_at_desc"
            ),
        )
        return page(request, "models", items, lambda m: store.view(m, base(request)))

    @routes.post("/models")
    async def create_model(request: Request) -> Response:
        body = await json_body(request)
        errs = check_create(body)
        if errs:
            raise invalid_arguments(*errs)
        return answer(request, store.create(body))

    @routes.get("/models/{model_id}")
    async def get_model(request: Request) -> Response:
        return answer(request, model_of(request))

    @routes.patch("/models/{model_id}")
    async def update_model(request: Request) -> Response:
        model = model_of(request)
        body = await checked_body(
            request, {"name"}, lambda body: check_name(body["name"]) if body.get("name") is not None else []
        )
        store.writable(model)
        store.models.patch(model, body, ("name",))
        return answer(request, model)

    @routes.delete("/models/{model_id}")
    async def delete_model(request: Request) -> Response:
        model = model_of(request)
        store.delete(model)
        return answer(request, model)

    @routes.post("/models/{model_id}/pause", "/models/{model_id}/resume")
    async def verb(request: Request) -> Response:
        model = model_of(request)
        errs = check_unknown(await json_body(request), set())
        if errs:
            raise invalid_arguments(*errs)
        (store.pause if request.url.path.endswith("/pause") else store.resume)(model)
        return answer(request, model)

    # ---- the prediction endpoint -------------------------------------------------------------------
    served = Routes(ENDPOINTS)

    @served.route("GET POST", "/{model_id}")
    async def endpoint(request: Request) -> Response:
        try:
            model = model_of(request)
        except HttpError:
            return failure(404, "no model is served at this address")
        if not model["_served"]:
            return failure(404, f"the model is {model['status']}: it has no endpoint yet")
        if model["status"] != "ready":
            return failure(
                503, f"the model is {model['status']}: its endpoint serves predictions only when it is ready"
            )
        if request.method == "GET":
            return JSONResponse(documentation(model, str(request.url.replace(query=""))))
        try:
            body = json.loads(await request.body() or b"null")
        except ValueError:
            return failure(400, "the body is not valid JSON")
        try:
            return JSONResponse(predict(body, model["config"].get("input_type", "float32")))
        except PredictionError as err:
            return failure(400, str(err))

    return routes.table() + served.table()
