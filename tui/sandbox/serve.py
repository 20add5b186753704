"""Serving the sandbox over real HTTP: in the foreground (`cloudtui sandbox`) or a thread (`--demo`)."""

from __future__ import annotations

import socket
import threading
import time
from typing import Any, Callable


def _config(app: Any, host: str, port: int, quiet: bool = False) -> Any:  # uvicorn is imported only when serving
    """`quiet`: uvicorn installs no handler of its own (the demo's server runs under a full-screen
    console: what it logs goes where the process's "uvicorn" logger says, never to the terminal)."""
    import uvicorn

    if quiet:
        return uvicorn.Config(app, host=host, port=port, log_config=None, lifespan="off", access_log=False)
    return uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="off", access_log=False)


def serve_forever(sandbox: Any, host: str = "127.0.0.1", port: int = 8700) -> None:
    """Serve until stopped (`cloudtui sandbox`). The seeded platform is long-lived: frozen out of
    the cyclic collector's reach, so a 50,000-server seed is not rescanned while it answers."""
    import gc

    import uvicorn

    gc.freeze()
    uvicorn.Server(_config(sandbox.app, host, port)).run()


class BackgroundSandbox:
    """The sandbox on a free loopback port, built and served in a daemon thread, for the demo.

    The socket is bound and listening before `start()` returns, so the console can connect at once:
    its first requests wait in the backlog while the thread imports, seeds and starts the server,
    which overlaps the console's own start instead of preceding it.
    """

    def __init__(self, make_sandbox: Callable[[], Any], host: str = "127.0.0.1") -> None:
        self._make = make_sandbox
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind((host, 0))
        self._sock.listen(128)
        self.host, self.port = self._sock.getsockname()[:2]
        self.sandbox: Any = None
        self.error: BaseException | None = None
        self._server: Any = None
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
