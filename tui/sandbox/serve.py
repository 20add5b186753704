"""Serving the sandbox over real HTTP: in the foreground (`cloudtui sandbox`), in a child process
(`--demo`: `ChildSandbox`), or in a thread (tests that read the sandbox's state: `BackgroundSandbox`)."""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
import threading
import time
from typing import TYPE_CHECKING, Any, Callable, Sequence, cast

if TYPE_CHECKING:
    import uvicorn
    from starlette.types import ASGIApp

    from .app import Sandbox

KEEP_ALIVE = 60  # seconds an idle connection is kept, as a platform's API front does (uvicorn's own: 5)


def _config(app: ASGIApp, host: str, port: int, quiet: bool = False) -> uvicorn.Config:  # uvicorn: only when serving
    """`quiet`: uvicorn installs no handler of its own (the demo's server runs under a full-screen
    console: what it logs goes where the process's "uvicorn" logger says, never to the terminal)."""
    import uvicorn

    logs: dict[str, Any] = {"log_config": None} if quiet else {"log_level": "warning"}
    return uvicorn.Config(
        app, host=host, port=port, lifespan="off", access_log=False, timeout_keep_alive=KEEP_ALIVE, **logs
    )


def serve_forever(sandbox: Sandbox, host: str = "127.0.0.1", port: int = 8700) -> None:
    """Serve until stopped (`cloudtui sandbox`). The seeded platform is long-lived: frozen out of
    the cyclic collector's reach, so a 50,000-server seed is not rescanned while it answers."""
    import gc

    import uvicorn

    gc.freeze()
    uvicorn.Server(_config(sandbox.app, host, port)).run()


def _listening(host: str) -> socket.socket:
    """A loopback socket on a free port, listening: connections wait in its backlog until served."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, 0))
    sock.listen(128)
    return sock


class ChildSandbox:
    """The demo's sandbox in a child process (`cloudtui sandbox --fd N …`), serving a socket bound and
    listening here first, so the console connects at once: its first requests wait in the backlog
    while the child imports and seeds on the other core (in a thread, that work shared the console's
    interpreter lock and held its first frame back a third longer).

    The child ends with the console however the console ends: it reads its standard input, a pipe
    only the console holds, and exits when that closes. What it logs comes back on its standard error,
    into the console's log (`cloudtui.sandbox`), never onto the screen.
    """

    def __init__(self, args: Sequence[str] = (), host: str = "127.0.0.1") -> None:
        sock = _listening(host)
        self.host, self.port = sock.getsockname()[:2]
        command = [*_this_program(), "sandbox", "--fd", str(sock.fileno()), *args]
        try:
            self.proc = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                pass_fds=(sock.fileno(),),
                start_new_session=True,  # a ctrl+c or hang-up is the console's to handle
            )
        finally:
            sock.close()  # the child's copy serves; if it dies, a request is refused rather than left waiting
        threading.Thread(target=self._relay_log, name="sandbox-log", daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def _relay_log(self) -> None:
        log = logging.getLogger("cloudtui.sandbox")
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            text = line.decode("utf-8", "replace").rstrip()
            if text:
                log.warning("%s", text)

    def stop(self) -> None:
        """End the child now (its standard input closed; killed if it has not gone within 2 s)."""
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=5)


def _this_program() -> list[str]:
    """How to start this program again: the single file runs itself (it holds no `python` to run `-m`
    with; its child reuses the folder it unpacked to), an installed console its module."""
    return [sys.executable] if getattr(sys, "frozen", False) else [sys.executable, "-m", "tui"]


def serve_inherited(make_sandbox: Callable[[], Sandbox], fd: int) -> None:
    """The child side of `ChildSandbox`: build the sandbox and serve the socket `fd`, until the
    parent's pipe on standard input closes (the console quit, or died), then exit at once."""

    def end_with_parent() -> None:
        try:
            while sys.stdin.buffer.read(4096):
                pass
        finally:
            os._exit(0)

    threading.Thread(target=end_with_parent, name="parent-watch", daemon=True).start()  # even while seeding
    import uvicorn

    sandbox = make_sandbox()
    sock = socket.socket(fileno=fd)
    server = uvicorn.Server(_config(sandbox.app, *cast("tuple[str, int]", sock.getsockname()[:2]), quiet=True))
    server.run(sockets=[sock])


class BackgroundSandbox:
    """The sandbox on a free loopback port, built and served in a daemon thread: for tests that read
    the sandbox's own state while the console talks to it over real HTTP.

    The socket is bound and listening before `start()` returns, so the console can connect at once:
    its first requests wait in the backlog while the thread imports, seeds and starts the server,
    which overlaps the console's own start instead of preceding it.
    """

    def __init__(self, make_sandbox: Callable[[], Sandbox], host: str = "127.0.0.1") -> None:
        self._make = make_sandbox
        self._sock = _listening(host)
        self.host, self.port = self._sock.getsockname()[:2]
        self.sandbox: Sandbox | None = None
        self.error: BaseException | None = None
        self._server: uvicorn.Server | None = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sandbox", daemon=True)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def _run(self) -> None:
        try:
            import uvicorn

            self.sandbox = self._make()
            self._server = uvicorn.Server(_config(self.sandbox.app, self.host, self.port, quiet=True))
        except BaseException as exc:  # the console then reports a connection error, with this logged
            self.error = exc
            self._sock.close()
            return
        finally:
            self._ready.set()
        self._server.run(sockets=[self._sock])

    def start(self) -> "BackgroundSandbox":
        self._thread.start()
        return self

    def wait_started(self, timeout: float = 10.0) -> None:
        """Block until the server accepts (tests and tools; the console does not need to)."""
        deadline = time.monotonic() + timeout
        self._ready.wait(timeout)
        while self.error is None and not (self._server is not None and self._server.started):
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError(f"the embedded sandbox did not start: {self.error!r}")
            time.sleep(0.005)
        if self.error is not None:
            raise RuntimeError(f"the embedded sandbox did not start: {self.error!r}")

    @property
    def serving(self) -> bool:
        """Whether its thread still serves (False once stopped)."""
        return self._thread.is_alive()

    def stop(self) -> None:
        """Stop serving now: the console has quit, so a request still in flight (a slow fault) is
        not waited for (a graceful stop held the quit ~5 s)."""
        self._ready.wait(5)
        if self._server is not None:
            self._server.should_exit = True
            self._server.force_exit = True
        self._thread.join(timeout=5)
