"""Shared fixtures: a sandbox on a manual clock, a client wired to it in process.

Nothing here touches the user's real config or keyring: CLOUDTUI_CONFIG points into tmp_path and
every test gets an in-memory keyring unless it installs another backend.
"""

from __future__ import annotations

import logging
import os
import time
from typing import Any, Callable

import httpx
import keyring
import pytest

from keyrings import MemoryKeyring
from tui.api.client import ApiClient, RetryPolicy
from tui.sandbox import DEMO_SECRET_KEY, ManualClock, Sandbox


os.environ["TZ"] = "UTC"  # details show local times: the same on every machine the suite runs on
time.tzset()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(autouse=True)
def isolated_env(tmp_path, monkeypatch) -> Any:
    monkeypatch.setenv("CLOUDTUI_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("CLOUDTUI_LOG_DIR", str(tmp_path / "log"))
    from tui.products.kit import files, own_columns
    from tui.ui import typeahead

    own_columns.use({})  # the columns in force are the console's: a test's app sets its own

    monkeypatch.setattr(files, "_last_folder", [])  # where file dialogs start: each test from home
    # Keys typed on after a refused act are dropped until a person's pause: a test types at machine pace,
    # so none would reach what it presses next; the tests of that rule set the pause themselves.
    monkeypatch.setattr(typeahead, "REFUSED_PAUSE", 0.0)
    for var in (
        "CLOUDTUI_SECRET_KEY",
        "CLOUDTUI_PROFILE",
        "CLOUDTUI_API_URL",
        "CLOUDTUI_PROJECT_ID",
        "CLOUDTUI_DEBUG_LOG",
    ):
        monkeypatch.delenv(var, raising=False)
    # The machine's proxies and CA settings would change what the HTTP tests see; tests set their own.
    for var in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "SSL_CERT_FILE", "SSL_CERT_DIR"):
        monkeypatch.delenv(var, raising=False)
        monkeypatch.delenv(var.lower(), raising=False)
    log = logging.getLogger("cloudtui")
    handlers, level, propagate = list(log.handlers), log.level, log.propagate
    yield
    for handler in log.handlers[:]:  # what a test's cli.main set up goes with the test
        if handler not in handlers:
            log.removeHandler(handler)
            handler.close()
    log.setLevel(level)
    log.propagate = propagate


@pytest.fixture(autouse=True)
def memory_keyring() -> Any:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def sandbox(clock: ManualClock) -> Sandbox:
    return Sandbox(clock=clock)


@pytest.fixture
async def http(sandbox: Sandbox) -> Any:
    """A plain httpx client on the in-process sandbox, for contract tests."""
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(sandbox.app), base_url="http://sb", headers={"X-Auth-Token": DEMO_SECRET_KEY}
    ) as c:
        yield c


@pytest.fixture
def make_client(sandbox: Sandbox) -> Callable[..., ApiClient]:
    sleeps: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        sleeps.append(seconds)

    def fake_monotonic() -> float:  # time passes only by the backoff sleeps
        return sum(sleeps)

    def make(secret: str = DEMO_SECRET_KEY, **kw: Any) -> ApiClient:
        kw.setdefault("retry", RetryPolicy(deadline=60))
        kw.setdefault("sleep", fake_sleep)
        kw.setdefault("monotonic", fake_monotonic)
        client = ApiClient("http://sandbox", secret, transport=httpx.ASGITransport(sandbox.app), **kw)
        client.sleeps = sleeps  # type: ignore[attr-defined]
        return client

    return make


@pytest.fixture(autouse=True, scope="session")
def keys_wait_for_their_handling() -> Any:
    """Each simulated key, and `pilot.pause()`, waits for what the console does with it, not for
    the CPU to go idle (tests/pilot_wait.py)."""
    import pilot_wait

    with pilot_wait.installed():
        yield
