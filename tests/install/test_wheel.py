"""Installed like any tool (issue 36, item 8): the wheel is built, installed into a fresh virtual
environment, and from there `cloudtui --version` answers and the console starts headless against an
in-process sandbox, its style sheets read from inside the wheel (not from this source tree)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from helpers import MACHINE_ENV

ROOT = Path(__file__).resolve().parents[2]

HEADLESS = """
import asyncio, httpx
from tui.config import Settings
from tui.sandbox import DEMO_PROJECT_ID, DEMO_SECRET_KEY, Sandbox
from tui.api.secret import Secret
from tui.ui import styles
from tui.ui.app import CloudApp

async def main():
    sandbox = Sandbox()
    settings = Settings(profile="demo", api_url="http://sandbox", project_id=DEMO_PROJECT_ID,
                        organization_id="", zone="fr-par-1", region="fr-par", demo=True)
    app = CloudApp(settings, Secret(DEMO_SECRET_KEY), transport=httpx.ASGITransport(sandbox.app))
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(500):
            view = app.main.view if app.main is not None else None
            if view is not None and view.table.loaded_count:
                break
            await pilot.pause(0.02)
        print("rows", view.table.loaded_count, "styles", styles.styles_dir())

asyncio.run(main())
"""


@pytest.mark.skipif(shutil.which("uv") is None, reason="uv builds and installs the wheel (.ci/run installs it)")
def test_the_wheel_installs_into_a_fresh_environment_and_runs(tmp_path):
    uv = shutil.which("uv")
    assert uv is not None
    built = subprocess.run(
        [uv, "build", "--wheel", "--out-dir", str(tmp_path / "dist"), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
        env=MACHINE_ENV,  # the machine's network settings (a proxy's CA), which the suite's own tests drop
    )
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = (tmp_path / "dist").glob("cloudtui-*.whl")
    inside = zipfile.ZipFile(wheel).namelist()
    assert "tui/styles/app.tcss" in inside and "tui/styles/dialogs.tcss" in inside
    venv = tmp_path / "venv"
    subprocess.run([uv, "venv", "-q", "--python", sys.executable, str(venv)], check=True, timeout=120, env=MACHINE_ENV)
    python = venv / "bin" / "python"
    subprocess.run(
        [uv, "pip", "install", "-q", "--python", str(python), str(wheel)],
        check=True,
        capture_output=True,
        timeout=600,
        env=MACHINE_ENV,
    )
    version = subprocess.run(
        [str(venv / "bin" / "cloudtui"), "--version"], capture_output=True, text=True, check=True, timeout=60
    )
    assert version.stdout.strip().startswith("cloudtui ")
    started = subprocess.run(
        [str(python), "-c", HEADLESS], capture_output=True, text=True, timeout=120, cwd=tmp_path
    )  # not this tree: nothing of it on the path
    assert started.returncode == 0, started.stderr[-2000:]
    rows, styles = started.stdout.split()[1], started.stdout.split()[3]
    assert int(rows) > 0 and styles.startswith(str(venv)), started.stdout
