"""The inference product's models (spec 2 §2.4, §3.4, §7): their states on the sandbox clock and how
one is answered. A model's `endpoint` is a URL on the sandbox itself, made from the address the
request came to (`request.base_url`), so it is right over ASGI in tests and under uvicorn alike."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from tui.records import record

from ..collection import Collection
from ..errors import HttpError, invalid_request, precondition_failed, transient_state
from ..lifecycle import Timeline
from ..product_store import ProductStore

if TYPE_CHECKING:
    from ..app import Sandbox

# spec 2 §2.4: the two serving backends and their versions, as `<backend>:<version>`.
FRAMEWORKS = {
    "tensorflow": ("latest", "2.0.0", "1.15.0", "1.14.0", "1.13.1", "1.12.3"),
    "onnx": ("latest", "1.0.0", "0.5.0", "0.4.0"),
}
INPUT_TYPES = (
    "float16",
    "float32",
    "float64",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
)
STATUSES = (
    "ready",
    "paused",
    "error",
    "creating",
    "converting",
    "building",
    "deploying",
    "pausing",
    "deleting",
    "locked",
)
TRANSITIONAL = ("creating", "converting", "building", "deploying", "pausing", "deleting")
# Not all models convert (spec 2 §2.4): an archive whose path says it holds a recurrent network.
RECURRENT = re.compile(r"rnn|lstm|recurrent", re.IGNORECASE)
ENDPOINTS = "/inference-endpoints"  # where each model's prediction endpoint is served
GLOBAL = "global"  # the product has no zone or region: one scope


@record
class Timings:
    create: float = 3.0  # creating → converting
    convert: float = 3.0  # converting → building (or error)
    build: float = 5.0  # building → deploying
    deploy: float = 4.0  # deploying → ready (also after a resume)
    pause: float = 3.0  # pausing → paused
    delete: float = 3.0  # deleting → gone


def framework_names() -> list[str]:
    return [f"{backend}:{version}" for backend, versions in FRAMEWORKS.items() for version in versions]


class InferenceStore(ProductStore):
    t: Timings

    def __init__(self, sandbox: Sandbox) -> None:
        super().__init__(sandbox, "inference_timings", Timings)
        self.timeline = Timeline(self.clock)
        # Where endpoints are served, when not at the address the request came to: a platform that
        # serves predictions from another host (tests: an origin the profile does not trust).
        self.endpoint_origin: str | None = sandbox.options.get("inference_endpoint_origin")
        self.models = Collection("model", (GLOBAL,), self.timeline, scope_key="_scope")

    # ---- reading -----------------------------------------------------------------------------------
    def get(self, model_id: str) -> dict[str, Any]:
        return self.models.get(GLOBAL, model_id)

    def all(self) -> list[dict[str, Any]]:
        return self.models.all(GLOBAL)

    @staticmethod
    def view(model: dict[str, Any], base_url: str) -> dict[str, Any]:
        """A model as answered: its endpoint on the sandbox's own address once it has been deployed."""
        out = {k: v for k, v in model.items() if not k.startswith("_")}
        out["endpoint"] = f"{base_url.rstrip('/')}{ENDPOINTS}/{model['id']}" if model["_served"] else None
        return out

    # ---- making ------------------------------------------------------------------------------------
    def create(self, body: dict[str, Any], *, status: str = "creating", age: float = 0.0) -> dict[str, Any]:
        """A model from a checked body; `creating` and on its way (or, for seeds, already `status`)."""
        at = self.clock.iso(self.clock.now() - age)
        model = {
            "id": self.ids.uuid(),
            "project_id": body.get("project_id") or self.project_id,
            "organization_id": self.organization_id,
            "name": body["name"],
            "path": body["path"],
            "framework": body["framework"],
            "endpoint": None,
            "error_message": None,
            "status": status,
            "config": dict(body.get("config") or {}),
            "created_at": at,
            "updated_at": at,
            "_scope": GLOBAL,
            "_served": status in ("ready", "paused", "pausing", "locked"),
        }
        self.models.add(model)
        if status == "creating":
            t = self.t
            if RECURRENT.search(model["path"]):
                self.timeline.plan(
                    model,
                    (t.create, {"status": "converting"}),
                    (
                        t.convert,
                        {
                            "status": "error",
                            "error_message": "recurrent networks do not convert: the archive holds a recurrent layer, "
                            f"which the {model['framework'].split(':')[0]} backend cannot serve",
                        },
                    ),
                )
            else:
                self.timeline.plan(
                    model,
                    (t.create, {"status": "converting"}),
                    (t.convert, {"status": "building"}),
                    (t.build, {"status": "deploying"}),
                    (t.deploy, {"status": "ready", "_served": True}),
                )
        elif status in ("deploying", "pausing"):
            self.timeline.plan(model, *self._steps(status))
        return model

    def _steps(self, status: str) -> list[tuple[float, dict[str, Any]]]:
        if status == "deploying":
            return [(self.t.deploy, {"status": "ready", "_served": True})]
        return [(self.t.pause, {"status": "paused"})]

    # ---- verbs -------------------------------------------------------------------------------------
    @staticmethod
    def unlocked(model: dict[str, Any]) -> None:
        """A locked model cannot be used (spec 2 §3.4): 412 for any change."""
        if model["status"] == "locked":
            raise precondition_failed(
                "resource_locked", "this model is locked by the platform under its terms of service: contact support"
            )

    def writable(self, model: dict[str, Any]) -> None:
        """A model that may change: not locked, not being deleted."""
        self.unlocked(model)
        if model["status"] == "deleting":
            raise transient_state("model", model["id"], "deleting")

    def pause(self, model: dict[str, Any]) -> None:
        self.writable(model)
        if model["status"] != "ready":
            raise self._refused(model, "paused only when ready")
        model["status"] = "pausing"
        self.timeline.replan(model, *self._steps("pausing"))

    def resume(self, model: dict[str, Any]) -> None:
        self.writable(model)
        if model["status"] != "paused":  # spec 2 §7.3: invalid
            raise self._refused(model, "resumed only when paused")
        model["status"] = "deploying"
        self.timeline.replan(model, *self._steps("deploying"))

    def delete(self, model: dict[str, Any]) -> None:
        self.unlocked(model)  # a second delete while deleting answers the same
        self.models.delete_later(model, self.t.delete)

    @staticmethod
    def _refused(model: dict[str, Any], rule: str) -> HttpError:
        return invalid_request(f"the model is {model['status']}: a model is {rule}")
