"""The client: auth header, retries only where safe, backoff inside a deadline, read-only, redaction."""

import logging

import anyio
import httpx
import pytest

from tui.api.client import ApiClient, RetryPolicy
from tui.api.errors import OutcomeUnknown, AuthenticationError, RateLimited, ReadOnlyError, ServerError
from tui.sandbox import DEMO_SECRET_KEY

pytestmark = pytest.mark.anyio
SERVERS = "/instance/v1/zones/fr-par-1/servers"


async def test_wrong_key_is_a_typed_401(make_client):
    client = make_client(secret="00000000-0000-4000-8000-000000000000")
    with pytest.raises(AuthenticationError) as info:
        await client.get_json(SERVERS)
    assert info.value.status == 401
    assert info.value.body["reason"] == "not_found"


async def test_get_retries_429_then_succeeds(make_client, sandbox):
    sandbox.inject(429, SERVERS, times=2)
    client = make_client()
    data = await client.get_json(SERVERS)
    assert len(data["servers"]) == 8
    assert client.stats.rate_limited == 2 and client.stats.retries == 2
    assert len(client.sleeps) == 2 and client.sleeps[1] > client.sleeps[0] * 0.9  # backoff grows


async def test_get_gives_up_at_the_deadline(make_client, sandbox):
    sandbox.inject(503, SERVERS)
    client = make_client(retry=RetryPolicy(deadline=1.0, base=0.4, cap=4, max_attempts=10))
    with pytest.raises(ServerError):
        await client.get(SERVERS)
    assert sum(client.sleeps) <= 1.0


async def test_post_is_never_retried_after_reaching_the_server(make_client, sandbox):
    sandbox.inject(503, SERVERS, method="POST", times=1)
    client = make_client()
    with pytest.raises(OutcomeUnknown, match="503 .*may have been applied"):  # never "failed, retry"
        await client.send_json("POST", SERVERS, {"name": "x"})
    assert [m for m, p in sandbox.requests if m == "POST"] == ["POST"]  # sent exactly once
    assert client.stats.retries == 0


async def test_post_is_retried_when_the_connection_was_never_made():
    calls = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request.method)
        if len(calls) == 1:
            raise httpx.ConnectError("refused", request=request)
        return httpx.Response(201, json={"server": {"id": "x"}})

    async def no_sleep(_):
        return None

    client = ApiClient("http://api", "k", transport=httpx.MockTransport(handler), sleep=no_sleep)
    assert await client.send_json("POST", SERVERS, {}) == {"server": {"id": "x"}}
    assert calls == ["POST", "POST"]


async def test_read_timeout_on_post_is_not_retried():
    calls = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request.method)
        raise httpx.ReadTimeout("slow", request=request)

    client = ApiClient("http://api", "k", transport=httpx.MockTransport(handler))
    with pytest.raises(OutcomeUnknown) as info:
        await client.send_json("POST", SERVERS, {})
    assert calls == ["POST"]
    assert (
        info.value.status == 0 and "timed out" in info.value.message and "may have been applied" in info.value.message
    )


async def test_read_only_refuses_before_sending(make_client, sandbox):
    client = make_client(read_only=True)
    with pytest.raises(ReadOnlyError):
        await client.send_json("POST", SERVERS, {})
    with pytest.raises(ReadOnlyError):
        await client.request("DELETE", SERVERS + "/x")
    assert sandbox.requests == type(sandbox.requests)()  # nothing reached the sandbox
    assert (await client.get(SERVERS)).status_code == 200


async def test_debug_log_never_contains_the_secret(make_client, sandbox, caplog):
    caplog.set_level(logging.DEBUG, logger="cloudtui")
    sandbox.inject(429, SERVERS, times=1)
    client = make_client()
    await client.get_json(SERVERS, {"per_page": 5})
    assert "GET /instance/v1/zones/fr-par-1/servers" in caplog.text
    assert DEMO_SECRET_KEY not in caplog.text
    assert DEMO_SECRET_KEY not in repr(client)


async def test_rate_limit_exhausted_raises_rate_limited(make_client, sandbox):
    sandbox.inject(429, SERVERS)
    client = make_client(retry=RetryPolicy(deadline=60, max_attempts=3))
    with pytest.raises(RateLimited) as caught:
        await client.get(SERVERS)
    assert client.stats.rate_limited == 3 and "retries reads" in caught.value.hint


async def test_a_change_refused_with_429_is_sent_again_in_its_budget_and_its_entry_says_so(make_client, sandbox):
    """A 429 was not applied: the write is sent again as the platform asks, and its journal entry says it
    was refused first; refused until its budget runs out, it says it was not applied and is not sent again."""
    from tui.api.journal import Journal

    client = make_client(retry=RetryPolicy(deadline=60, max_attempts=3))
    client.journal = Journal(lambda: "demo")
    web = next(s["id"] for s in (await client.get_json(SERVERS))["servers"] if s["state"] == "running")
    sandbox.inject(429, "/action", method="POST", times=2)
    await client.send_json("POST", f"{SERVERS}/{web}/action", {"action": "poweroff"})
    entry = client.journal.entries[0]
    assert sum(1 for m, p in sandbox.requests if m == "POST") == 3 and entry.outcome == "done"
    assert "refused for the rate (429) 2 times, so not applied then" in entry.said
    sandbox.inject(429, "/action", method="POST")
    with pytest.raises(RateLimited) as caught:
        await client.send_json("POST", f"{SERVERS}/{web}/action", {"action": "poweroff"})
    assert caught.value.method == "POST" and "not applied" in caught.value.hint and "J retries" in caught.value.hint
    assert sum(1 for m, p in sandbox.requests if m == "POST") == 6, "three tries, the policy's most"


async def test_a_pooled_connection_finds_its_socket_once_and_still_sees_the_server_close_it():
    """httpcore asks every idle pooled connection whether its socket is readable (the server closed
    it) as each request starts and ends: the socket is found once, the answer is the same."""
    import socket
    import time

    from tui.api.background import import_httpx

    import_httpx()
    from httpcore._backends.anyio import AnyIOBackend

    server = socket.create_server(("127.0.0.1", 0))
    stream = await AnyIOBackend().connect_tcp("127.0.0.1", server.getsockname()[1])
    peer, _ = server.accept()
    try:
        assert stream.get_extra_info("is_readable") is False
        assert stream.__dict__["_raw_socket"] is stream.get_extra_info("socket")  # kept from the first ask
        peer.close()  # the server ends the idle connection
        deadline = time.monotonic() + 10
        while not stream.get_extra_info("is_readable"):
            assert time.monotonic() < deadline, "the close was never seen"
            await anyio.sleep(0.01)
    finally:
        await stream.aclose()
        server.close()
