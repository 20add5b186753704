"""The generative-model API of the sandbox: OpenAI-compatible, at `/genai/v1` (so the console's
`genai_url` is `{sandbox address}/genai` and clients call `{genai_url}/v1/...`), with
`Authorization: Bearer <secret key>`: spec 3 §4.4, §5.3, §8 and spec/4 "Generative-model API".
The `openai` Python package works with it unchanged (`base_url="{sandbox}/genai/v1"`), streaming
included.

Served: `GET /v1/models` (`{object: "list", data: [{id, object: "model", created, owned_by}]}`),
`GET /v1/models/{id}`, `POST /v1/chat/completions` — a whole answer, or with `stream: true`
server-sent events of `chat.completion.chunk` (a first chunk with the role, one chunk per token,
a last one with `finish_reason`, then one with `usage` and empty `choices` when
`stream_options: {"include_usage": true}` is sent, as the openai package does), then
`data: [DONE]`. The answers come from model.py: deterministic, offline; a prompt asking for
"N words" or "N tokens" gets N tokens, so a benchmark can stream a 2,000-token answer.

Choices where the spec is silent:
- Models: `sandbox-chat-small`, `sandbox-chat-large`, `sandbox-coder`, owned by "sandbox".
- Errors are `{"error": {message, type, param, code}}`: 401 (type invalid_request_error, code
  invalid_api_key) without the right bearer key; 422 for a missing model (code missing_model) or an
  unknown one (model_not_found); 400 for a body that is not JSON, bad `messages`, `max_tokens`
  (or `max_completion_tokens`) not a positive integer, `temperature` outside 0–2, or `n` other
  than 1; 404/405 for other routes and methods under `/genai`. Other OpenAI options (top_p, stop,
  seed, tools, user…) are taken and ignored.
- Rate limits (limits.py), per organization and per minute of the sandbox clock: 20 requests and
  20,000 tokens (prompt plus completion) a minute, and 4 simultaneous streams, small enough to
  reach by hand in the demo; tests change `sandbox.genai.limits`, and `Sandbox(options=
  {"genai_limits": Limits(...)})` sets them. Every answer carries the six `x-ratelimit-*`
  headers (a reset as `350ms`, `12s`, `1m0s`). A request is refused with 429 (type `requests`,
  `tokens` or `concurrent_requests`, code rate_limit_exceeded, the message naming the limit and
  when it resets) and a `retry-after` header in whole seconds. The models and chat routes count
  as requests (a 400 or 422 answer too); a 429, a 401 and an unknown route do not. A chat's
  tokens are known before it is answered (the model is deterministic), so a request that would
  pass the token limit is refused whole, never cut.
- Streaming really streams: one body message per chunk, `genai_chunk_delay` seconds apart
  (`Sandbox(options={"genai_chunk_delay": 0.02})`; 0 by default: as fast as the server sends).
"""

from __future__ import annotations

from ..registry import SandboxProduct
from .limits import Limits, duration
from .routes import GenaiStore, denied, routes

__all__ = ["GenaiStore", "Limits", "PRODUCT", "duration"]

PRODUCT = SandboxProduct("genai", "/genai/", GenaiStore, routes, auth="Bearer", denied=denied)
