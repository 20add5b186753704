"""Work kept off the console's start path and its UI thread: importing httpx (without its command
line), running a call in a daemon thread the event loop can await (the first request), and decoding
a large answer."""

from __future__ import annotations

import asyncio
from typing import Any, Callable


def in_thread(fn: Callable[..., Any], *args: Any) -> "asyncio.Future[Any]":
    """`fn(*args)` in a daemon thread of its own, as a future of this loop: unlike
    `asyncio.to_thread`, a request still waiting on the network never holds up quitting."""
    import threading

    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()

    def settle(ok: bool, value: Any) -> None:
        if not future.done():
            (future.set_result if ok else future.set_exception)(value)

    def run() -> None:
        try:
            result: tuple[bool, Any] = (True, fn(*args))
        except BaseException as exc:  # handed to the awaiting task, as asyncio.to_thread does
            result = (False, exc)
        try:
            loop.call_soon_threadsafe(settle, *result)
        except RuntimeError:  # the loop is closed: the console has quit, nobody waits
            pass

    threading.Thread(target=run, name="first-request", daemon=True).start()
    return future


async def decoded(decode: Callable[[bytes], Any], content: bytes) -> Any:
    """`decode(content)`, in a worker thread when the body is over `safe.LARGE_BODY`: every pass
    over an answer is linear, but a few milliseconds per megabyte would still stall the UI."""
    from .safe import LARGE_BODY

    return await asyncio.to_thread(decode, content) if len(content) > LARGE_BODY else decode(content)


def import_httpx() -> Any:
    """httpx and the httpcore parts a first request needs, without httpx's command-line tool.

    `httpx/__init__` imports its CLI (`httpx._main`, which pulls in click and pygments: ~20 ms) in a
    `try`/`except ImportError` meant for installs without the `cli` extra; a `None` in
    `sys.modules` makes that import fail the documented way, so httpx defines its stub instead."""
    import sys

    sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]
    import httpcore  # noqa: F401
    import httpx

    _pool_finds_sockets_once()
    return httpx


def _pool_finds_sockets_once() -> None:
    """httpcore asks every idle pooled connection, as each request starts and ends, whether its
    socket is readable (a server's close), and its anyio backend finds the socket by rebuilding the
    stream's table of attributes each time: the pool's bookkeeping was a seventh of the client's work
    in a 10,000-row listing, half of it finding sockets. A stream's socket never changes: found once.
    Skipped if a later httpcore lays this out otherwise (then it costs what it did)."""
    try:
        from httpcore._backends.anyio import AnyIOStream
        from httpcore._utils import is_socket_readable
    except ImportError:
        return
    original = AnyIOStream.get_extra_info
    if getattr(original, "fixed", False) or hasattr(AnyIOStream, "__slots__"):
        return

    def get_extra_info(self: Any, info: str) -> Any:
        if info != "is_readable":
            return original(self, info)
        sock = self.__dict__.get("_raw_socket")
        if sock is None:
            sock = self._raw_socket = original(self, "socket")
        return is_socket_readable(sock)

    get_extra_info.fixed = True  # type: ignore[attr-defined]
    AnyIOStream.get_extra_info = get_extra_info  # type: ignore[method-assign]
