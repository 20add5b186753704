"""A program run in a pseudo-terminal of a given size, as a terminal emulator runs it: what it writes is
read back as bytes, keys are typed as bytes. For the single file (tests/install) and the benchmark's
start-up beside it, which both look at the program from outside, as the operator's terminal does."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import termios
import time
from pathlib import Path


class PseudoTerminal:
    def __init__(
        self, argv: list[str], env: dict[str, str], cwd: Path | str, size: tuple[int, int] = (120, 40)
    ) -> None:
        self.master, slave = pty.openpty()
        columns, rows = size
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.started = time.monotonic()
        self.proc = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd, start_new_session=True
        )
        os.close(slave)
        self.seen = bytearray()

    def _read(self, until: float) -> bool:
        """Read what has come, waiting until `until` at most; False once the program has closed it."""
        ready, _, _ = select.select([self.master], [], [], max(0.0, until - time.monotonic()))
        if not ready:
            return True
        try:
            chunk = os.read(self.master, 65536)
        except OSError:  # the program has ended and its side is closed
            return False
        self.seen += chunk
        return bool(chunk)

    def wait_for(self, text: bytes, timeout: float) -> float | None:
        """Seconds from the start until `text` was written, or None if it was not within `timeout`."""
        deadline = time.monotonic() + timeout
        while text not in self.seen:
            if time.monotonic() >= deadline or not self._read(deadline):
                return None
        return time.monotonic() - self.started

    def type(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def end(self, timeout: float = 10.0) -> int | None:
        """The exit status once the program has ended (what it writes meanwhile read), else None; the
        program is killed if it is still there after `timeout`."""
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            if not self._read(min(deadline, time.monotonic() + 0.1)):
                break
        try:
            return self.proc.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return None
        finally:
            os.close(self.master)

    def text(self) -> str:
        """What was written, as text (escapes and all), for a failure's message."""
        return self.seen.decode("utf-8", "replace")
