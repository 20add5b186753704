"""The demo path: the sandbox in a background thread on a loopback port, reached over real HTTP."""

import pytest
from tui.api.secret import Secret

from helpers import demo_settings, loaded
from tui.api.client import ApiClient
from tui.api.errors import AuthenticationError
from tui.sandbox import DEMO_SECRET_KEY, Sandbox
from tui.sandbox.serve import BackgroundSandbox
from tui.ui.app import CloudApp

pytestmark = pytest.mark.anyio


@pytest.fixture
def served():
    background = BackgroundSandbox(Sandbox).start()
    yield background
    background.stop()


async def test_real_http_listing_and_wrong_key(served):
    assert served.url.startswith("http://127.0.0.1:")
    good = ApiClient(served.url, DEMO_SECRET_KEY)
    data = await good.get_json("/instance/v1/zones/fr-par-1/servers")
    assert len(data["servers"]) == 8
    await good.aclose()
    bad = ApiClient(served.url, "wrong")
    with pytest.raises(AuthenticationError) as info:
        await bad.get("/instance/v1/zones/fr-par-1/servers")
    assert info.value.summary == "401 authentication is denied"
    await bad.aclose()


async def test_console_over_real_http(served):
    app = CloudApp(demo_settings(api_url=served.url), Secret(DEMO_SECRET_KEY), secret_source="demo")
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        assert view.table.loaded_count == 8
        assert view.table.border_title == "Servers · fr-par-1 · 8/8"


def test_the_demo_server_stops_at_once_with_a_request_still_waiting():
    """Quitting the demo does not wait for a slow request the console left behind."""
    import socket
    import time

    background = BackgroundSandbox(lambda: Sandbox(latency_ms=120_000)).start()
    background.wait_started()
    waiting = socket.create_connection((background.host, background.port))
    waiting.sendall(b"GET /instance/v1/zones/fr-par-1/servers HTTP/1.1\r\nHost: x\r\nX-Auth-Token: " + DEMO_SECRET_KEY.encode() + b"\r\n\r\n")
    deadline = time.monotonic() + 10
    while not background.sandbox.requests and time.monotonic() < deadline:  # until the server holds it
        time.sleep(0.005)
    assert background.sandbox.requests, "the request never reached the server"
    background.stop()
    assert not background.serving, "still serving after stop()"
    waiting.close()
