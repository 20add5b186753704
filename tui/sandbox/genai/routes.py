"""Routes of the sandbox's generative-model API (`/genai/v1`, OpenAI-compatible): spec 3 §4.4, §5.3,
§8 and spec/4 "Generative-model API". Every answer — errors and refused keys included — carries the
`x-ratelimit-*` headers of the key's organization."""

from __future__ import annotations

import asyncio
import json
import math
from typing import TYPE_CHECKING, Any, AsyncIterator

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ..constants import GENAI_PREFIX
from ..product_store import ProductStore
from .limits import Limits, RateLimiter, Refused
from .model import MODELS, OWNER, answer, prompt_tokens

if TYPE_CHECKING:
    from starlette.types import Receive, Scope, Send

    from ..app import Sandbox
    from .limits import Usage

V1 = GENAI_PREFIX + "/v1"
ROLES = ("system", "user", "assistant", "tool", "developer")
KNOWN_PATHS = {f"{V1}/models", f"{V1}/chat/completions"}


class Invalid(Exception):
    """A request the API refuses: answered with `{"error": {message, type, param, code}}`."""

    def __init__(
        self,
        status: int,
        message: str,
        param: str | None = None,
        code: str | None = None,
        type_: str = "invalid_request_error",
    ) -> None:
        super().__init__(message)
        self.status, self.message, self.param, self.code, self.type = status, message, param, code, type_


