"""The test product's sandbox side, in one module: "Gadgets", declared through the registry only.

- `/gadgets/v1/regions/{region}/gadgets`: a regional list (page/page_size, `total_count`, asks for
  `project_id`), each gadget a bare object (no envelope); `building` → `ready` after 2 s; verbs
  `POST …/{id}/check` (changes nothing), `POST …/{id}/restart`, `DELETE …/{id}`.
- `/gadgets/v1/regions/{region}/gadgets/{gadget}/parts` lists a gadget's parts; a part is reached
  and deleted by its *name* at `/gadgets/v1/regions/{region}/parts/{name}`.
- `/gadgets/v1/account`: a global singleton; `POST …/account/upgrade`: `upgrading` (2 s) → "pro".
- `/gadget-keys/v1/keys`: keys behind a bearer token; a create answers the `secret_key` once.
- `PUT …/gadgets/{id}` replaces a gadget's name and description (both required, as a PUT that
  replaces the object asks); `PUT …/gadgets/{id}/labels` its whole set of labels (at most 3,
  keys unique); `POST …/gadgets/{id}/tune` takes `level` (1 to 9) and `project_id` (the context's);
  `PUT …/gadgets/{id}/config` takes `notes` (text), `settings` (a string map) and `modes` (a list).
- `GET …/gadgets/{id}/parts/{name}/notes`: a part's notes, through its gadget (its grandparent);
  `GET …/gadgets/{id}/versions` the versions of its parts (one more after each `PATCH …/parts`),
  `GET …/versions/{version}` one version's parts.
- `GET …/gadgets/{id}/predict` says how to call it; `POST …/gadgets/{id}/predict {"inputs": [n…]}`
  answers `{"outputs": [2n…]}` (a 400 naming the field otherwise).
- `/gadget-keys/v1/models` and `POST /gadget-keys/v1/chat/completions` (OpenAI-compatible): the
  answer repeats the last message word by word as server-sent events (`stream: true`), with the
  `x-ratelimit-*` headers; a message containing "hold" waits until `store.release` is set.
- `/gadgets/v1/station?project_id=`: one per project, 404 until `POST …/station/activate
  {project_id}` (`creating` 2 s → `ready`; its `password` answered once); `POST …/deactivate
  {project_id}` removes it; `GET …/station/beacons?project_id=` lists its beacons.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tui.sandbox.core import json_body, page_page_size
from tui.sandbox.lifecycle import Timeline
from tui.sandbox.routing import route_table
from tui.sandbox.errors import invalid_arguments, not_found
from tui.sandbox.registry import SandboxProduct

from gadgets_keys_sandbox import key_routes

REGIONS = ("fr-par", "nl-ams", "pl-waw")
SETTLE = 2.0


class GadgetStore:
    def __init__(self, sandbox: Any) -> None:
        self.clock = sandbox.clock
        self.ids = sandbox.ids
        self.project_id = sandbox.project_id
        self.gadgets: dict[str, dict[str, dict[str, Any]]] = {r: {} for r in REGIONS}
        self.parts: dict[str, dict[str, dict[str, Any]]] = {r: {} for r in REGIONS}  # region -> name -> part
        self.timeline = Timeline(
            self.clock, stamp=None
        )  # building → ready, restarting → ready, upgrading → active, creating → ready
        self.account: dict[str, Any] = {"id": "account", "plan": "basic", "state": "active", "quota": 10}
        self.keys: dict[str, dict[str, Any]] = {}
        self.events: dict[str, list[dict[str, Any]]] = {}  # gadget id -> its events, oldest first
        self.project_params: list[str | None] = []  # what each list was asked with
        self.station: dict[str, Any] | None = None  # absent until activated
        self.versions: dict[str, list[dict[str, Any]]] = {}  # gadget id -> versions of its parts, oldest first
        self.requests_left, self.tokens_left = 60, 10_000  # the chat's minute
        self.release = asyncio.Event()  # a held answer goes on when set
        self.chats: list[dict[str, Any]] = []  # each chat request's body

    def add_gadget(self, region: str, name: str, state: str = "ready", parts: int = 0) -> dict[str, Any]:
        g = {
            "id": self.ids.uuid(),
            "name": name,
            "region": region,
            "state": state,
            "project_id": self.project_id,
            "description": "",
            "labels": [],
            "level": 1,
            "address": f"{name}.gadgets.example:7000",
        }
        if state in ("building", "restarting"):
            self.timeline.plan(g, (SETTLE, {"state": "ready"}))
        self.gadgets[region][g["id"]] = g
        self.event(g["id"], "created")
        for i in range(parts):
            pname = f"{name}-part-{i + 1}"
            self.parts[region][pname] = {
                "name": pname,
                "gadget_id": g["id"],
                "kind": "bolt" if i % 2 else "gear",
                "count": i + 1,
            }
        self.version(region, g["id"])
        return g

    def version(self, region: str, gid: str) -> None:
        found = self.versions.setdefault(gid, [])
        parts = sorted((dict(p) for p in self.parts[region].values() if p["gadget_id"] == gid), key=lambda p: p["name"])
        found.append({"id": str(len(found) + 1), "created_at": self.clock.iso(), "parts": parts})

    def event(self, gid: str, what: str) -> None:
        events = self.events.setdefault(gid, [])
        events.append({"id": f"{gid}-{len(events) + 1}", "at": self.clock.iso(), "what": what})

    def settle(self, obj: dict[str, Any]) -> dict[str, Any]:
        self.timeline.settle(obj)
        return dict(obj)


def routes(store: GadgetStore) -> list[Route]:
    base = "/gadgets/v1/regions/{region}"

    def region_of(request: Request) -> str:
        region = request.path_params["region"]
        if region not in REGIONS:
            raise invalid_arguments(("region", "constraint", f"unknown region {region!r}"))
        return region

    def gadget_of(region: str, gid: str) -> dict[str, Any]:
        g = store.gadgets[region].get(gid)
        if g is None:
            raise not_found("gadget", gid)
        return g

    async def list_gadgets(request: Request) -> Response:
        region = region_of(request)
        store.project_params.append(request.query_params.get("project_id"))
        if request.query_params.get("project_id") != store.project_id:
            raise invalid_arguments(("project_id", "required", "project_id is required"))
        items = sorted(store.gadgets[region].values(), key=lambda g: g["name"])
        return page_page_size(request, "gadgets", items, store.settle)

    async def get_gadget(request: Request) -> Response:
        return JSONResponse(store.settle(gadget_of(region_of(request), request.path_params["id"])))

    async def delete_gadget(request: Request) -> Response:
        region = region_of(request)
        store.timeline.cancel(gadget_of(region, request.path_params["id"]))
        del store.gadgets[region][request.path_params["id"]]
        return Response(status_code=204)

    async def check(request: Request) -> Response:
        g = gadget_of(region_of(request), request.path_params["id"])
        return JSONResponse({"ok": True, "gadget_id": g["id"]})

    async def restart(request: Request) -> Response:
        g = gadget_of(region_of(request), request.path_params["id"])
        g["state"] = "restarting"
        store.timeline.plan(g, (SETTLE, {"state": "ready"}))
        store.event(g["id"], "restart")
        return JSONResponse(store.settle(g))

    async def list_parts(request: Request) -> Response:
        region = region_of(request)
        g = gadget_of(region, request.path_params["id"])
        items = sorted((p for p in store.parts[region].values() if p["gadget_id"] == g["id"]), key=lambda p: p["name"])
        return page_page_size(request, "parts", items, dict)

    async def list_notes(request: Request) -> Response:
        """A part's notes, reached through its gadget: the part must be that gadget's."""
        region = region_of(request)
        g = gadget_of(region, request.path_params["id"])
        p = store.parts[region].get(request.path_params["name"])
        if p is None or p["gadget_id"] != g["id"]:
            raise not_found("part", request.path_params["name"])
        notes = [
            {"id": f"{p['name']}-n{i}", "name": f"note {i}", "text": f"check {p['name']} #{i}"} for i in range(1, 3)
        ]
        return page_page_size(request, "notes", notes, dict)

    async def list_events(request: Request) -> Response:
        g = gadget_of(region_of(request), request.path_params["id"])
        return page_page_size(request, "events", list(reversed(store.events.get(g["id"], []))), dict)

    async def patch_parts(request: Request) -> Response:
        """Every change or none: a bad one refuses the whole batch."""
        region = region_of(request)
        g = gadget_of(region, request.path_params["id"])
        changes = (await json_body(request)).get("changes")
        if not isinstance(changes, list):
            raise invalid_arguments(("changes", "required", "changes is required"))
        parts = {k: dict(v) for k, v in store.parts[region].items()}
        for i, change in enumerate(changes):
            ((op, value),) = change.items()
            name = value.get("name")
            if op == "add":
                if name in parts:
                    raise invalid_arguments((f"changes.{i}.add.name", "constraint", f"{name} exists"))
                parts[name] = {
                    "name": name,
                    "gadget_id": g["id"],
                    "kind": value.get("kind", "gear"),
                    "count": value.get("count", 1),
                }
            elif name not in parts:
                raise invalid_arguments((f"changes.{i}.{op}.name", "constraint", f"no part {name}"))
            elif op == "set":
                parts[name].update({k: v for k, v in value.items() if k != "name"})
            elif op == "delete":
                del parts[name]
            if op != "delete" and not (isinstance(parts[name]["count"], int) and parts[name]["count"] >= 0):
                raise invalid_arguments(
                    (f"changes.{i}.{op}.count", "constraint", "count must be a non-negative integer")
                )
        store.parts[region] = parts
        store.version(region, g["id"])
        return JSONResponse(
            {"parts": sorted((p for p in parts.values() if p["gadget_id"] == g["id"]), key=lambda p: p["name"])}
        )

    async def part(request: Request) -> Response:
        region = region_of(request)
        p = store.parts[region].get(request.path_params["name"])
        if p is None:
            raise not_found("part", request.path_params["name"])
        if request.method == "DELETE":
            del store.parts[region][p["name"]]
            return Response(status_code=204)
        return JSONResponse(dict(p))

    async def account(request: Request) -> Response:
        return JSONResponse({"account": store.settle(store.account)})

    async def upgrade(request: Request) -> Response:
        if store.settle(store.account)["plan"] == "pro":
            raise invalid_arguments(("plan", "constraint", "already on the pro plan"))
        store.account["state"] = "upgrading"
        store.timeline.plan(store.account, (SETTLE, {"state": "active", "plan": "pro"}))
        return JSONResponse({"account": store.settle(store.account)})

    def project(value: Any, where: str = "project_id") -> None:
        if value != store.project_id:
            raise invalid_arguments((where, "required", "project_id is required and must be your project"))

    async def replace_gadget(request: Request) -> Response:
        g = gadget_of(region_of(request), request.path_params["id"])
        body = await json_body(request)
        missing = [k for k in ("name", "description") if not isinstance(body.get(k), str)]
        if missing:
            raise invalid_arguments(*((k, "required", f"{k} is required") for k in missing))
        g.update(name=body["name"], description=body["description"])
        return JSONResponse(store.settle(g))

    async def labels(request: Request) -> Response:
        g = gadget_of(region_of(request), request.path_params["id"])
        items = (await json_body(request)).get("labels")
        if not isinstance(items, list) or len(items) > 3:
            raise invalid_arguments(("labels", "constraint", "at most 3 labels"))
        keys = [i.get("key") for i in items if isinstance(i, dict)]
        if len(set(keys)) != len(keys) or len(keys) != len(items):
            raise invalid_arguments(("labels", "constraint", "label keys are unique"))
        g["labels"] = [{"key": i["key"], "value": str(i.get("value", ""))} for i in items]
        return JSONResponse(store.settle(g))

    async def tune(request: Request) -> Response:
        g = gadget_of(region_of(request), request.path_params["id"])
        body = await json_body(request)
        project(body.get("project_id"))
        if not isinstance(body.get("level"), int) or not 1 <= body["level"] <= 9:
            raise invalid_arguments(("level", "constraint", "level is 1 to 9"))
        g["level"] = body["level"]
        return JSONResponse(store.settle(g))

    async def configure(request: Request) -> Response:
        g = gadget_of(region_of(request), request.path_params["id"])
        body = await json_body(request, multiline=("notes",))
        if (
            not isinstance(body.get("settings"), dict)
            or not isinstance(body.get("modes"), list)
            or not isinstance(body.get("notes"), str)
        ):
            raise invalid_arguments(("settings", "required", "notes, settings and modes are required"))
        g["config"] = {k: body[k] for k in ("notes", "settings", "modes")}
        return JSONResponse(store.settle(g))

    async def probe(request: Request) -> Response:
        g = gadget_of(region_of(request), request.path_params["id"])
        body = await json_body(request)
        configs = [k for k in ("tcp_config", "http_config") if k in body]
        if len(configs) != 1:
            raise invalid_arguments(("health_check", "constraint", "exactly one of tcp_config and http_config"))
        http = body.get("http_config") or {}
        if "http_config" in body and (
            not str(http.get("uri", "")).startswith("/") or not 100 <= int(http.get("code") or 200) <= 599
        ):
            raise invalid_arguments(("http_config", "constraint", "uri starts with / and code is 100 to 599"))
        g["probe"] = body
        return JSONResponse(store.settle(g))

    def station_of(project_id: Any) -> dict[str, Any]:
        project(project_id)
        if store.station is None:
            raise not_found("station", str(project_id))
        return store.station

    async def station(request: Request) -> Response:
        return JSONResponse(store.settle(station_of(request.query_params.get("project_id"))))

    async def activate(request: Request) -> Response:
        project((await json_body(request)).get("project_id"))
        if store.station is not None:
            raise invalid_arguments(("project_id", "constraint", "the station is already active"))
        store.station = {"project_id": store.project_id, "state": "creating"}
        store.timeline.plan(store.station, (SETTLE, {"state": "ready"}))
        return JSONResponse({**store.settle(store.station), "password": f"pw-{store.ids.uuid()[:12]}"})

    async def deactivate(request: Request) -> Response:
        store.timeline.cancel(station_of((await json_body(request)).get("project_id")))
        store.station = None
        return Response(status_code=204)

    async def beacons(request: Request) -> Response:
        station_of(request.query_params.get("project_id"))
        return page_page_size(request, "beacons", [{"id": f"b{i}", "name": f"beacon-{i}"} for i in range(1, 4)], dict)

    async def versions(request: Request) -> Response:
        g = gadget_of(region_of(request), request.path_params["id"])
        found = [
            {"id": v["id"], "created_at": v["created_at"], "parts_count": len(v["parts"])}
            for v in store.versions.get(g["id"], [])
        ]
        return JSONResponse({"versions": list(reversed(found)), "total_count": len(found)})

    async def version(request: Request) -> Response:
        g = gadget_of(region_of(request), request.path_params["id"])
        v = next((v for v in store.versions.get(g["id"], []) if v["id"] == request.path_params["version"]), None)
        if v is None:
            raise not_found("version", request.path_params["version"])
        return JSONResponse({"parts": v["parts"]})

    async def predict(request: Request) -> Response:
        gadget_of(region_of(request), request.path_params["id"])
        if request.method == "GET":
            return JSONResponse(
                {
                    "call": "POST with a JSON object",
                    "example": {"inputs": [1, 2, 3]},
                    "answer": {"outputs": "each input doubled"},
                }
            )
        inputs = (await json_body(request)).get("inputs")
        if not isinstance(inputs, list) or not all(
            isinstance(n, (int, float)) and not isinstance(n, bool) for n in inputs
        ):
            raise invalid_arguments(("inputs", "constraint", "inputs is a list of numbers"))
        return JSONResponse({"outputs": [n * 2 for n in inputs]})

    return (
        route_table(
            base,
            ("GET", "/gadgets", list_gadgets),
            ("GET", "/gadgets/{id}", get_gadget),
            ("PUT", "/gadgets/{id}", replace_gadget),
            ("DELETE", "/gadgets/{id}", delete_gadget),
            ("POST", "/gadgets/{id}/check", check),
            ("POST", "/gadgets/{id}/restart", restart),
            ("PUT", "/gadgets/{id}/labels", labels),
            ("POST", "/gadgets/{id}/tune", tune),
            ("PUT", "/gadgets/{id}/config", configure),
            ("PUT", "/gadgets/{id}/probe", probe),
            ("GET", "/gadgets/{id}/parts", list_parts),
            ("PATCH", "/gadgets/{id}/parts", patch_parts),
            ("GET", "/gadgets/{id}/events", list_events),
            ("GET", "/gadgets/{id}/parts/{name}/notes", list_notes),
            ("GET", "/gadgets/{id}/versions", versions),
            ("GET", "/gadgets/{id}/versions/{version}", version),
            ("GET POST", "/gadgets/{id}/predict", predict),
            ("GET DELETE", "/parts/{name}", part),
        )
        + route_table(
            "/gadgets/v1",
            ("GET", "/station", station),
            ("POST", "/station/activate", activate),
            ("POST", "/station/deactivate", deactivate),
            ("GET", "/station/beacons", beacons),
            ("GET", "/account", account),
            ("POST", "/account/upgrade", upgrade),
        )
        + key_routes(store)
    )


def seed_demo(store: GadgetStore, rng: random.Random) -> None:
    store.add_gadget("fr-par", "alpha", parts=3)
    store.add_gadget("fr-par", "beta", state="building", parts=1)
    store.add_gadget("nl-ams", "gamma", parts=2)


PRODUCT = SandboxProduct(
    "gadgets",
    "/gadgets/",
    GadgetStore,
    routes,
    seed_demo=seed_demo,
    extra_auth=(("/gadget-keys/", "Bearer"),),
)
