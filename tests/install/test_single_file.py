"""The single file for jump hosts (issue 51, items 1–2): built by the README's command, copied to a
folder of its own and run with nothing of the project around it — an empty environment, a fresh home,
a PATH without Python — it answers `--version`, starts `--demo` with servers on screen and quits clean,
and reaches a TLS sandbox whose private CA it is given only through SSL_CERT_FILE. The oldest glibc the
README says it runs on is the newest `GLIBC_` version its binaries require.

One test, since the file takes half a minute to build and each step runs the same file."""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path

import trustme
import uvicorn
from PyInstaller.archive.readers import CArchiveReader

from helpers import MACHINE_ENV
from pseudo_terminal import PseudoTerminal
from tui.sandbox import DEMO_PROJECT_ID, DEMO_SECRET_KEY, Sandbox

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
BUILD = "uv run python -m tui.onefile"
SERVER = b"web-01"  # a server of the sandbox's demo seed


def glibc_needed(single_file: Path) -> tuple[int, int]:
    """The newest glibc symbol version any binary inside the file asks for (the launcher included)."""
    archive = CArchiveReader(str(single_file))
    binaries = [single_file.read_bytes()]  # the launcher (what it carries is compressed: read below)
    binaries += [data for name in archive.toc if (data := archive.extract(name)) and data[:4] == b"\x7fELF"]
    return max(tuple(map(int, m.groups())) for b in binaries for m in re.finditer(rb"GLIBC_(\d+)\.(\d+)", b))


def tls_sandbox(tmp: Path) -> tuple[str, Path, uvicorn.Server, threading.Thread]:
    """The sandbox over HTTPS on a free loopback port, its certificate from a private CA: (its URL, the
    CA's bundle, the server, its thread)."""
    ca = trustme.CA()
    (tmp / "ca.pem").write_bytes(ca.cert_pem.bytes())
    ca.issue_cert("127.0.0.1").private_key_and_cert_chain_pem.write_to_path(str(tmp / "server.pem"))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        Sandbox().app,
        host="127.0.0.1",
        port=port,
        ssl_certfile=str(tmp / "server.pem"),
        ssl_keyfile=str(tmp / "server.pem"),
        log_config=None,
        lifespan="off",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    return f"https://127.0.0.1:{port}", tmp / "ca.pem", server, thread


def test_the_single_file_runs_with_nothing_of_the_project_around_it(tmp_path):
    assert BUILD in README, "the README's Install names the build command"
    built = subprocess.run(
        [sys.executable, "-m", "tui.onefile", "--dist", str(tmp_path / "dist")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env=MACHINE_ENV,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    elsewhere = tmp_path / "jump-host"
    (elsewhere / "home").mkdir(parents=True)
    (elsewhere / "bin").mkdir()  # a PATH with no Python on it
    single = elsewhere / "cloudtui"
    shutil.copy2(tmp_path / "dist" / "cloudtui", single)
    bare = {"HOME": str(elsewhere / "home"), "TERM": "xterm-256color", "PATH": str(elsewhere / "bin")}

    version = subprocess.run([str(single), "--version"], env=bare, cwd=elsewhere, capture_output=True, text=True)
    assert version.returncode == 0 and version.stdout.startswith("cloudtui "), version.stderr[-2000:]

    demo = PseudoTerminal([str(single), "--demo"], bare, elsewhere)
    shown = demo.wait_for(SERVER, timeout=60)
    demo.type(b"q")
    status = demo.end()
    assert shown is not None, f"no servers on screen:\n{demo.text()[-3000:]}"
    assert status == 0, f"--demo did not quit clean ({status}):\n{demo.text()[-3000:]}"

    url, bundle, server, thread = tls_sandbox(tmp_path)
    try:
        account = {
            **bare,
            "SSL_CERT_FILE": str(bundle),
            "CLOUDTUI_SECRET_KEY": DEMO_SECRET_KEY,
            "CLOUDTUI_PROJECT_ID": DEMO_PROJECT_ID,
        }
        console = PseudoTerminal([str(single), "--api-url", url, "--zone", "fr-par-1"], account, elsewhere)
        shown = console.wait_for(SERVER, timeout=60)
        console.type(b"q")
        console.end()
        assert shown is not None, f"no servers over HTTPS with the CA from SSL_CERT_FILE:\n{console.text()[-3000:]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)

    floor = re.search(r"glibc (\d+)\.(\d+) or newer", README)
    assert floor is not None, "the README states the oldest glibc the single file runs on"
    assert glibc_needed(single) == tuple(map(int, floor.groups())), "the README's glibc floor is the file's"
