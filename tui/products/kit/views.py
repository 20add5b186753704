"""What a product declares to use the console's generic screens (no Textual here; the screens are
in `tui/ui` and name no product):

- `ChatSpec`: a conversation with a model, answers streamed as server-sent events, with gauges
  read from response headers. The manifest opens it (`Entry(..., opens="chat")`).
- `Playground`: a request payload typed or loaded from a file, sent, its answer shown, with a
  history for the session. An action shape on a row (a model's predictions).
- `Node` and `DetailPanel(tree=...)`: a resource's topology as a tree, a tab of its detail.
- `CompareVersions`: pick an earlier version of a resource, see what changed since (the diff view).

The chat speaks the OpenAI-compatible protocol unless a spec says otherwise (`body`, `chunk`,
`model_ids`): it is a wire protocol several platforms share, not one product.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ...records import record
from .base import Row
from .location import Call, Endpoint, segment
from .shapes import Shape, fill_text

if TYPE_CHECKING:
    from .flows import FlowUI


# ---- chat ---------------------------------------------------------------------------------------
@record(frozen=True)
class Chunk:
    """One streamed event, read: text to append, the usage when the answer ends, and whether it did."""

    text: str = ""
    usage: dict[str, Any] | None = None
    finish: str = ""
    done: bool = False


def openai_models(data: Any) -> list[str]:
    items = data.get("data") if isinstance(data, dict) else None
    return [str(m["id"]) for m in items if isinstance(m, dict) and m.get("id")] if isinstance(items, list) else []


def openai_body(messages: list[dict[str, str]], settings: dict[str, Any]) -> dict[str, Any]:
    # the usage of a streamed answer comes in a last chunk only when asked for (as OpenAI's API does)
    body: dict[str, Any] = {
        "model": settings["model"],
        "messages": messages,
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    if settings.get("temperature") is not None:
        body["temperature"] = settings["temperature"]
    if settings.get("max_tokens") is not None:
        body["max_tokens"] = settings["max_tokens"]
    return body


def openai_chunk(data: str) -> Chunk:
    """A `chat.completion.chunk` event; `[DONE]` ends the stream. An event that is none raises
    ValueError saying plainly what is wrong with it ("choices is 7, not a list")."""
    if data.strip() == "[DONE]":
        return Chunk(done=True)
    import json

    try:
        obj = json.loads(data)
    except ValueError:
        raise ValueError("not JSON") from None
    if not isinstance(obj, dict):
        raise ValueError(f"{_short(obj)}, not a JSON object")
    choices = obj.get("choices")
    if not isinstance(choices, (list, type(None))):
        raise ValueError(f"choices is {_short(choices)}, not a list")
    texts, finish = [], ""
    for c in choices or []:
        delta = c.get("delta") if isinstance(c, dict) else None
        content = delta.get("content") if isinstance(delta, dict) else None
        if not isinstance(content, (str, type(None))):
            raise ValueError(f"a delta's content is {_short(content)}, not text")
        texts.append(content or "")
        finish = finish or (str(c.get("finish_reason") or "") if isinstance(c, dict) else "")
    usage = obj.get("usage") if isinstance(obj.get("usage"), dict) else None
    return Chunk("".join(texts), usage, finish)


def _short(value: Any) -> str:
    """A value from the wire as JSON, its start only (the caller cleans it before showing it)."""
    import json

    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 30 else text[:29] + "…"


class Gauge(Shape):
    """A limit the answers' headers report: `remaining` of `limit`, renewed after `reset` (a duration)."""

    label: str
    remaining: str
    limit: str
    reset: str = ""


# How a chat request's body is made from the messages and the settings.
ChatBody = Callable[[list[dict[str, str]], dict[str, Any]], dict[str, Any]]


