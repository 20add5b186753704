"""Database flows as conversations (tests/scripted_ui.py): what each asks, in what order, and what it
sends, against the sandbox over ASGI with no screen. The screens they use (pickers, forms, typed
confirmations) are driven through the keyboard in tests/ui."""

from __future__ import annotations

import pytest

from scripted_ui import ScriptedUI, confirm, form, pick
from tui.products.rdb.backups import SNAPSHOTS
from tui.products.rdb.instances import INSTANCES
from tui.sandbox import ManualClock, Sandbox

pytestmark = pytest.mark.anyio
R = "/rdb/v1/regions/fr-par"
PN = "7d4d2f30-9e3c-4b0a-9f5d-3c4d5e6f7081"
GB = 1_000_000_000


@pytest.fixture
def sandbox():
    sandbox = Sandbox(clock=ManualClock())
    sandbox.clock.advance(10)  # the demo's backup under way settles
    return sandbox


def inst(sandbox, name):
    return next(i for i in sandbox.rdb.instances["fr-par"].values() if i["name"] == name)


def sent(sandbox, method, end):
    return [p for m, p in sandbox.requests if m == method and p.endswith(end)]


async def test_an_endpoint_added_on_a_private_network_migrated_then_deleted(sandbox):
    orders, staging = inst(sandbox, "orders-db"), inst(sandbox, "staging-pg")
    ui = ScriptedUI(sandbox, INSTANCES, "fr-par")
    await ui.act(
        "staging-pg",
        "Endpoints",
        pick("Add a private-network endpoint"),
        form(private_network_id=PN, service_ip="172.16.9.10/22"),
    )
    added = next(e for e in staging["endpoints"] if e.get("private_network"))
    assert added["private_network"]["service_ip"] == "172.16.9.10/22" and ui.notes == ["staging-pg: endpoints changed"]
    sandbox.clock.advance(11)

    await ui.act("staging-pg", "Endpoints", pick("Migrate 172.16.9.10"), pick(lambda name: name == "orders-db"))
    assert added["id"] in [e["id"] for e in orders["endpoints"]]
    assert added["id"] not in [e["id"] for e in staging["endpoints"]]
    sandbox.clock.advance(11)

    await ui.act("orders-db", "Endpoints", pick("Delete 172.16.9.10"), confirm())
    kind, title, message = ui.asked[-1]
    assert kind == "confirm" and "172.16.9.10" in title and "lose their connection" in message
    assert sent(sandbox, "DELETE", f"/endpoints/{added['id']}")
    await ui.aclose()


async def test_log_files_shown_with_their_sizes_and_one_purged(sandbox):
    ui = ScriptedUI(sandbox, INSTANCES, "fr-par")
    await ui.act("orders-db", "Log files", pick("Purge "), confirm())
    files = ui.asked[0][2]
    assert all("(" in f for f in files[:-1]) and files[-1] == "Purge every log file"  # each with its size
    assert "deleted from the instance" in ui.asked[1][2] and len(sent(sandbox, "POST", "/purge-logs")) == 1
    await ui.aclose()


async def test_an_upgrade_is_one_change_at_a_time(sandbox):
    orders = inst(sandbox, "orders-db")
    ui = ScriptedUI(sandbox, INSTANCES, "fr-par")
    await ui.act("orders-db", "Upgrade", pick("Grow the block volume"), form(volume_size=100))
    changes = ui.asked[0][2]
    assert [c.split(" (")[0] for c in changes][:2] == ["Node type", "Enable high availability"]
    assert len(sent(sandbox, "POST", "/upgrade")) == 1 and orders["status"] == "configuring"
    sandbox.clock.advance(11)
    assert (await ui.service().get_data("fr-par", orders["id"]))["volume"]["size"] == 100 * GB
    await ui.aclose()


async def test_a_clone_is_named_after_its_source_and_takes_its_users(sandbox):
    orders = inst(sandbox, "orders-db")
    ui = ScriptedUI(sandbox, INSTANCES, "fr-par")
    await ui.act("orders-db", "Clone", form())  # the name offered, unchanged
    assert ui.asked[0][2]["name"] == "orders-db-clone"
    assert set(inst(sandbox, "orders-db-clone")["_users"]) == set(orders["_users"])
    assert ui.notes == ["Cloning orders-db into orders-db-clone"]
    await ui.aclose()


async def test_a_volume_snapshot_then_an_instance_made_from_it(sandbox):
    orders = inst(sandbox, "orders-db")
    ui = ScriptedUI(sandbox, INSTANCES, "fr-par")
    await ui.act("orders-db", "Snapshot the volume", form(name="before-launch"))
    assert ui.asked[0][2] == {"name": "orders-db-snapshot"} and orders["status"] == "snapshotting"
    sandbox.clock.advance(9)
    snapshots = ScriptedUI(sandbox, SNAPSHOTS, "fr-par")
    await snapshots.act(
        "before-launch",
        "Create an instance from it",
        form(instance_name="launch-copy", node_type="DB-PRO2-M", is_ha_cluster=True),
    )
    made = inst(sandbox, "launch-copy")
    assert made["node_type"] == "DB-PRO2-M" and made["is_ha_cluster"] is True
    await ui.aclose()
    await snapshots.aclose()
