"""Saving what the platform sends as a file (a certificate, spec/4 "File downloads") where the
operator says (the console's file picker), without overwriting anything unasked. No Textual here:
the console supplies `ui`."""

from __future__ import annotations

import asyncio
import base64
import binascii
import os
import re
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from .flows import Refused

if TYPE_CHECKING:
    from .flows import FlowUI


def file_content(answer: dict[str, Any]) -> bytes:
    """The bytes of a file answer: `content` is base64 (spec/4); anything else is refused."""
    try:
        return base64.b64decode(str(answer.get("content") or ""), validate=True)
    except (binascii.Error, ValueError):
        raise Refused("the platform's answer is not a base64 file: nothing was saved") from None


_last_folder: list[Path] = []  # the folder a file was last saved to or read from, this session


def folder() -> Path:
    """Where a file dialog starts: the folder last used this session, else the home folder."""
    return _last_folder[-1] if _last_folder else Path("~").expanduser()


def used(path: str | Path) -> None:
    """`path` was saved or read: the next file dialog starts in its folder."""
    _last_folder[:] = [Path(path).expanduser().parent]


async def save_file_flow(ui: FlowUI, title: str, answer: dict[str, Any], default_dir: str = "~") -> str | None:
    """A file the platform sent, saved where the operator says (`save_bytes`)."""
    name = os.path.basename(str(answer.get("name") or "download")) or "download"
    return await save_bytes(ui, title, file_content(answer), name, default_dir)


def write_private(path: str | Path, content: bytes) -> None:
    """`content` written to `path`, readable by its owner only (0600, a file it replaces too), never
    through a symbolic link: a link (even one pointing nowhere) is `Refused`, saying where it points."""
    where = Path(path)
    if where.is_symlink():
        raise Refused(
            f"{where} is a symbolic link (to {os.readlink(where)}): nothing is written through a link; "
            "choose another name"
        )
    fd = os.open(where, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0), 0o600)
    with os.fdopen(fd, "wb") as out:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            os.fchmod(fd, 0o600)  # a file it replaces was perhaps readable by others
        out.write(content)


class Asks(Protocol):
    """What saving a file asks of the console: its dialogs and its notices (a flow's `FlowUI` has both; a
    screen over the console with no list behind it, `ui.dialogs.AppAsks`)."""

    async def dialog(self, name: str, **kwargs: Any) -> Any: ...

    def notify(self, message: str, severity: str = "information") -> None: ...


async def save_bytes(ui: Asks, title: str, content: bytes, name: str, default_dir: str = "~") -> str | None:
    """Ask where (the file picker: it asks before replacing a file), write `content`; its path, or
    None when cancelled. A write that fails says why and asks again."""
    where = (folder() if default_dir == "~" else Path(default_dir).expanduser()) / name
    while True:
        path = await ui.dialog("file", title=title, mode="save", path=str(where))
        if path is None:
            return None
        try:
            await asyncio.to_thread(write_private, path, content)  # a large list: not on the UI thread
        except Refused as err:
            ui.notify(f"Not written: {err}.", "error")
            where = Path(path)
            continue
        except OSError as err:
            ui.notify(f"Could not write {path}: {err.strerror or err}. Choose another place.", "error")
            where = Path(path)
            continue
        used(path)
        ui.notify(f"Saved {len(content):,} bytes to {path}")
        return str(path)


PEM = re.compile(r"(-----BEGIN ([A-Z0-9 ]+)-----\n[A-Za-z0-9+/=\n]+-----END \2-----\n?)+")


def pem(text: str) -> str:
    """PEM blocks as a file holds them (the line breaks a cleaned value shows as `\\n` made real again),
    or `Refused` when the text is not PEM blocks alone (nothing else is written under a .pem name)."""
    blocks = text.replace("\\n", "\n").strip() + "\n"
    if not PEM.fullmatch(blocks):
        raise Refused("what the platform sent is not PEM (-----BEGIN … -----END … blocks): nothing was saved")
    return blocks
