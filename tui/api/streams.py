"""A streamed answer (a chat completion, server-sent events): its status, headers and body as it
comes, text made safe to show."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, AsyncIterator

from . import safe
from .errors import BadBody
from .failures import transport_failure

if TYPE_CHECKING:
    import httpx


class Stream:
    """A response being streamed: `status`, `headers`, and its body as `lines()` or `events()`
    (server-sent events, parsed by httpx-sse). Text is made safe to show."""

    def __init__(
        self, resp: "httpx.Response", method: str = "GET", path: str = "", api_url: str = "", changes: bool = False
    ) -> None:
        self.status = resp.status_code
        self.headers = resp.headers
        self._resp = resp
        self._request = (method, path, api_url, changes)

    async def lines(self) -> AsyncIterator[str]:
        async for line in self._resp.aiter_lines():
            yield line

    async def events(self) -> AsyncIterator[Any]:
        """Each server-sent event (`.event`, `.data`, `.id`); raw data: the caller parses it."""
        from httpx_sse import EventSource

        method, path, api_url, changes = self._request
        kind = self.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "text/event-stream":  # an error page, a proxy's answer, a JSON error in a 200
            raise BadBody(
                self.status,
                f"the answer is {safe.clean(kind) or 'of no content type'} instead of a "
                "stream of events (a proxy or a gateway in the way?)",
                method=method,
                url=path,
            )
        try:
            async for event in EventSource(self._resp).aiter_sse():
                yield event
        except (
            Exception
        ) as exc:  # the connection broke mid-answer: said as a network failure (a bug is raised as it is)
            raise transport_failure(exc, method, path, api_url, None, changes).error from None
