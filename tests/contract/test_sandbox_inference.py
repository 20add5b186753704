"""The sandbox's model inference against spec 2 §2.4, §3.4, §4.4, §7 and spec/4 "Common", with each
model's prediction endpoint."""

from __future__ import annotations

import base64

import pytest

from helpers import args
from tui.sandbox import DEMO_PROJECT_ID, ManualClock, Sandbox

pytestmark = pytest.mark.anyio
I = "/inference/v1alpha1"  # noqa: E741
NEW = {
    "project_id": DEMO_PROJECT_ID,
    "name": "digits",
    "path": "https://models.example.com/digits.zip",
    "framework": "onnx:1.0.0",
}


async def models(http, **params):
    return (await http.get(f"{I}/models", params={"page_size": 100, **params})).json()["models"]


async def seeded(http, name):
    return next(m for m in await models(http) if m["name"] == name)


async def test_the_prefix_itself_describes_the_api(http):
    r = await http.get(I)
    assert r.status_code == 200 and set(r.json()) == {"name", "description", "version", "documentation_url"}
    assert r.json()["version"] == "v1alpha1"


async def test_a_new_model_creates_converts_builds_deploys_then_is_ready_with_an_endpoint(http, clock):
    r = await http.post(f"{I}/models", json={**NEW, "config": {"input_type": "float32"}})
    assert r.status_code == 200
    made = r.json()
    assert made["status"] == "creating" and made["endpoint"] is None and made["error_message"] is None
    assert made["organization_id"] and made["config"] == {"input_type": "float32"} and made["framework"] == "onnx:1.0.0"
    seen = []
    for step in (3, 3, 5, 4):
        clock.advance(step)
        seen.append((await http.get(f"{I}/models/{made['id']}")).json()["status"])
    assert seen == ["converting", "building", "deploying", "ready"]
    ready = (await http.get(f"{I}/models/{made['id']}")).json()
    assert (
        ready["endpoint"] == f"http://sb/inference-endpoints/{made['id']}" and ready["updated_at"] > made["updated_at"]
    )


async def test_a_recurrent_network_does_not_convert_and_says_why(http, clock):
    made = (await http.post(f"{I}/models", json={**NEW, "path": "https://models.example.com/sales-LSTM.zip"})).json()
    clock.advance(6)
    got = (await http.get(f"{I}/models/{made['id']}")).json()
    assert (
        got["status"] == "error"
        and "recurrent networks do not convert" in got["error_message"]
        and got["endpoint"] is None
    )


async def test_creation_checks_every_field_and_refuses_unknown_ones(http):
    assert args(await http.post(f"{I}/models", json={})) == {
        "project_id": "required",
        "name": "required",
        "path": "required",
        "framework": "required",
    }
    bad = {
        **NEW,
        "path": "ftp://models.example.com/x.zip",
        "framework": "pytorch:2.0",
        "config": {"threads": 4},
        "gpu": True,
    }
    assert args(await http.post(f"{I}/models", json=bad)) == {
        "gpu": "unknown",
        "path": "format",
        "framework": "constraint",
        "config": "format",
    }
    assert args(await http.post(f"{I}/models", json={**NEW, "framework": "tensorflow:3.0.0"})) == {
        "framework": "constraint"
    }
    assert args(await http.post(f"{I}/models", json={**NEW, "config": {"input_type": "complex64"}})) == {
        "config.input_type": "constraint"
    }
    assert args(await http.post(f"{I}/models", json={**NEW, "project_id": "p1"})) == {"project_id": "format"}
    for framework in ("tensorflow:latest", "tensorflow:1.12.3", "onnx:0.4.0"):
        assert (await http.post(f"{I}/models", json={**NEW, "framework": framework})).status_code == 200


