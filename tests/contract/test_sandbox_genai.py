"""The sandbox's generative-model API against spec 3 §4.4, §5.3, §8 and spec/4 "Generative-model API",
and as the openai package calls it (`client.models.list()`, `client.chat.completions.create(...)`)."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from tui.sandbox import DEMO_SECRET_KEY
from tui.sandbox.genai import duration

pytestmark = pytest.mark.anyio
G = "/genai/v1"
HEADERS = (
    "x-ratelimit-limit-requests",
    "x-ratelimit-remaining-requests",
    "x-ratelimit-reset-requests",
    "x-ratelimit-limit-tokens",
    "x-ratelimit-remaining-tokens",
    "x-ratelimit-reset-tokens",
)
CHAT = {
    "model": "sandbox-chat-small",
    "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hello there, cloud"}],
}


@pytest.fixture
async def ai(sandbox):
    """A client as the openai package is: the bearer key, JSON."""
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(sandbox.app),
        base_url="http://sb",
        headers={"Authorization": f"Bearer {DEMO_SECRET_KEY}"},
    ) as c:
        yield c


def events(r: httpx.Response) -> list[str]:
    return [line.removeprefix("data: ") for line in r.text.split("\n\n") if line.startswith("data: ")]


def chunks(r: httpx.Response) -> list[dict]:
    return [json.loads(e) for e in events(r) if e != "[DONE]"]


async def test_models_are_listed_as_the_openai_list(ai):
    r = await ai.get(f"{G}/models")
    body = r.json()
    assert r.status_code == 200 and body["object"] == "list" and len(body["data"]) >= 2
    assert all({"id", "object", "owned_by"} <= set(m) and m["object"] == "model" for m in body["data"])
    one = body["data"][0]["id"]
    assert (await ai.get(f"{G}/models/{one}")).json()["id"] == one


async def test_a_chat_completion_has_the_openai_shape_and_counts_its_tokens(ai):
    r = await ai.post(f"{G}/chat/completions", json=CHAT)
    body = r.json()
    assert r.status_code == 200 and body["object"] == "chat.completion" and body["model"] == "sandbox-chat-small"
    assert {"id", "created"} <= set(body) and body["choices"][0]["message"]["role"] == "assistant"
    assert (
        "Hello there cloud" in body["choices"][0]["message"]["content"]
        and body["choices"][0]["finish_reason"] == "stop"
    )
    usage = body["usage"]
    assert (
        usage["prompt_tokens"] == (3 + 1) + (4 + 1)
        and usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]
    )
    again = (await ai.post(f"{G}/chat/completions", json=CHAT)).json()
    assert again["choices"] == body["choices"]  # deterministic


async def test_a_long_answer_is_asked_in_words_and_cut_by_max_tokens(ai):
    ask = {**CHAT, "messages": [{"role": "user", "content": "Write 2000 words about clouds"}]}
    body = (await ai.post(f"{G}/chat/completions", json=ask)).json()
    assert body["usage"]["completion_tokens"] == 2000 and body["choices"][0]["finish_reason"] == "stop"
    cut = (await ai.post(f"{G}/chat/completions", json={**ask, "max_tokens": 50})).json()
    assert cut["usage"]["completion_tokens"] == 50 and cut["choices"][0]["finish_reason"] == "length"
    assert body["choices"][0]["message"]["content"].startswith(cut["choices"][0]["message"]["content"])


async def test_a_streamed_answer_is_chunks_then_done(ai):
    r = await ai.post(f"{G}/chat/completions", json={**CHAT, "stream": True})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    assert events(r)[-1] == "[DONE]"
    got = chunks(r)
    assert all(c["object"] == "chat.completion.chunk" and c["id"] == got[0]["id"] for c in got)
    assert got[0]["choices"][0]["delta"]["role"] == "assistant" and got[-1]["choices"][0]["finish_reason"] == "stop"
    text = "".join(c["choices"][0]["delta"].get("content", "") for c in got)
    whole = (await ai.post(f"{G}/chat/completions", json=CHAT)).json()["choices"][0]["message"]["content"]
    assert text == whole and all("usage" not in c for c in got)


async def test_usage_comes_last_when_the_stream_options_ask_for_it(ai):
    r = await ai.post(f"{G}/chat/completions", json={**CHAT, "stream": True, "stream_options": {"include_usage": True}})
    last = chunks(r)[-1]
    assert last["choices"] == [] and last["usage"]["completion_tokens"] == len(chunks(r)) - 3


async def test_streaming_sends_each_chunk_as_it_is_made(sandbox):
    """The answer leaves the app in many body messages, not one: a client sees chunks arrive."""
    bodies: list[bytes] = []
    request = json.dumps({**CHAT, "stream": True}).encode()
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": f"{G}/chat/completions",
        "raw_path": f"{G}/chat/completions".encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"authorization", f"Bearer {DEMO_SECRET_KEY}".encode()), (b"content-type", b"application/json")],
        "server": ("sb", 80),
        "client": ("127.0.0.1", 1),
    }
    sent = False

    async def receive():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": request, "more_body": False}
        await asyncio.Event().wait()  # the client stays connected

    async def send(message):
        if message["type"] == "http.response.body" and message.get("body"):
            bodies.append(message["body"])

    await sandbox.app(scope, receive, send)
    assert len(bodies) > 10 and bodies[-1] == b"data: [DONE]\n\n"


async def test_every_answer_carries_the_rate_limit_headers_even_errors(ai, sandbox):
    answers = [
        await ai.get(f"{G}/models"),
        await ai.post(f"{G}/chat/completions", json={"messages": []}),
        await ai.post(f"{G}/chat/completions", json=CHAT, headers={"Authorization": "Bearer wrong"}),
        await ai.get(f"{G}/nowhere"),
    ]
    assert [r.status_code for r in answers] == [200, 422, 401, 404]
    for r in answers:
        assert all(h in r.headers for h in HEADERS), r.status_code
    for r in answers[1:]:
        assert set(r.json()["error"]) == {"message", "type", "param", "code"}, r.status_code
    assert (
        answers[0].headers["x-ratelimit-limit-requests"] == "20"
        and answers[0].headers["x-ratelimit-remaining-requests"] == "19"
    )
    assert answers[0].headers["x-ratelimit-reset-requests"] == "1m0s"


async def test_the_request_limit_runs_out_then_resets_with_the_minute(ai, sandbox, clock):
    sandbox.genai.limits.requests_per_minute = 3
    for left in ("2", "1", "0"):
        r = await ai.post(f"{G}/chat/completions", json=CHAT)
        assert r.status_code == 200 and r.headers["x-ratelimit-remaining-requests"] == left
    clock.advance(48)
    r = await ai.post(f"{G}/chat/completions", json=CHAT)
    err = r.json()["error"]
    assert (
        r.status_code == 429
        and err["type"] == "requests"
        and err["code"] == "rate_limit_exceeded"
        and "12s" in err["message"]
    )
    assert r.headers["retry-after"] == "12" and r.headers["x-ratelimit-reset-requests"] == "12s"
    clock.advance(12)
    r = await ai.post(f"{G}/chat/completions", json=CHAT)
    assert r.status_code == 200 and r.headers["x-ratelimit-remaining-requests"] == "2"


async def test_the_token_limit_counts_prompt_and_completion(ai, sandbox, clock):
    sandbox.genai.limits.tokens_per_minute = 150
    first = await ai.post(f"{G}/chat/completions", json=CHAT)
    used = first.json()["usage"]["total_tokens"]
    assert first.headers["x-ratelimit-remaining-tokens"] == str(150 - used)
    ask = {**CHAT, "messages": [{"role": "user", "content": "say 120 words"}]}
    r = await ai.post(f"{G}/chat/completions", json=ask)
    assert (
        r.status_code == 429
        and r.json()["error"]["type"] == "tokens"
        and "150 tokens per minute" in r.json()["error"]["message"]
    )
    assert r.headers["x-ratelimit-remaining-requests"] == "19"  # refused: not counted
    huge = await ai.post(
        f"{G}/chat/completions", json={**ask, "messages": [{"role": "user", "content": "say 500 tokens"}]}
    )
    assert huge.status_code == 429 and "too large" in huge.json()["error"]["message"]
    clock.advance(60)
    assert (await ai.post(f"{G}/chat/completions", json=ask)).status_code == 200


async def test_simultaneous_streams_are_limited(ai, sandbox):
    sandbox.genai.limits.concurrent = 1
    sandbox.genai.hold = asyncio.Event()
    first = asyncio.ensure_future(ai.post(f"{G}/chat/completions", json={**CHAT, "stream": True}))
    for _ in range(10_000):  # until the first stream is being answered
        if sandbox.genai.limiter.of(sandbox.organization_id).active:
            break
        await asyncio.sleep(0)
    r = await ai.post(f"{G}/chat/completions", json=CHAT)
    assert r.status_code == 429 and r.json()["error"]["type"] == "concurrent_requests"
    sandbox.genai.hold.set()
    assert (await first).status_code == 200
    assert (await ai.post(f"{G}/chat/completions", json=CHAT)).status_code == 200


async def test_a_missing_or_unknown_model_is_422_and_bad_options_400(ai):
    r = await ai.post(f"{G}/chat/completions", json={**CHAT, "model": "gpt-9"})
    assert (
        r.status_code == 422
        and r.json()["error"]["param"] == "model"
        and r.json()["error"]["code"] == "model_not_found"
    )
    assert (await ai.post(f"{G}/chat/completions", json={"messages": CHAT["messages"]})).status_code == 422
    for bad, param in [
        ({"messages": []}, "messages"),
        ({"max_tokens": 0}, "max_tokens"),
        ({"temperature": 3}, "temperature"),
        ({"messages": [{"role": "robot", "content": "x"}]}, "messages[0].role"),
        ({"n": 2}, "n"),
    ]:
        r = await ai.post(f"{G}/chat/completions", json={**CHAT, **bad})
        assert r.status_code == 400 and r.json()["error"]["param"] == param, bad
    r = await ai.post(f"{G}/chat/completions", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_json"


async def test_the_platform_key_header_is_not_the_bearer_the_api_wants(http):
    r = await http.get(f"{G}/models")  # X-Auth-Token only
    assert r.status_code == 401 and r.json()["error"]["code"] == "invalid_api_key"


def test_durations_carry_their_unit():
    assert [duration(s) for s in (0, 0.35, 1, 12, 12.2, 59.5, 60, 61)] == [
        "0s",
        "350ms",
        "1s",
        "12s",
        "13s",
        "1m0s",
        "1m0s",
        "1m1s",
    ]


# ---- as the openai package sends it --------------------------------------------------------------
async def test_chat_completions_create_with_the_options_the_openai_package_sends(ai):
    # client.chat.completions.create(model=…, messages=…, stream=True, stream_options={"include_usage": True},
    # temperature=…, max_completion_tokens=…, top_p=…, user=…): extra options are taken and ignored
    body = {
        **CHAT,
        "stream": True,
        "stream_options": {"include_usage": True},
        "temperature": 0.7,
        "max_completion_tokens": 5,
        "top_p": 1,
        "user": "console",
        "messages": [{"role": "user", "content": [{"type": "text", "text": "Hi in parts"}]}],
    }
    got = chunks(await ai.post(f"{G}/chat/completions", json=body))
    assert got[-1]["usage"]["completion_tokens"] == 5 and got[-2]["choices"][0]["finish_reason"] == "length"


def test_cloudtui_sandbox_prints_the_genai_base_url(capsys, monkeypatch):
    from tui import cli
    from tui.sandbox import serve

    served = []
    monkeypatch.setattr(serve, "serve_forever", lambda sandbox, host, port: served.append((host, port)))
    assert cli.main(["sandbox", "--port", "8799", "--seed", "empty"]) == 0
    out = capsys.readouterr().out
    assert served == [("127.0.0.1", 8799)]
    assert (
        "genai API:  http://127.0.0.1:8799/genai/v1" in out and "CLOUDTUI_GENAI_URL=http://127.0.0.1:8799/genai " in out
    )
