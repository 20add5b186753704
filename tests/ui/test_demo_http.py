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
    waiting.sendall(
        b"GET /instance/v1/zones/fr-par-1/servers HTTP/1.1\r\nHost: x\r\nX-Auth-Token: "
        + DEMO_SECRET_KEY.encode()
        + b"\r\n\r\n"
    )
    deadline = time.monotonic() + 10
    while not background.sandbox.requests and time.monotonic() < deadline:  # until the server holds it
        time.sleep(0.005)
    assert background.sandbox.requests, "the request never reached the server"
    background.stop()
    assert not background.serving, "still serving after stop()"
    waiting.close()


def _gone(pid: int) -> bool:
    import os

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def _until(condition, what: str, seconds: float = 20.0) -> None:
    import time

    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def test_the_demo_sandbox_runs_beside_the_console_and_ends_with_it_however_it_ends():
    """`--demo` serves the sandbox from a child process (its start no longer shares the console's
    interpreter); a console killed outright leaves no server behind."""
    import subprocess
    import sys

    import httpx

    parent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import os, sys\nfrom tui.sandbox.serve import ChildSandbox\nc = ChildSandbox()\n"
                "print(c.url, c.proc.pid, flush=True)\nsys.stdin.read()\nos._exit(9)  # no stop(): as if killed\n"
            ),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    url, pid = parent.stdout.readline().split()
    answer = httpx.get(
        url + "/instance/v1/zones/fr-par-1/servers", headers={"X-Auth-Token": DEMO_SECRET_KEY}, timeout=30
    )
    assert answer.status_code == 200 and len(answer.json()["servers"]) == 8
    parent.stdin.close()
    assert parent.wait(timeout=30) == 9
    _until(lambda: _gone(int(pid)), "the sandbox outlived the console")


def test_what_the_demo_sandbox_logs_reaches_the_console_log_one_line_a_fault(caplog):
    import logging

    import httpx

    from tui.sandbox.serve import ChildSandbox

    child = ChildSandbox(["--faults", "drop=1.0,seed=1"])
    try:
        with caplog.at_level(logging.WARNING, logger="cloudtui.sandbox"):
            with pytest.raises(httpx.HTTPError):
                httpx.get(
                    child.url + "/instance/v1/zones/fr-par-1/servers",
                    headers={"X-Auth-Token": DEMO_SECRET_KEY},
                    timeout=30,
                )
            _until(lambda: any("fault injection" in r.getMessage() for r in caplog.records), "no log line came back")
        lines = [r.getMessage() for r in caplog.records if r.name == "cloudtui.sandbox"]
        assert all("Traceback" not in line for line in lines), lines
    finally:
        child.stop()
    assert child.proc.returncode is not None