async def test_a_ready_model_pauses_then_resumes_and_resume_needs_paused(http, clock):
    ready = await seeded(http, "image-classifier")
    r = await http.post(f"{I}/models/{ready['id']}/resume")
    assert r.status_code == 400 and r.json()["type"] == "invalid_request_error" and "paused" in r.json()["message"]
    assert (await http.post(f"{I}/models/{ready['id']}/pause", json={})).json()["status"] == "pausing"
    assert (await http.post(f"{I}/models/{ready['id']}/pause")).status_code == 400  # pausing: not ready
    clock.advance(3)
    assert (await http.get(f"{I}/models/{ready['id']}")).json()["status"] == "paused"
    assert (await http.post(f"{I}/models/{ready['id']}/resume")).json()["status"] == "deploying"
    clock.advance(4)
    got = (await http.get(f"{I}/models/{ready['id']}")).json()
    assert got["status"] == "ready" and got["endpoint"] == ready["endpoint"]


async def test_delete_answers_deleting_then_the_model_is_gone(http, clock):
    model = await seeded(http, "sentiment")
    r = await http.delete(f"{I}/models/{model['id']}")
    assert r.status_code == 200 and r.json()["status"] == "deleting"
    assert (await http.patch(f"{I}/models/{model['id']}", json={"name": "x"})).json()["type"] == "transient_state"
    clock.advance(3)
    r = await http.get(f"{I}/models/{model['id']}")
    assert r.status_code == 404 and r.json()["resource"] == "model"
    assert (await http.post(f"/inference-endpoints/{model['id']}", json={"instances": [1]})).status_code == 404


async def test_patch_renames_only(http):
    model = await seeded(http, "sentiment")
    r = await http.patch(f"{I}/models/{model['id']}", json={"name": "sentiment-v2"})
    assert r.json()["name"] == "sentiment-v2" and r.json()["path"] == model["path"]
    assert args(await http.patch(f"{I}/models/{model['id']}", json={"framework": "onnx:1.0.0"})) == {
        "framework": "unknown"
    }
    assert args(await http.patch(f"{I}/models/{model['id']}", json={"name": "  "})) == {"name": "constraint"}


async def test_a_locked_model_takes_no_change(http):
    locked = await seeded(http, "legacy-scorer")
    for method, path in (("PATCH", ""), ("DELETE", ""), ("POST", "/pause"), ("POST", "/resume")):
        r = await http.request(
            method, f"{I}/models/{locked['id']}{path}", json={"name": "x"} if method == "PATCH" else None
        )
        assert r.status_code == 412 and r.json()["precondition"] == "resource_locked", path


async def test_models_list_orders_filters_and_pages(http):
    names = lambda ms: [m["name"] for m in ms]  # noqa: E731
    every = await models(http)
    assert names(every) == names(
        sorted(every, key=lambda m: m["created_at"], reverse=True)
    )  # created_at_desc by default
    by_framework = await models(http, order_by="framework_desc")
    assert [m["framework"] for m in by_framework] == sorted((m["framework"] for m in every), reverse=True)
    assert names(await models(http, order_by="name_asc")) == sorted(names(every))
    assert (
        len(await models(http, project_id=DEMO_PROJECT_ID)) == len(every)
        and await models(http, organization_id=DEMO_PROJECT_ID) == []
    )
    r = (await http.get(f"{I}/models", params={"page": 2, "page_size": 4})).json()
    assert len(r["models"]) == len(every) - 4 and r["total_count"] == len(every)
    assert args(await http.get(f"{I}/models", params={"order_by": "status_asc"})) == {"order_by": "constraint"}


async def test_the_demo_shows_each_state_with_an_error_message_where_one_failed(http, clock):
    every = {m["name"]: m for m in await models(http)}
    assert {m["status"] for m in every.values()} == {"ready", "paused", "error", "deploying", "locked"}
    assert every["sales-forecast"]["error_message"] and every["image-classifier"]["endpoint"]
    clock.advance(90)
    assert (await http.get(f"{I}/models/{every['fraud-detector']['id']}")).json()["status"] == "ready"


def test_scale_adds_n_ready_models():
    sandbox = Sandbox(clock=ManualClock(), seed="empty", scale=50)
    assert [m["status"] for m in sandbox.inference.all()] == ["ready"] * 50


