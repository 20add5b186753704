"""Instance conversations (tests/scripted_ui.py): what each asks and sends, against the sandbox over ASGI."""

from __future__ import annotations

import pytest

from scripted_ui import ScriptedUI, confirm
from tui.products.instance.volumes import VOLUMES
from tui.sandbox import ManualClock, Sandbox

pytestmark = pytest.mark.anyio


async def test_a_running_servers_boot_volume_is_not_detached_and_the_operator_is_told_why():
    """The platform refuses it (400); said before any confirmation, with what to do instead."""
    sandbox = Sandbox(clock=ManualClock())
    ui = ScriptedUI(sandbox, VOLUMES, "fr-par-1")
    web = next(s for s in sandbox.instance.servers["fr-par-1"].values() if s["name"] == "web-01")
    boot = sandbox.instance.volumes["fr-par-1"][web["volumes"]["0"]["id"]]
    assert web["state"] == "running"
    await ui.act(boot["name"], "Detach from its server")  # no answer scripted: nothing is asked
    said = f"{boot['name']} is the boot volume of web-01, which is running: power it off first to detach it."
    assert ui.notes == [said]
    assert not [p for m, p in sandbox.requests if m == "PATCH"]
    web["state"] = "stopped"
    await ui.act(boot["name"], "Detach from its server", confirm())  # powered off: asked, then sent
    assert [p for m, p in sandbox.requests if m == "PATCH"] == [f"/instance/v1/zones/fr-par-1/servers/{web['id']}"]
    await ui.aclose()
