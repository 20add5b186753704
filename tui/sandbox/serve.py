"""Serving the sandbox over real HTTP: in the foreground (`cloudtui sandbox`) or a thread (`--demo`)."""

from __future__ import annotations

import socket
import threading
import time

from .app import Sandbox


def _config(sandbox: Sandbox, host: str, port: int):  # uvicorn is imported only when serving
    import uvicorn

    return uvicorn.Config(sandbox.app, host=host, port=port, log_level="warning", lifespan="off", access_log=False)


def serve_forever(sandbox: Sandbox, host: str = "127.0.0.1", port: int = 8700) -> None:
    import uvicorn

    uvicorn.Server(_config(sandbox, host, port)).run()


class BackgroundSandbox:
    """The sandbox on a free loopback port, in a daemon thread, for the demo."""

    def __init__(self, sandbox: Sandbox, host: str = "127.0.0.1") -> None:
        import uvicorn

        self.sandbox = sandbox
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind((host, 0))
        self.host, self.port = self._sock.getsockname()[:2]
        self._server = uvicorn.Server(_config(sandbox, self.host, self.port))
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._sock]}, name="sandbox", daemon=True)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self, timeout: float = 10.0) -> "BackgroundSandbox":
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the embedded sandbox did not start")
            time.sleep(0.005)
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=5)