# ---- the prediction endpoint -----------------------------------------------------------------------
async def endpoint_of(http, name):
    return (await seeded(http, name))["endpoint"].removeprefix("http://sb")


async def test_the_endpoint_documents_itself_on_get(http):
    url = await endpoint_of(http, "image-classifier")
    doc = (await http.get(url)).json()
    assert doc["predict"]["method"] == "POST" and set(doc["payloads"]) == {"array", "string", "image"}


async def test_array_data_is_predicted_in_its_shape(http):
    url = await endpoint_of(http, "image-classifier")
    r = await http.post(url, json={"instances": [[1.0, 2.0], [4.0, -4.0]]})
    assert r.status_code == 200 and r.json() == {"predictions": [[2.5, 3.0], [4.0, 0.0]]}
    assert (await http.post(url, json={"inputs": [6]})).json() == {"predictions": [5.0]}


async def test_string_data_gets_one_array_per_string(http):
    url = await endpoint_of(http, "sentiment")
    predictions = (await http.post(url, json={"instances": ["good", "bad"]})).json()["predictions"]
    assert len(predictions) == 2 and all(len(p) == 8 and all(-1 <= x <= 1 for x in p) for p in predictions)
    assert predictions != [predictions[0]] * 2


async def test_image_data_gets_class_scores_read_in_its_mode(http):
    url = await endpoint_of(http, "image-classifier")
    red = base64.b64encode(bytes([255, 0, 0] * 4)).decode()
    body = {"instances": [{"b64": red}], "img_mode": "RGB", "img_format": "channels_last", "img_size": [2, 2]}
    rgb = (await http.post(url, json=body)).json()["predictions"][0]
    bgr = (await http.post(url, json={**body, "img_mode": "BGR"})).json()["predictions"][0]
    assert abs(sum(rgb) - 1) < 1e-5 and rgb[0] == max(rgb) and bgr == rgb[::-1]


@pytest.mark.parametrize(
    "body",
    [
        {"instances": [[1, "x"]]},
        {"instances": []},
        {"instances": [1], "inputs": [1]},
        {"data": [1]},
        {"instances": [{"b64": "AAAA"}], "img_mode": "CMYK", "img_format": "channels_last", "img_size": [1, 1]},
        {"instances": [{"b64": "not base64!"}], "img_mode": "RGB", "img_format": "channels_first", "img_size": [1, 1]},
        {"instances": [[1]], "img_mode": "RGB"},
    ],
)
async def test_bad_input_answers_the_failure_shape(http, body):
    r = await http.post(await endpoint_of(http, "image-classifier"), json=body)
    assert r.status_code == 400 and set(r.json()) == {"error"}


async def test_the_input_type_casts_what_the_model_reads(http, clock):
    made = (await http.post(f"{I}/models", json={**NEW, "config": {"input_type": "uint8"}})).json()
    clock.advance(15)
    url = f"/inference-endpoints/{made['id']}"
    assert (await http.post(url, json={"instances": [[3.9]]})).json() == {"predictions": [[3.5]]}
    assert (await http.post(url, json={"instances": [[-1]]})).status_code == 400


async def test_a_paused_or_locked_model_answers_503_and_one_not_yet_deployed_404(http):
    for name in ("churn-predictor", "legacy-scorer"):
        r = await http.post(await endpoint_of(http, name), json={"instances": [1]})
        assert r.status_code == 503 and "error" in r.json(), name
    deploying = await seeded(http, "fraud-detector")
    assert deploying["endpoint"] is None
    assert (await http.get(f"/inference-endpoints/{deploying['id']}")).status_code == 404


async def test_the_endpoint_takes_the_secret_key_like_the_api(http):
    url = await endpoint_of(http, "image-classifier")
    r = await http.post(url, json={"instances": [1]}, headers={"X-Auth-Token": "wrong"})
    assert r.status_code == 401 and r.json()["type"] == "denied_authentication"
