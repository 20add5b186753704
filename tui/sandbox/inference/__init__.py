"""The model inference product of the sandbox: spec 2 §2.4, §3.4, §4.4, §7 and spec/4 "Common".

- `/inference/v1alpha1` (`X-Auth-Token`): `GET` on the prefix itself answers `{name, description,
  version, documentation_url}`; models are listed, created, read, renamed (PATCH), deleted, paused
  and resumed.
- `/inference-endpoints/{model_id}` (`X-Auth-Token`, the same secret key): each model's prediction
  endpoint, the URL in its `endpoint` field — its payloads and answers are in predict.py.

Choices where the spec is silent:
- Frameworks are `tensorflow:<version>` and `onnx:<version>` with the versions of spec 2 §2.4 (the
  public client libraries no longer carry a v1alpha1 inference API to read the strings from).
  `framework` is required at creation (spec: "must be specified"); anything else is 400 constraint.
- Create takes exactly `project_id` (required UUID), `name` (1 to 255 characters, not unique),
  `path` (an http or https URL), `framework` and `config` (a string map; `input_type`, if given,
  one of float16/32/64, int8/16/32/64, uint8/16/32/64); any other field is 400 unknown. It answers
  200 with the model `creating`; then `converting` 3 s later, `building` 3 s after, `deploying` 5 s
  after, `ready` 4 s after (15 s in all on the sandbox clock; `Timings` in the store).
- An archive whose path contains `rnn`, `lstm` or `recurrent` (any case) does not convert: it
  goes creating → converting → `error`, with `error_message` "recurrent networks do not convert…".
- `endpoint` is null until the model is first `ready`; it is then
  `{the address the request came to}/inference-endpoints/{id}` and stays while the model is paused
  or resumed (the endpoint then answers 503). A model in `error` has none.
- Pause: `ready` only → `pausing` → `paused` 3 s later; resume: `paused` only → `deploying` →
  `ready` 4 s later. Either asked in another state is 400 invalid_request_error naming the state
  (spec 2 §7.3 calls resuming a model that is not paused invalid; no argument is at fault).
- DELETE answers 200 with the model `deleting`, gone 3 s later (a second DELETE answers the same);
  a model being deleted cannot be renamed, paused or resumed (409 transient_state).
- A `locked` model takes no change: PATCH, DELETE, pause, resume answer 412 precondition_failed
  (`precondition: resource_locked`); its endpoint answers 503.
- Listing: `order_by` as spec 2 §4.4 (default created_at_desc), `organization_id`, `project_id` and
  `name` (a part of it) filters, page/page_size with `total_count`.
- Seeds: the demo has a model in each state worth seeing — two ready with endpoints, one paused,
  one in error with its message, one deploying (for 90 s of the demo), one locked. `--scale N`
  adds N ready models.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..registry import SandboxProduct
from .routes import routes
from .store import ENDPOINTS, FRAMEWORKS, InferenceStore, Timings

if TYPE_CHECKING:
    import random

__all__ = ["ENDPOINTS", "FRAMEWORKS", "InferenceStore", "PRODUCT", "Timings"]

DAY = 86_400
ARCHIVES = "https://models.example.com"


def seed_demo(store: InferenceStore, rng: random.Random) -> None:
    def model(name: str, archive: str, framework: str, status: str, age: float, **config: str) -> dict[str, Any]:
        return store.create(
            {"name": name, "path": f"{ARCHIVES}/{archive}", "framework": framework, "config": config},
            status=status,
            age=age,
        )

    model("image-classifier", "resnet50-onnx.zip", "onnx:1.0.0", "ready", 30 * DAY, input_type="float32")
    model(
        "sentiment",
        "sentiment-savedmodel.zip",
        "tensorflow:2.0.0",
        "ready",
        12 * DAY,
        input_type="float32",
        MAX_BATCH="32",
    )
    model("churn-predictor", "churn-v3.zip", "tensorflow:1.15.0", "paused", 60 * DAY)
    broken = model("sales-forecast", "sales-lstm.zip", "tensorflow:2.0.0", "error", 2 * DAY)
    broken["error_message"] = (
        "recurrent networks do not convert: the archive holds a recurrent layer, "
        "which the tensorflow backend cannot serve"
    )
    rolling = model("fraud-detector", "fraud-onnx.zip", "onnx:0.5.0", "ready", 3 * DAY)
    rolling.update(status="deploying", _served=False)
    store.timeline.plan(rolling, (90, {"status": "ready", "_served": True}))
    model("legacy-scorer", "legacy.zip", "tensorflow:1.12.3", "locked", 400 * DAY)


def seed_scale(store: InferenceStore, rng: random.Random, count: int) -> None:
    backends = list(FRAMEWORKS)
    for n in range(count):
        backend = backends[n % 2]
        store.create(
            {
                "name": f"model-{n:05d}",
                "path": f"{ARCHIVES}/scale-{n:05d}.zip",
                "framework": f"{backend}:{FRAMEWORKS[backend][1]}",
            },
            status="ready",
            age=count - n,
        )


PRODUCT = SandboxProduct(
    "inference",
    "/inference/",
    InferenceStore,
    routes,
    seed_demo=seed_demo,
    seed_scale=seed_scale,
    extra_auth=((ENDPOINTS + "/", "X-Auth-Token"),),
)
