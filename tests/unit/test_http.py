"""The API client on a real wire (httpx over loopback sockets) against a raw server that answers
with crafted bytes: keep-alive, truncated and non-JSON bodies, dropped connections, timeouts,
redirects, Retry-After, and what each becomes for a read and for a write (a write that may have been
applied is never reported as simply failed); certificates and proxies are in test_http_tls.py."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

from tui.api.client import ApiClient, RetryPolicy, decode_object
from tui.api.errors import (
    ApiError,
    BadBody,
    NetworkError,
    OutcomeUnknown,
    RateLimited,
    Redirected,
)

from raw_http import JSON, RawServer, answer, client, ok

pytestmark = pytest.mark.anyio


async def test_keep_alive_headers_and_json() -> None:
    async def handler(head: bytes, w: asyncio.StreamWriter, n: int) -> bool:
        w.write(answer(b'{"n": %d}' % n, extra=JSON + b"X-Total-Count: 7\r\n"))
        return True

    async with RawServer(handler) as srv:
        c = client(srv.url)
        for i in range(1, 4):
            assert await c.get_json("/a/b", {"page": i}) == {"n": i}
        await c.aclose()
        # The first GET goes by httpx's sync client, from the thread that imports httpx (the first
        # rows do not wait for the async stack), on a connection of its own; one kept-alive
        # connection serves every later request.
        assert srv.connections == 2
        assert srv.requests[0].startswith(b"GET /a/b?page=1 HTTP/1.1\r\n")
        assert b"\r\nx-auth-token: " + b"k" * 36 + b"\r\n" in srv.requests[0].lower()


async def test_a_2xx_that_is_not_json_is_retried_for_a_read_and_unknown_for_a_write() -> None:
    page = b"<html><body>Proxy login</body></html>"

    async def handler(head: bytes, w: asyncio.StreamWriter, n: int) -> bool:
        w.write(
            answer(
                page,
                status="201 Created" if head.startswith(b"POST") else "200 OK",
                extra=b"Content-Type: text/html\r\n",
            )
        )
        return True

    async with RawServer(handler) as srv:
        c = client(srv.url)
        with pytest.raises(BadBody, match="not the JSON expected .text/html"):
            await c.get_json("/servers")
        assert len(srv.requests) == 4, "a read is tried again within the deadline"
        with pytest.raises(OutcomeUnknown, match="may have been applied") as lost:
            await c.send_json("POST", "/servers", {"name": "a"})
        assert lost.value.summary.count("201") == 1  # walk: "201 the API answered 201 with a body…"
        assert len(srv.requests) == 5, "a write is sent once"
        await c.aclose()


async def test_a_request_that_changes_nothing_fails_plainly_when_its_answer_is_lost() -> None:
    """A prediction (a POST that changes nothing): a 5xx or a body that is not JSON is a failure,
    never "it may have been applied"; it is sent once."""

    async def handler(head: bytes, w: asyncio.StreamWriter, n: int) -> bool:
        page = b"<html><body>Bad gateway</body></html>"
        w.write(answer(page, status="502 Bad Gateway" if n % 2 else "200 OK", extra=b"Content-Type: text/html\r\n"))
        return True

    async with RawServer(handler) as srv:
        c = client(srv.url)
        for _ in range(2):
            with pytest.raises(ApiError) as caught:
                await c.request_data("POST", "/predict", json={"instances": [1]}, decode=decode_object, mutating=False)
            assert not isinstance(caught.value, OutcomeUnknown) and "may have been applied" not in str(caught.value)
        assert len(srv.requests) == 2, "each sent once"
        await c.aclose()


async def test_truncated_body_and_dropped_connection() -> None:
    async def handler(head: bytes, w: asyncio.StreamWriter, n: int) -> bool:
        if head.startswith(b"DELETE"):
            w.transport.abort()  # dropped before any answer, after the request arrived
            return False
        w.write(b'HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{"short')
        return False

    async with RawServer(handler) as srv:
        c = client(srv.url)
        with pytest.raises(NetworkError, match="connection broke"):
            await c.get_json("/servers")
        assert len(srv.requests) == 4
        with pytest.raises(OutcomeUnknown, match="may have been applied"):
            await c.send_json("POST", "/servers", {"name": "a"})
        with pytest.raises(OutcomeUnknown, match="may have been applied"):
            await c.request("DELETE", "/servers/1")
        assert [r.split(b" ")[0] for r in srv.requests[4:]] == [b"POST", b"DELETE"], "no write is re-sent"
        await c.aclose()


async def test_timeout_after_sending_a_write_is_unknown_and_a_refused_connection_is_not() -> None:
    async def silent(head: bytes, w: asyncio.StreamWriter, n: int) -> bool:
        await asyncio.sleep(3)
        return False

    async with RawServer(silent) as srv:
        c = client(srv.url, timeout=0.2)
        with pytest.raises(OutcomeUnknown, match="timed out waiting for .* may have been applied"):
            await c.send_json("POST", "/servers", {"name": "a"})
        await c.aclose()
    c = client(srv.url, retry=RetryPolicy(deadline=30, max_attempts=3))  # the server is gone
    with pytest.raises(NetworkError, match="cannot connect") as caught:
        await c.send_json("POST", "/servers", {"name": "a"})
    assert not isinstance(caught.value, OutcomeUnknown), "a connection never made cannot have applied anything"
    assert len(c.sleeps) == 2, "and so even a write is tried again"
    await c.aclose()


async def test_redirects_are_followed_only_for_a_read_to_the_same_origin() -> None:
    async def handler(head: bytes, w: asyncio.StreamWriter, n: int) -> bool:
        path = head.split(b" ")[1]
        if path == b"/old":
            w.write(answer(b"", status="301 Moved Permanently", extra=b"Location: /new\r\n"))
        elif path == b"/away":
            w.write(answer(b"", status="302 Found", extra=b"Location: https://elsewhere.example/login\r\n"))
        elif path == b"/post":
            w.write(answer(b"", status="307 Temporary Redirect", extra=b"Location: /post2\r\n"))
        else:
            w.write(answer(b'{"ok": true}', extra=JSON))
        return True

    async with RawServer(handler) as srv:
        c = client(srv.url)
        assert await c.get_json("/old") == {"ok": True}
        with pytest.raises(Redirected, match="302 the API redirected to https://elsewhere.example/login") as caught:
            await c.get_json("/away")
        assert caught.value.location == "https://elsewhere.example/login"
        assert "try again" in caught.value.hint  # walk: one redirect among good answers is not a wrong URL
        with pytest.raises(Redirected, match="307 .*a POST is never re-sent after a redirect"):
            await c.send_json("POST", "/post", {})
        assert not any(r.startswith(b"POST /post2") for r in srv.requests)
        await c.aclose()


async def test_retry_after_is_honoured_and_own_backoff_kept_without_it() -> None:
    async def handler(head: bytes, w: asyncio.StreamWriter, n: int) -> bool:
        if n == 1:
            w.write(answer(b"", status="429 Too Many Requests", extra=b"Retry-After: 3\r\n"))
        elif n == 2:
            w.write(answer(b"", status="503 Service Unavailable"))
        elif n == 3:
            w.write(answer(b"", status="429 Too Many Requests", extra=b"X-Envoy-Ratelimited: true\r\n"))
        else:
            w.write(answer(b"{}", extra=JSON))
        return True

    async with RawServer(handler) as srv:
        c = client(srv.url)
        assert await c.get_json("/x") == {}
        assert c.sleeps[0] == 3.0
        assert all(s < 1.0 for s in c.sleeps[1:]), c.sleeps
        c2 = client(srv.url, retry=RetryPolicy(deadline=5))
        srv.requests.clear()

        async def always(head: bytes, w: asyncio.StreamWriter, n: int) -> bool:
            w.write(answer(b"", status="429 Too Many Requests", extra=b"Retry-After: 60\r\n"))
            return True

        srv.handler = always
        with pytest.raises(RateLimited):
            await c2.get_json("/x")  # 60 s is past the deadline: the 429 is reported at once
        assert c2.sleeps == []
        await c.aclose()
        await c2.aclose()


def test_the_console_start_path_does_not_import_httpx():
    """httpx (~45 ms to import) is imported in a thread on the first request, not on the start path."""
    code = (
        "import sys\n"
        "from tui.api.client import ApiClient\n"
        "from tui.products.kit.service import ResourceService\n"
        "import tui.ui.app, tui.ui.screens.main\n"
        "print('httpx' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_quitting_while_the_first_request_waits_does_not_wait_for_its_answer():
    """The first GET waits in a daemon thread: an operator who quits while the network is dead is
    not kept until the request times out (here 300 s; the process must end long before)."""
    code = (
        "import asyncio, socket\n"
        "from tui.api.client import ApiClient\n"
        "server = socket.socket(); server.bind(('127.0.0.1', 0))\n"
        "server.listen(8)  # takes the request, never answers\n"
        "held = []\n"
        "async def main():\n"
        "    c = ApiClient(f'http://127.0.0.1:{server.getsockname()[1]}', 'k' * 36, timeout=300)\n"
        "    waiting = asyncio.ensure_future(c.get_json('/x'))\n"
        "    held.append(await asyncio.get_running_loop().run_in_executor(None, server.accept))  # kept open\n"
        "    assert not waiting.done()\n"
        "    waiting.cancel()\n"
        "asyncio.run(main())\n"
        "print('quit')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "quit"


async def test_a_response_is_freed_without_the_cyclic_collector() -> None:
    """Listings pause the cyclic GC; a response kept alive by a cycle would keep its body (100 MB
    for 50,000 servers) until the next collection, or for ever once frozen."""
    import gc
    import weakref

    async with RawServer(ok) as srv:
        c = client(srv.url)
        await c.get_json("/warm")
        gc.collect()
        gc.disable()
        try:
            resp = await c.request("GET", "/x")
            ref = weakref.ref(resp)
            del resp
            assert ref() is None
        finally:
            gc.enable()
        await c.aclose()


async def test_a_stream_gives_its_headers_then_its_events_and_read_only_allows_only_what_changes_nothing():
    import httpx

    from tui.api.client import BEARER
    from tui.api.errors import ReadOnlyError, RateLimited

    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.url.path == "/limited":
            return httpx.Response(429, json={"message": "slow down"})
        body = b'data: {"delta":"Hel"}\n\ndata: {"delta":"lo"}\n\ndata: [DONE]\n\n'
        return httpx.Response(
            200, headers={"content-type": "text/event-stream", "x-ratelimit-remaining-requests": "9"}, content=body
        )

    client = ApiClient(
        "http://platform.example",
        "secret-key",
        transport=httpx.MockTransport(handler),
        auth=BEARER,
        read_only=True,
        trusted=("http://model.example",),
    )  # the profile allows the model's own origin
    # an absolute URL (a model's own endpoint), a POST that changes nothing: allowed in read-only
    async with client.stream(
        "POST", "http://model.example/v1/chat/completions", json={"messages": []}, mutating=False
    ) as stream:
        assert stream.status == 200 and stream.headers["x-ratelimit-remaining-requests"] == "9"
        data = [event.data async for event in stream.events()]
    assert data == ['{"delta":"Hel"}', '{"delta":"lo"}', "[DONE]"]
    assert str(seen[0].url) == "http://model.example/v1/chat/completions"
    assert seen[0].headers["Authorization"] == "Bearer secret-key" and seen[0].headers["Accept"] == "text/event-stream"
    with pytest.raises(ReadOnlyError):  # a stream that changes something is refused before sending
        async with client.stream("POST", "/v1/anything"):
            pass
    assert len(seen) == 1
    with pytest.raises(RateLimited):  # a failure before the body is an ApiError, as for any request
        async with client.stream("GET", "/limited"):
            pass
    await client.aclose()


async def test_a_stream_answered_with_json_or_cut_short_is_a_plain_failure_not_a_bug():
    import httpx

    from tui.api.client import BEARER

    class Cut(httpx.AsyncByteStream):
        async def __aiter__(self):
            yield b'data: {"delta":"Hel"}\n\n'
            raise httpx.RemoteProtocolError("peer closed connection without sending complete message body")

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/json":
            return httpx.Response(200, json={"error": {"message": "no stream here"}})
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=Cut())

    client = ApiClient("http://platform.example", "secret-key", transport=httpx.MockTransport(handler), auth=BEARER)
    async with client.stream("POST", "/json", json={}, mutating=False) as stream:
        with pytest.raises(BadBody, match="application/json instead of a stream of events"):
            [event async for event in stream.events()]
    async with client.stream("POST", "/cut", json={}, mutating=False) as stream:
        got = []
        with pytest.raises(NetworkError, match="connection broke") as caught:
            async for event in stream.events():
                got.append(event.data)
        assert got == ['{"delta":"Hel"}'] and not isinstance(
            caught.value, OutcomeUnknown
        )  # what came stays; nothing was changed


def test_an_idle_connection_outlives_the_refresh_interval_and_is_closed_by_us_first():
    """The idle probe every refresh finds its connection open (no new handshake), and the client lets a
    connection go before the server would (a request never races the server's close)."""
    import ssl

    from tui.api.http_setup import options
    from tui.sandbox.serve import _config
    from tui.products.kit.refresh_plan import RefreshPolicy

    kept = options(ssl.create_default_context(), 15.0, 16, "t")["limits"].keepalive_expiry
    served = _config(object(), "127.0.0.1", 0).timeout_keep_alive
    assert RefreshPolicy().slow < kept < served


async def test_many_requests_at_once_each_get_a_connection_across_the_pools_and_a_lone_one_reuses_one() -> None:
    """The client's connections are in pools of eight (`api.pools`): twenty requests at once are all
    on the wire together (the server answers none until all twenty came), and a request on its own
    afterwards goes on a connection kept open, not a new one."""
    arrived = asyncio.Event()
    waiting = [0]

    async def handler(head: bytes, w: asyncio.StreamWriter, n: int) -> bool:
        if b"page=" in head:
            waiting[0] += 1
            if waiting[0] == 20:
                arrived.set()
            await arrived.wait()
        w.write(answer(b'{"n": %d}' % n, extra=JSON))
        return True

    async with RawServer(handler) as srv:
        c = client(srv.url)
        await c.get_json("/first")  # (httpx's sync client, a connection of its own)
        got = await asyncio.wait_for(asyncio.gather(*(c.get_json("/a", {"page": i}) for i in range(20))), 30)
        assert len(got) == 20 and srv.connections == 1 + 20
        await c.get_json("/alone")
        assert srv.connections == 1 + 20
        await c.aclose()
