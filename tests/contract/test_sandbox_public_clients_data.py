"""The sandbox answers what the platform's public client libraries send for databases, monitoring
and inference, unchanged (each test names the client function it mirrors), and refuses a field only
where the platform would."""

from __future__ import annotations

import pytest

from helpers import args
from tui.sandbox import DEMO_PROJECT_ID

pytestmark = pytest.mark.anyio

RDB = "/rdb/v1/regions/fr-par"


# ---- Relational databases (`/rdb/v1`), as RdbV1API sends it --------------------------------------
async def test_a_backup_restores_only_within_its_engine_family(http):
    instances = (await http.get(f"{RDB}/instances")).json()["instances"]
    mysql = next(i for i in instances if i["engine"].startswith("MySQL"))
    backup = next(
        b
        for b in (await http.get(f"{RDB}/backups")).json()["database_backups"]
        if b["status"] == "ready"
        and b["instance_id"] != mysql["id"]
        and next(i for i in instances if i["id"] == b["instance_id"])["engine"].startswith("PostgreSQL")
    )
    r = await http.post(
        f"{RDB}/backups/{backup['id']}/restore", json={"instance_id": mysql["id"], "database_name": "x"}
    )
    assert args(r) == {"instance_id": "constraint"} and "restores only to a PostgreSQL instance" in r.text


async def test_a_database_instance_is_created_as_create_instance_sends_it(http):
    # marshal_CreateInstanceRequest: high_availability_mode always ("unknown_…" by default), beside is_ha_cluster
    body = {
        "engine": "PostgreSQL-15",
        "user_name": "admin",
        "password": "Str0ng-pass!",
        "node_type": "DB-DEV-S",
        "is_ha_cluster": False,
        "disable_backup": False,
        "tags": [],
        "init_settings": [],
        "volume_type": "lssd",
        "volume_size": 0,
        "init_endpoints": [],
        "backup_same_region": False,
        "high_availability_mode": "unknown_high_availability_mode",
        "name": "orders",
        "project_id": DEMO_PROJECT_ID,
    }
    r = await http.post(f"{RDB}/instances", json=body)
    assert r.status_code == 200, r.text
    assert r.json()["is_ha_cluster"] is False
    ha = await http.post(
        f"{RDB}/instances",
        json={**body, "name": "orders-ha", "node_type": "DB-PRO2-M", "high_availability_mode": "single_zone"},
    )
    assert ha.status_code == 200 and ha.json()["is_ha_cluster"] is True, ha.text  # an HA-only node type, HA by its mode
    assert args(await http.post(f"{RDB}/instances", json={**body, "high_availability_mode": "both"})) == {
        "high_availability_mode": "constraint"
    }


async def test_a_database_instance_is_upgraded_as_upgrade_instance_sends_it(http, clock):
    made = (
        await http.post(
            f"{RDB}/instances",
            json={
                "engine": "PostgreSQL-14",
                "user_name": "admin",
                "password": "Str0ng-pass!",
                "node_type": "DB-DEV-S",
                "name": "up",
                "project_id": DEMO_PROJECT_ID,
            },
        )
    ).json()
    assert made["encryption"] == {"enabled": False}
    clock.advance(60)
    up = f"{RDB}/instances/{made['id']}/upgrade"
    # marshal_UpgradeInstanceRequest sends the first field given of its one-of; the mode's default asks for nothing
    assert args(await http.post(up, json={"high_availability_mode": "unknown_high_availability_mode"})) == {
        "body": "constraint"
    }
    assert args(await http.post(up, json={"high_availability_mode": "disabled"})) == {
        "high_availability_mode": "constraint"
    }
    r = await http.post(up, json={"high_availability_mode": "single_zone"})
    assert r.status_code == 200 and r.json()["status"] == "configuring", r.text
    clock.advance(60)
    got = (await http.get(f"{RDB}/instances/{made['id']}")).json()
    assert got["is_ha_cluster"] is True and got["high_availability_mode"] == "single_zone"
    assert (await http.post(up, json={"enable_encryption": True})).status_code == 200  # enable_encryption
    clock.advance(60)
    assert (await http.get(f"{RDB}/instances/{made['id']}")).json()["encryption"] == {"enabled": True}
    # UpgradeInstanceRequestMajorUpgradeWorkflow
    target = got["upgradable_version"][0]
    bad = await http.post(
        up, json={"major_upgrade_workflow": {"upgradable_version_id": "nope", "with_endpoints": True}}
    )
    assert args(bad) == {"major_upgrade_workflow.upgradable_version_id": "constraint"}
    r = await http.post(
        up, json={"major_upgrade_workflow": {"upgradable_version_id": target["id"], "with_endpoints": True}}
    )
    assert r.status_code == 200, r.text
    clock.advance(60)
    assert (await http.get(f"{RDB}/instances/{made['id']}")).json()["engine"] == target["name"]


# ---- Monitoring (`/monitoring/v1beta1`), as CockpitV1Beta1API sends it -----------------------------
MON = "/monitoring/v1beta1"


async def test_a_monitoring_token_takes_every_scope_token_scopes_sends(http, clock):
    assert (
        await http.post(f"{MON}/activate", json={"project_id": DEMO_PROJECT_ID})
    ).status_code == 200  # activate_cockpit
    clock.advance(60)
    # marshal_TokenScopes sends all nine booleans, the traces' two among them
    scopes = {
        "query_metrics": True,
        "write_metrics": False,
        "setup_metrics_rules": False,
        "query_logs": False,
        "write_logs": False,
        "setup_logs_rules": False,
        "setup_alerts": False,
        "query_traces": True,
        "write_traces": False,
    }
    r = await http.post(f"{MON}/tokens", json={"project_id": DEMO_PROJECT_ID, "name": "tempo", "scopes": scopes})
    assert r.status_code == 200, r.text
    assert r.json()["scopes"] == scopes
    bad = await http.post(
        f"{MON}/tokens", json={"project_id": DEMO_PROJECT_ID, "name": "t2", "scopes": {**scopes, "query_traces": "yes"}}
    )
    assert args(bad) == {"scopes.query_traces": "format"}
