"""Model inference as listed and acted on (spec 2 §2.4, §3.4, §4.4, §7): models moving through five
states to ready, shown as a live stepper; pause and resume; a prediction playground on a ready
model's endpoint (the key goes there only when its origin is trusted). No pydantic here: forms live
in `forms`, loaded on first use."""

from __future__ import annotations

from typing import Any

from ..base import ActionSpec, Call, Column, Lazy, ListParams, kinds_of
from ..columns import name_col
from ..format import COMMON, Tones, date_of
from ..views import Playground
from . import payloads
from ..kind_options import Reading, Rows, Writing

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
inference_kind = kinds_of(product="Inference", api=API, scope_type="global", paging="page_size", reading=Reading(page_size=100, list_params=ListParams({"project_id": "project_id"})),
                          model=Lazy("tui.products.models:Resource"))


def stepper(status: str) -> str:
    """creating ✔ › converting ✔ › [building …] › deploying › ready — where a model is on its way;
    a paused, stopped or broken model says so instead (its way is over)."""
    if status in STEPS:
        at = STEPS.index(status)
        marks = [f"{s} ✔" if n < at else (f"[{s}]" if s == "ready" else f"[{s} …]") if n == at else s for n, s in enumerate(STEPS)]
        return " › ".join(marks) + f"\n{STEP_WORDS[status]}"
    return {
        "pausing": "pausing: its containers are removed, the endpoint closes",
        "paused": "paused: no containers, the endpoint does not answer (resume to deploy it again)",
        "error": "error: it will not serve (see the error below)",
        "deleting": "deleting",
        "locked": "locked by the platform (terms of service): contact support",
    }.get(status, status or "unknown")


def _is(r: Any) -> str:
    state = str(r.get("status") or "unknown")
    return "in error" if state == "error" else state


def _ready(r: Any) -> str | None:
    return None if r.get("status") == "ready" else f"the model is {_is(r)}: predictions need it ready"


def _paused(r: Any) -> str | None:
    return None if r.get("status") == "paused" else f"the model is {_is(r)}: only a paused model resumes"


def _pausable(r: Any) -> str | None:
    return None if r.get("status") == "ready" else f"the model is {_is(r)}: only a ready model pauses"


def _locked(r: Any) -> str | None:
    return "it is locked by the platform: contact support" if r.get("status") == "locked" else None


MODELS = inference_kind(
    id="inference.models",
    title="Models",
    singular="model",
    collection="models",
    list_key="models",
    item_key=None,
    state_field="status",
    transitional=frozenset({"creating", "converting", "building", "deploying", "pausing", "deleting"}),
    reading=Reading(newest_first=True),  # the API's own order (created_at_desc): no sort of 10,000 rows here
    columns=(
        name_col(22),
        Column("status", "Status", lambda r: TONES.text(r.state), width=12, sort_key=lambda r: r.state),
        Column("framework", "Framework", lambda r: r.text("framework"), width=17),
        Column("endpoint", "Endpoint", lambda r: r.text("endpoint") or "—", width=44),
        Column("created", "Created", lambda r: date_of(r.text("created_at")), width=10, sort_key=lambda r: r.text("created_at")),
    ),
    detail_fields=(
        ("Name", lambda m: m.name),
        ("Status", lambda m: stepper(str(m.raw.get("status") or ""))),
        ("Error", lambda m: str(m.raw.get("error_message") or "none")),
        ("Framework", lambda m: str(m.raw.get("framework") or "") + ("  (latest: the backend may change under it)" if str(m.raw.get("framework") or "").endswith(":latest") else "")),
        ("Archive", lambda m: str(m.raw.get("path") or "")),
        ("Endpoint", lambda m: str(m.raw.get("endpoint") or "none yet: it opens when the model is ready")),
        ("Config", lambda m: "\n".join(f"{k}={v}" for k, v in (m.raw.get("config") or {}).items()) or "none (input_type float32)"),
        ("Created", lambda m: str(m.raw.get("created_at") or "")),
    ),
    create=Lazy(FORMS + "MODEL_CREATE"),
    edit=Lazy(FORMS + "MODEL_EDIT"),
    # Its deployment is lost (a new one takes minutes, at a new endpoint): the name is typed.
    writing=Writing(editable=_locked, deletable=_locked, delete_needs_name=True),
    delete=Call("DELETE", "{id}"),
    rows=Rows(about=Lazy("tui.products.inference.kinds:service_info")),
    actions=(
        ActionSpec("try", "Try a prediction…", shape=Playground(
            "Predictions of {name}", Call("POST", "", url_field="endpoint", mutating=False), template=payloads.TEMPLATE,
            docs=Call("GET", "", url_field="endpoint", mutating=False), body=payloads.body, load=payloads.load), why_not=_ready),
        ActionSpec("pause", "Pause (remove its containers)", why_not=_pausable,
                   confirm="Its endpoint stops answering predictions until it is resumed.", call=Call("POST", "{id}/pause", {}),
                   moves_to=frozenset({"pausing", "paused"})),
        ActionSpec("resume", "Resume (deploy it again)", why_not=_paused, call=Call("POST", "{id}/resume", {}),
                   moves_to=frozenset({"deploying", "ready"})),
    ),
)


async def service_info(service: Any, scope: str) -> str:
    """The product header: what the service says of itself (GET on the prefix)."""
    found = await service.call("GET", scope)
    words = " · ".join(str(found.get(k)) for k in ("name", "version", "description") if found.get(k))
    docs = found.get("documentation_url")
    return words + (f" · docs: {docs}" if docs else "")
