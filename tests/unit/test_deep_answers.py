"""An answer nested too deep to read is an unreadable answer like any other (issue 32, item 3): a
read is tried again, a write "may have been applied" (and is never sent twice); nothing raises a
RecursionError that would be shown as a bug."""

from __future__ import annotations

import httpx
import pytest

from tui.api import safe
from tui.api.client import ApiClient
from tui.api.errors import BadBody, OutcomeUnknown, error_from_response


def nested(depth: int, leaf: bytes = b'"x\\n"') -> bytes:
    return b'{"a":' * depth + leaf + b"}" * depth


@pytest.mark.parametrize("depth", [safe.MAX_DEPTH + 1, 900, 1100, 100_000])
def test_too_deep_is_not_json(depth):
    with pytest.raises(ValueError, match="nested deeper"):
        safe.loads(nested(depth))
    assert error_from_response(500, nested(depth)).status == 500  # an error page that deep is read as text


def test_as_deep_as_allowed_is_read():
    data = safe.loads(nested(safe.MAX_DEPTH - 1, b'"vnc://u:p@h"'))
    for _ in range(safe.MAX_DEPTH - 1):
        data = data["a"]
    assert data == "vnc://u:•••@h" and data.secret == "vnc://u:p@h"


@pytest.mark.anyio
async def test_a_read_is_retried_and_a_write_sent_once():
    calls: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request.method)
        return httpx.Response(
            200 if request.method == "GET" else 201, content=nested(5000), headers={"content-type": "application/json"}
        )

    async def no_sleep(_: float) -> None:
        return None

    client = ApiClient("http://api", "k", transport=httpx.MockTransport(handler), sleep=no_sleep)
    with pytest.raises(BadBody, match="not the JSON expected"):
        await client.get_json("/servers")
    assert calls.count("GET") > 1, "a read is tried again"
    with pytest.raises(OutcomeUnknown, match="may have been applied"):
        await client.send_json("POST", "/servers", {"name": "a"})
    assert calls.count("POST") == 1, "a write is sent once"
    await client.aclose()
