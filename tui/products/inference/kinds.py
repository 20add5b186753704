"""Model inference as listed and acted on (spec 2 §2.4, §3.4, §4.4, §7): models moving through five
states to ready, shown as a live stepper; pause and resume; a prediction playground on a ready
model's endpoint (the key goes there only when its origin is trusted). No pydantic here: forms live
in `forms`, loaded on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..kit.base import ActionSpec, Call, Lazy, ListParams, data_lost, kinds_of
from ..kit.declared import Field
from ..kit.format import COMMON, Tones
from ..kit.kind_options import Order, Reading, Refuses, Rows
from ..kit.views import Playground
from . import payloads

if TYPE_CHECKING:
    from ..kit.base import Row
    from ..kit.models import Resource
    from ..kit.service import ResourceService

API = "inference/v1alpha1"
FORMS = "tui.products.inference.forms:"
STEPS = ("creating", "converting", "building", "deploying", "ready")  # spec 2 §3.4, a new model's way
STEP_WORDS = {
    "creating": "the model is registered",
    "converting": "its format is checked against the framework",
    "building": "an image is built",
    "deploying": "containers start and the endpoint opens",
    "ready": "it answers predictions",
}
TONES = Tones(busy={"creating", "converting", "building", "deploying", "pausing"}, bad={"locked"}, base=COMMON)
inference_kind = kinds_of(
    product="Inference",
    api=API,
    scope_type="global",
    reading=Reading(list_params=ListParams({"project_id": "project_id"})),
)


def stepper(status: str) -> str:
    """creating ✔ › converting ✔ › [building …] › deploying › ready — where a model is on its way;
    a paused, stopped or broken model says so instead (its way is over)."""
    if status in STEPS:
        at = STEPS.index(status)
        marks = [
            f"{s} ✔" if n < at else (f"[{s}]" if s == "ready" else f"[{s} …]") if n == at else s
            for n, s in enumerate(STEPS)
        ]
        return " › ".join(marks) + f"\n{STEP_WORDS[status]}"
    return {
        "pausing": "pausing: its containers are removed, the endpoint closes",
        "paused": "paused: no containers, the endpoint does not answer (resume to deploy it again)",
        "error": "error: it will not serve (see the error below)",
        "deleting": "deleting",
        "locked": "locked by the platform (terms of service): contact support",
    }.get(status, status or "unknown")


def _is(r: Row) -> str:
    state = str(r.get("status") or "unknown")
    return "in error" if state == "error" else state


def _ready(r: Row) -> str | None:
    return None if r.get("status") == "ready" else f"the model is {_is(r)}: predictions need it ready"


def _paused(r: Row) -> str | None:
    return None if r.get("status") == "paused" else f"the model is {_is(r)}: only a paused model resumes"


def _pausable(r: Row) -> str | None:
    return None if r.get("status") == "ready" else f"the model is {_is(r)}: only a ready model pauses"


def _locked(r: Row) -> str | None:
    return "it is locked by the platform: contact support" if r.get("status") == "locked" else None


def steps(m: Row | Resource) -> str:
    return stepper(str(m.raw.get("status") or ""))


def framework_line(m: Row | Resource) -> str:
    framework = str(m.raw.get("framework") or "")
    return framework + ("  (latest: the backend may change under it)" if framework.endswith(":latest") else "")


def config_lines(m: Row | Resource) -> str:
    return "\n".join(f"{k}={v}" for k, v in (m.raw.get("config") or {}).items()) or "none (input_type float32)"


MODEL_FIELDS = (
    Field("id", "ID", "id", detail=False),
    Field("name", "Name", "name", width=22),
    Field("status", "Status", "state", width=12, tones=TONES, detail=steps),
    Field("error_message", "Error"),
    Field("framework", "Framework", width=17, detail=framework_line),
    Field("path", "Archive", empty=""),
    Field("endpoint", "Endpoint", width=44, blank="—", empty="none yet: it opens when the model is ready"),
    Field("config", "Config", show=config_lines),
    Field("created_at", "Created", "time", width=10, key="created", empty=""),
)

MODELS = inference_kind(
    id="inference.models",
    singular="model",
    transitional=frozenset({"creating", "converting", "building", "deploying", "pausing", "deleting"}),
    reading=Reading(
        order=Order(newest_first=True)
    ),  # the API's own order (created_at_desc): no sort of 10,000 rows here
    fields=MODEL_FIELDS,
    columns=("name", "status", "framework", "endpoint", "created"),
    create=Lazy(FORMS + "MODEL_CREATE"),
    edit=Lazy(FORMS + "MODEL_EDIT"),
    # Its deployment is lost (a new one takes minutes, at a new endpoint).
    writing=data_lost(refuses=Refuses(edit=_locked, delete=_locked)),
    delete=Call("DELETE", "{id}"),
    rows=Rows(about=Lazy("tui.products.inference.kinds:service_info")),
    actions=(
        ActionSpec(
            "try",
            "Try a prediction…",
            shape=Playground(
                "Predictions of {name}",
                Call("POST", "", url_field="endpoint", mutating=False),
                template=payloads.TEMPLATE,
                docs=Call("GET", "", url_field="endpoint", mutating=False),
                body=payloads.body,
                load=payloads.load,
            ),
            why_not=_ready,
        ),
        ActionSpec(
            "pause",
            "Pause (remove its containers)",
            why_not=_pausable,
            confirm="Its endpoint stops answering predictions until it is resumed.",
            call=Call("POST", "{id}/pause", {}),
            moves_to=frozenset({"pausing", "paused"}),
        ),
        ActionSpec(
            "resume",
            "Resume (deploy it again)",
            why_not=_paused,
            call=Call("POST", "{id}/resume", {}),
            moves_to=frozenset({"deploying", "ready"}),
        ),
    ),
)


async def service_info(service: ResourceService, scope: str) -> str:
    """The product header: what the service says of itself (GET on the prefix)."""
    found = await service.call("GET", scope)
    words = " · ".join(str(found.get(k)) for k in ("name", "version", "description") if found.get(k))
    docs = found.get("documentation_url")
    return words + (f" · docs: {docs}" if docs else "")