class ChatSpec(Shape):
    """A chat with the models of `endpoint`: `models` (a GET) lists them, `completions` (a POST of
    `body(messages, settings)`) streams the answer, each event read by `chunk`. Paths are under the
    endpoint's base URL, which for an OpenAI-compatible API ends in `/v1`."""

    title: str
    endpoint: Endpoint
    models: str = "/models"
    completions: str = "/chat/completions"
    gauges: tuple[Gauge, ...] = ()
    model_ids: Callable[[dict[str, Any]], list[str]] = staticmethod(openai_models)
    body: ChatBody = staticmethod(openai_body)
    chunk: Callable[[str], Chunk] = staticmethod(openai_chunk)
    system: str = ""  # the system prompt a conversation starts with


# ---- playground ---------------------------------------------------------------------------------
class Playground(Shape):
    """A request to try on a row: the payload (JSON unless `body` reads it otherwise) is typed or
    loaded from a file, sent with `call`, and the answer or the error shown; every exchange stays
    in the session's history of that row. `docs`, a GET, is shown beside it (how to call it)."""

    title: str
    call: Call
    template: str = "{}"
    docs: Call | None = None
    body: Callable[[str, Row], Any] | None = None  # payload text -> the request body (ValueError: refused)
    load: Callable[[Any], str] | None = None  # a file picked (a Path) -> the payload's text (ValueError: refused)

    @property
    def mutating(self) -> bool:
        return self.call.mutating

    def parse(self, text: str, row: Row) -> Any:
        if self.body is not None:
            return self.body(text, row)
        from .fields import json_object

        return json_object(text)

    async def __call__(self, ui: FlowUI, row: Row) -> None:
        service = ui.service()

        async def send(payload: Any) -> dict[str, Any]:
            return await service.run(self.call, ui.scope, row, payload)

        async def docs() -> dict[str, Any] | None:
            return await service.run(self.docs, ui.scope, row) if self.docs is not None else None

        title = fill_text(self.title, row, ui)
        await ui.dialog(
            "playground",
            title=title,
            key=f"{title}\0{row.id}",
            template=self.template,
            parse=lambda text: self.parse(text, row),
            send=send,
            docs=docs if self.docs else None,
            load=self.load,
        )


# ---- tree ---------------------------------------------------------------------------------------
@record(frozen=True)
class Node:
    """One node of a topology: its label (text from the API is cleaned when shown), its children."""

    label: str
    children: tuple["Node", ...] = ()


TreeLoader = Callable[[Any, str, Row], Any]  # async (service, scope, row) -> Node


# ---- versions -----------------------------------------------------------------------------------
class CompareVersions(Shape):
    """Pick one of a resource's versions (`versions`, a GET listing them under `list_key`), then see
    what changed between it and now: `old` (a path template naming `{version}`) and `new`, both
    GETs answering the objects under `items`, matched by `key`."""

    title: str
    versions: Call
    list_key: str
    label: Callable[[dict[str, Any]], str]
    old: Call
    new: Call
    items: str
    key: Callable[[dict[str, Any]], str]
    version_id: str = "id"
    mutating = False

    async def __call__(self, ui: FlowUI, row: Row) -> None:
        from .diff import compare

        service = ui.service()
        listed = (await service.run(self.versions, ui.scope, row)).get(self.list_key)
        versions = (
            [v for v in listed if isinstance(v, dict) and v.get(self.version_id) is not None]
            if isinstance(listed, list)
            else []
        )
        title = fill_text(self.title, row, ui)
        picked = await ui.pick(title, [(self.label(v), str(v[self.version_id])) for v in versions])
        if picked is None:
            return
        old_call = Call("GET", self.old.path.replace("{version}", segment(picked)), mutating=False)
        old, new = await service.run(old_call, ui.scope, row), await service.run(self.new, ui.scope, row)
        label = next(self.label(v) for v in versions if str(v[self.version_id]) == picked)
        entries = compare(_objects(old, self.items), _objects(new, self.items), self.key)
        await ui.dialog("diff", title=f"{title}: {label} → now", entries=entries)


def _objects(answer: dict[str, Any], key: str) -> list[dict[str, Any]]:
    found = answer.get(key)
    return [o for o in found if isinstance(o, dict)] if isinstance(found, list) else []
