"""The gadgets' second endpoint in the sandbox (`/gadget-keys/v1`, Bearer auth): keys made with a one-time
secret, and a chat that answers what it was told, streamed or not, its limits in the headers."""

from __future__ import annotations

import json
import random
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from tui.sandbox.core import json_body, page_page_size
from tui.sandbox.routing import route_table
from tui.sandbox.errors import invalid_arguments, not_found


def key_routes(store: Any) -> list[Route]:
    async def keys(request: Request) -> Response:
        if request.method == "POST":
            body = await json_body(request)
            name = body.get("name")
            if not isinstance(name, str) or not name:
                raise invalid_arguments(("name", "required", "name is required"))
            key = {"id": store.ids.uuid(), "name": name, "created_at": store.clock.iso()}
            store.keys[key["id"]] = key
            return JSONResponse(
                {"key": {**key, "secret_key": f"sk-{key['id'][:8]}-{random.Random(key['id']).getrandbits(64):016x}"}}
            )
        return page_page_size(request, "keys", list(store.keys.values()), dict)

    async def key(request: Request) -> Response:
        k = store.keys.get(request.path_params["id"])
        if k is None:
            raise not_found("key", request.path_params["id"])
        if request.method == "DELETE":
            del store.keys[k["id"]]
            return Response(status_code=204)
        return JSONResponse({"key": dict(k)})

    async def models(request: Request) -> Response:
        return JSONResponse(
            {
                "object": "list",
                "data": [{"id": "gadget-small", "object": "model"}, {"id": "gadget-large", "object": "model"}],
            }
        )

    async def completions(request: Request) -> Response:
        body = await json_body(request, multiline=("messages",))
        messages = body.get("messages")
        store.chats.append(body)
        if body.get("model") not in ("gadget-small", "gadget-large") or not isinstance(messages, list) or not messages:
            raise invalid_arguments(("model", "constraint", "a known model and messages are required"))
        said = str(messages[-1].get("content", ""))
        words = f"You said: {said}".split(" ")
        store.requests_left = max(0, store.requests_left - 1)
        store.tokens_left = max(0, store.tokens_left - len(words) - len(said.split()))
        headers = {
            "x-ratelimit-limit-requests": "60",
            "x-ratelimit-remaining-requests": str(store.requests_left),
            "x-ratelimit-reset-requests": "12s",
            "x-ratelimit-limit-tokens": "10000",
            "x-ratelimit-remaining-tokens": str(store.tokens_left),
            "x-ratelimit-reset-tokens": "12s",
        }
        usage = {
            "prompt_tokens": len(said.split()),
            "completion_tokens": len(words),
            "total_tokens": len(said.split()) + len(words),
        }
        if not body.get("stream"):
            return JSONResponse(
                {
                    "object": "chat.completion",
                    "model": body["model"],
                    "usage": usage,
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": " ".join(words)},
                            "finish_reason": "stop",
                        }
                    ],
                },
                headers=headers,
            )

        async def events() -> Any:
            if "hold" in said:
                await store.release.wait()
            for i, word in enumerate(words):
                delta = {"choices": [{"index": 0, "delta": {"content": (" " if i else "") + word}}]}
                yield f"data: {json.dumps(delta)}\n\n"
            yield (
                "data: "
                + json.dumps({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}], "usage": usage})
                + "\n\n"
            )
            yield "data: [DONE]\n\n"

        return StreamingResponse(events(), media_type="text/event-stream", headers=headers)

    return route_table(
        "/gadget-keys/v1",
        ("GET POST", "/keys", keys),
        ("GET DELETE", "/keys/{id}", key),
        ("GET", "/models", models),
        ("POST", "/chat/completions", completions),
    )