def error_body(message: str, type_: str, param: str | None = None, code: str | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": type_, "param": param, "code": code}}


class GenaiStore(ProductStore):
    def __init__(self, sandbox: Sandbox) -> None:
        super().__init__(sandbox)
        self.limits: Limits = sandbox.options.get("genai_limits") or Limits()
        self.limiter = RateLimiter(self.clock, self.limits)
        self.chunk_delay = float(sandbox.options.get("genai_chunk_delay") or 0.0)  # seconds between streamed chunks
        self.hold: asyncio.Event | None = None  # tests: a stream waits here before its first chunk
        self.chats: list[dict[str, Any]] = []  # each answered chat request's body
        # tests: faults of a real wire — raw event data sent after an answer's first piece (an event
        # the protocol does not allow), and headers every answer carries on top of its own
        self.stray_events: list[str] = []
        self.stray_headers: dict[str, str] = {}

    def org_of(self, request: Request | None = None) -> str:  # noqa: ARG002
        """The organization of the key (the sandbox has one key, of one organization)."""
        return self.organization_id

    def headers(self) -> dict[str, str]:
        """The headers every answer carries: the key's limits (and the tests' stray ones)."""
        return {**self.limiter.headers(self.org_of()), **self.stray_headers}

    def respond(self, body: object, status: int = 200, extra: dict[str, str] | None = None) -> Response:
        return JSONResponse(body, status_code=status, headers={**self.headers(), **(extra or {})})

    def refused(self, err: Refused) -> Response:
        code = "rate_limit_exceeded"
        return self.respond(
            error_body(err.message, err.kind, None, code), 429, {"retry-after": str(max(1, math.ceil(err.retry)))}
        )

    def invalid(self, err: Invalid) -> Response:
        return self.respond(error_body(err.message, err.type, err.param, err.code), err.status)


def denied(store: GenaiStore, path: str) -> Response:
    """A missing or wrong bearer key: 401 in the API's error shape, with the headers (not counted)."""
    return store.respond(
        error_body(
            "Incorrect API key provided: send Authorization: Bearer <your secret key>.",
            "invalid_request_error",
            None,
            "invalid_api_key",
        ),
        401,
    )


def _chat_request(body: object) -> dict[str, Any]:
    """The checked chat request: model (422 when missing or unknown), messages, and the options
    the model honours; other OpenAI options are taken and ignored."""
    if not isinstance(body, dict):
        raise Invalid(400, "The body must be a JSON object.", code="invalid_json")
    model = body.get("model")
    if not model:
        raise Invalid(422, f"A model is required: one of {', '.join(MODELS)}.", "model", "missing_model")
    if model not in MODELS:
        raise Invalid(
            422,
            f"The model {str(model)[:100]!r} does not exist: use one of {', '.join(MODELS)}.",
            "model",
            "model_not_found",
        )
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise Invalid(400, "messages is a non-empty list of {role, content}.", "messages", "invalid_value")
    for n, m in enumerate(messages):
        if not isinstance(m, dict) or m.get("role") not in ROLES:
            raise Invalid(
                400, f"messages[{n}].role is one of {', '.join(ROLES)}.", f"messages[{n}].role", "invalid_value"
            )
        content = m.get("content")
        if not (isinstance(content, (str, list)) or (content is None and m["role"] == "assistant")):
            raise Invalid(
                400,
                f"messages[{n}].content is text (or a list of text parts).",
                f"messages[{n}].content",
                "invalid_value",
            )
    limit = body.get("max_completion_tokens", body.get("max_tokens"))
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise Invalid(400, "max_tokens is a positive integer.", "max_tokens", "invalid_value")
    temperature = body.get("temperature")
    if temperature is not None and (
        isinstance(temperature, bool) or not isinstance(temperature, (int, float)) or not 0 <= temperature <= 2
    ):
        raise Invalid(400, "temperature is a number from 0 to 2.", "temperature", "invalid_value")
    if body.get("n", 1) != 1:
        raise Invalid(400, "Only one choice (n = 1) is served.", "n", "invalid_value")
    options = body.get("stream_options")
    usage_at_end = isinstance(options, dict) and options.get("include_usage") is True
    return {
        "model": model,
        "messages": messages,
        "max_tokens": limit,
        "stream": body.get("stream") is True,
        "usage_at_end": usage_at_end,
    }


def routes(store: GenaiStore) -> list[Route]:
    limiter = store.limiter

    def refusal(request: Request) -> Response | None:
        """The answer refusing a request over the key's limits, or None: the request counts, and goes on."""
        try:
            limiter.check_request(store.org_of(request))
        except Refused as err:
            return store.refused(err)
        limiter.charge(store.org_of(request))
        return None

    def model_objects(*models: str) -> list[dict[str, Any]]:
        created = int(store.clock.now()) - 86_400 * 30
        return [{"id": m, "object": "model", "created": created, "owned_by": OWNER} for m in models]

    async def list_models(request: Request) -> Response:
        if (refused := refusal(request)) is not None:
            return refused
        return store.respond({"object": "list", "data": model_objects(*MODELS)})

    async def get_model(request: Request) -> Response:
        if (refused := refusal(request)) is not None:
            return refused
        model = request.path_params["model"]
        if model not in MODELS:
            return store.invalid(Invalid(404, f"The model {model[:100]!r} does not exist.", "model", "model_not_found"))
        return store.respond(model_objects(model)[0])

    async def completions(request: Request) -> Response:
        org = store.org_of(request)
        try:
            limiter.check_request(org)
        except Refused as err:
            return store.refused(err)
        try:
            try:
                raw = json.loads(await request.body() or b"null")
            except ValueError:
                raise Invalid(400, "The body is not valid JSON.", code="invalid_json") from None
            chat = _chat_request(raw)
        except Invalid as err:
            limiter.charge(org)  # an answered request counts, even a refused one
            return store.invalid(err)
        pieces, finish = answer(chat["model"], chat["messages"], chat["max_tokens"])
        prompt = prompt_tokens(chat["messages"])
        usage = {"prompt_tokens": prompt, "completion_tokens": len(pieces), "total_tokens": prompt + len(pieces)}
        try:
            limiter.check_tokens(org, usage["total_tokens"])
        except Refused as err:
            return store.refused(err)
        limiter.charge(org, usage["total_tokens"])
        store.chats.append(raw)
        made = {
            "id": "chatcmpl-" + store.ids.uuid().replace("-", "")[:24],
            "created": int(store.clock.now()),
            "model": chat["model"],
        }
        if not chat["stream"]:
            message = {"role": "assistant", "content": "".join(pieces)}
            return store.respond(
                {
                    **made,
                    "object": "chat.completion",
                    "usage": usage,
                    "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
                }
            )
        headers = store.headers()
        usage_now = limiter.of(org)
        usage_now.active += 1
        return _Stream(
            _events(store, made, pieces, finish, usage if chat["usage_at_end"] else None),
            usage_now,
            media_type="text/event-stream",
            headers={**headers, "cache-control": "no-cache"},
        )

    async def elsewhere(request: Request) -> Response:
        if request.url.path.rstrip("/") in KNOWN_PATHS:
            return store.invalid(
                Invalid(405, f"Method {request.method} is not allowed here.", code="method_not_allowed")
            )
        return store.invalid(
            Invalid(
                404,
                f"No route {request.url.path}: the API serves {', '.join(sorted(KNOWN_PATHS))}.",
                code="unknown_url",
            )
        )

    return [
        Route(f"{V1}/models", list_models, methods=["GET"]),
        Route(f"{V1}/models/{{model:path}}", get_model, methods=["GET"]),
        Route(f"{V1}/chat/completions", completions, methods=["POST"]),
        Route(GENAI_PREFIX + "/{rest:path}", elsewhere, methods=["GET", "POST", "PUT", "PATCH", "DELETE"]),
    ]


class _Stream(StreamingResponse):
    """A streamed answer that counts as one simultaneous request until it ends, however it ends."""

    def __init__(self, content: AsyncIterator[str], usage: Usage, **kw: Any) -> None:
        super().__init__(content, **kw)
        self.usage = usage

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.usage.active -= 1


async def _events(
    store: GenaiStore, made: dict[str, Any], pieces: list[str], finish: str, usage: dict[str, int] | None
) -> AsyncIterator[str]:
    """The answer as server-sent events: a first chunk with the role, one chunk per piece, a last
    one with the finish_reason, the usage (when asked), then `[DONE]`."""

    def chunk(choices: list[dict[str, Any]], **extra: object) -> str:
        return "data: " + json.dumps({**made, "object": "chat.completion.chunk", "choices": choices, **extra}) + "\n\n"

    if store.hold is not None:
        await store.hold.wait()
    yield chunk([{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}])
    for n, piece in enumerate(pieces):
        await asyncio.sleep(store.chunk_delay)  # 0 still lets the server send this chunk before the next
        yield chunk([{"index": 0, "delta": {"content": piece}, "finish_reason": None}])
        if n == 0 and store.stray_events:
            yield "".join(f"data: {data}\n\n" for data in store.stray_events)
    yield chunk([{"index": 0, "delta": {}, "finish_reason": finish}])
    if usage is not None:
        yield chunk([], usage=usage)
    yield "data: [DONE]\n\n"


__all__ = ["GenaiStore", "denied", "routes"]
