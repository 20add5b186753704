"""The real keyring (issue 36, item 9): the key stored, read and deleted through a real Secret Service —
a gnome-keyring-daemon in a private D-Bus session with its own home, started here — by the console's
own functions (`tui.secrets`), besides the in-memory keyring every other test uses. `.ci/run` installs
gnome-keyring where it is absent."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from helpers import MACHINE_ENV

SCRIPT = """
import keyring
from keyring.backends.SecretService import Keyring
from tui import secrets
from tui.api.secret import Secret

keyring.set_keyring(Keyring())
assert secrets.lookup("ci-profile", env={}).secret is None
assert secrets.store("ci-profile", Secret("k3y-from-the-test-0123456789")) is None
found = secrets.lookup("ci-profile", env={})
print("read", found.source, found.secret.get_secret_value() == "k3y-from-the-test-0123456789")
assert secrets.forget("ci-profile") is None
print("gone", secrets.lookup("ci-profile", env={}).secret is None)
"""


@pytest.mark.skipif(
    shutil.which("gnome-keyring-daemon") is None or shutil.which("dbus-run-session") is None,
    reason="no gnome-keyring-daemon here (.ci/run installs it)",
)
def test_the_key_is_stored_read_and_deleted_through_a_real_secret_service(tmp_path):
    env = {
        **MACHINE_ENV,
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_RUNTIME_DIR": str(tmp_path),
        "PYTHONPATH": ":".join(p for p in sys.path if p),
    }
    env.pop("CLOUDTUI_SECRET_KEY", None)
    shell = (
        "echo -n test-password | gnome-keyring-daemon --unlock --components=secrets --daemonize >/dev/null"
        f' && {sys.executable} -c "$SCRIPT"'
    )
    done = subprocess.run(
        ["dbus-run-session", "--", "sh", "-c", shell],
        env={**env, "SCRIPT": SCRIPT},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "read keyring True" in done.stdout and "gone True" in done.stdout, done.stdout
