"""The sandbox's relational databases against spec 2 §2.3, §3.3, §4.3 (rules 1–6), §8 and spec/4
"Relational databases"."""

from __future__ import annotations

import pytest

from helpers import args

pytestmark = pytest.mark.anyio
R = "/rdb/v1/regions/fr-par"
PN = "5b2b0d1e-7c1a-4f8e-9d3b-1a2b3c4d5e6f"
PW = "Str0ng-pass!"
GB = 1_000_000_000


async def inst(http, name, region="fr-par"):
    listed = (await http.get(f"/rdb/v1/regions/{region}/instances", params={"page_size": 100})).json()["instances"]
    return next(i for i in listed if i["name"] == name)


def create_body(sandbox, **extra):
    return {
        "project_id": sandbox.project_id,
        "name": "db1",
        "engine": "PostgreSQL-15",
        "node_type": "DB-DEV-S",
        "user_name": "admin",
        "password": PW,
        **extra,
    }


async def test_create_checks_engine_node_type_volume_and_password(http, sandbox, clock):
    r = await http.post(f"{R}/instances", json={"name": "x"})
    assert args(r) == {"engine": "required", "node_type": "required", "user_name": "required", "password": "required"}
    assert args(await http.post(f"{R}/instances", json=create_body(sandbox, engine="PostgreSQL-11"))) == {
        "engine": "constraint"
    }  # disabled
    assert args(await http.post(f"{R}/instances", json=create_body(sandbox, node_type="DB-PRO2-M"))) == {
        "is_ha_cluster": "constraint"
    }
    assert args(await http.post(f"{R}/instances", json=create_body(sandbox, node_type="DB-GP-L"))) == {
        "node_type": "constraint"
    }
    assert args(await http.post(f"{R}/instances", json=create_body(sandbox, volume_type="bssd"))) == {
        "volume_size": "required"
    }
    assert args(
        await http.post(f"{R}/instances", json=create_body(sandbox, volume_type="bssd", volume_size=7 * GB))
    ) == {"volume_size": "constraint"}
    assert args(await http.post(f"{R}/instances", json=create_body(sandbox, volume_size=10 * GB))) == {
        "volume_size": "constraint"
    }  # lssd
    assert args(await http.post(f"{R}/instances", json=create_body(sandbox, password="password"))) == {
        "password": "constraint"
    }
    i = (
        await http.post(
            f"{R}/instances", json=create_body(sandbox, is_ha_cluster=True, volume_type="bssd", volume_size=20 * GB)
        )
    ).json()
    assert (
        i["status"] == "provisioning"
        and i["volume"] == {"type": "bssd", "size": 20 * GB, "class": "bssd"}
        and i["is_ha_cluster"]
    )
    clock.advance(20)
    assert (await http.get(f"{R}/instances/{i['id']}")).json()["status"] == "initializing"
    clock.advance(10)
    assert (await http.get(f"{R}/instances/{i['id']}")).json()["status"] == "ready"


async def test_users_databases_and_privileges_only_on_managed_databases(http):
    o = await inst(http, "orders-db")
    base = f"{R}/instances/{o['id']}"
    assert args(await http.post(f"{base}/users", json={"name": "9bad", "password": PW})) == {"name": "format"}
    assert (await http.post(f"{base}/users", json={"name": "etl", "password": PW, "is_admin": False})).json() == {
        "name": "etl",
        "is_admin": False,
    }
    assert (await http.patch(f"{base}/users/etl", json={"is_admin": True})).json()["is_admin"] is True
    assert (await http.post(f"{base}/databases", json={"name": "events"})).json()["managed"] is True
    r = await http.put(
        f"{base}/privileges", json={"database_name": "events", "user_name": "etl", "permission": "readwrite"}
    )
    assert r.json() == {"permission": "readwrite", "database_name": "events", "user_name": "etl"}
    r = await http.put(
        f"{base}/privileges", json={"database_name": "analytics", "user_name": "etl", "permission": "readonly"}
    )
    assert r.status_code == 400 and "not managed" in r.json()["message"]  # spec 2 §2.3
    assert args(
        await http.put(
            f"{base}/privileges", json={"database_name": "events", "user_name": "etl", "permission": "owner"}
        )
    ) == {"permission": "constraint"}
    privs = (await http.get(f"{base}/privileges", params={"user_name": "etl"})).json()["privileges"]
    assert {p["database_name"]: p["permission"] for p in privs}["events"] == "readwrite"
    assert (await http.delete(f"{base}/users/etl")).status_code == 204
    assert all(p["user_name"] != "etl" for p in (await http.get(f"{base}/privileges")).json()["privileges"])


async def test_acl_rules_add_replace_remove(http):
    o = await inst(http, "staging-pg")
    base = f"{R}/instances/{o['id']}/acls"
    assert args(await http.post(base, json={"rules": [{"ip": "10.0.0.1/8"}]})) == {
        "rules.0.ip": "format"
    }  # host bits set
    added = (await http.post(base, json={"rules": [{"ip": "198.51.100.0/24", "description": "office"}]})).json()[
        "rules"
    ]
    assert added == [
        {
            "ip": "198.51.100.0/24",
            "port": 5432,
            "protocol": "tcp",
            "direction": "inbound",
            "action": "allow",
            "description": "office",
        }
    ]
    assert args(await http.post(base, json={"rules": [{"ip": "198.51.100.0/24"}]})) == {"rules": "constraint"}
    replaced = (await http.put(base, json={"rules": [{"ip": "203.0.113.7/32"}, {"ip": "10.0.0.0/8"}]})).json()["rules"]
    assert [r["ip"] for r in replaced] == ["203.0.113.7/32", "10.0.0.0/8"]
    removed = (await http.request("DELETE", base, json={"acl_rule_ips": ["10.0.0.0/8"]})).json()["rules"]
    assert [r["ip"] for r in removed] == ["10.0.0.0/8"]
    assert (await http.get(base)).json()["total_count"] == 1


async def test_settings_types_bounds_init_only_and_back_to_default(http):
    o = await inst(http, "staging-pg")
    base = f"{R}/instances/{o['id']}/settings"
    assert args(await http.post(base, json={"settings": [{"name": "work_mem", "value": "0"}]})) == {
        "settings.0.value": "constraint"
    }
    assert args(await http.post(base, json={"settings": [{"name": "lc_collate", "value": "C"}]})) == {
        "settings.0.name": "constraint"
    }
    assert args(await http.post(base, json={"settings": [{"name": "synchronous_commit", "value": "maybe"}]})) == {
        "settings.0.value": "constraint"
    }
    r = (
        await http.post(
            base, json={"settings": [{"name": "work_mem", "value": "32"}, {"name": "autovacuum", "value": "false"}]}
        )
    ).json()
    assert {s["name"] for s in r["settings"]} == {"work_mem", "autovacuum"}
    r = (await http.put(base, json={"settings": [{"name": "timezone", "value": "Europe/Paris"}]})).json()
    assert r["settings"] == [{"name": "timezone", "value": "Europe/Paris"}]
    r = (await http.request("DELETE", base, json={"setting_names": ["timezone"]})).json()
    assert r["settings"] == []


async def test_replica_endpoint_limits_promote_and_reset(http, clock):
    o = await inst(http, "orders-db")
    assert len(o["read_replicas"]) == 1
    rr = o["read_replicas"][0]
    pn = {"private_network": {"private_network_id": PN, "service_ip": "172.16.8.4/22"}}
    r = await http.post(f"{R}/read-replicas/{rr['id']}/endpoints", json={"endpoint_spec": [{"direct_access": {}}]})
    assert args(r) == {"endpoint_spec": "constraint"}  # one direct access at most
    r = await http.post(f"{R}/read-replicas", json={"instance_id": o["id"], "endpoint_spec": [{"load_balancer": {}}]})
    assert args(r) == {"endpoint_spec.0": "constraint"}  # no load balancer on a replica
    added = (await http.post(f"{R}/read-replicas/{rr['id']}/endpoints", json={"endpoint_spec": [pn]})).json()
    assert [("private_network" in e) for e in added["endpoints"]] == [False, True]
    r = await http.post(f"{R}/read-replicas/{rr['id']}/endpoints", json={"endpoint_spec": [pn]})
    assert args(r) == {"endpoint_spec": "constraint"}
    assert (await http.post(f"{R}/read-replicas/{rr['id']}/reset")).json()["status"] == "configuring"
    clock.advance(10)
    embedded = (await http.get(f"{R}/instances/{o['id']}")).json()["read_replicas"]
    assert [x["status"] for x in embedded] == ["ready"]  # the instance's copy moves with time too
    new = (await http.post(f"{R}/read-replicas/{rr['id']}/promote")).json()
    assert new["status"] == "configuring" and new["name"] == "orders-db-promoted" and not new["is_ha_cluster"]
    assert (await http.get(f"{R}/read-replicas/{rr['id']}")).json()["status"] == "promoting"
    clock.advance(10)
    assert (await http.get(f"{R}/read-replicas/{rr['id']}")).status_code == 404
    assert (await http.get(f"{R}/instances/{new['id']}")).json()["status"] == "ready"


async def test_backup_export_and_restore_needs_the_users(http, clock):
    o, staging = await inst(http, "orders-db"), await inst(http, "staging-pg")
    b = (await http.post(f"{R}/backups", json={"instance_id": o["id"], "database_name": "orders", "name": "b1"})).json()
    assert b["status"] == "creating" and (await http.get(f"{R}/instances/{o['id']}")).json()["status"] == "backuping"
    assert args(await http.post(f"{R}/backups", json={"instance_id": o["id"], "database_name": "nope"})) == {
        "database_name": "constraint"
    }
    clock.advance(8)
    exported = (await http.post(f"{R}/backups/{b['id']}/export")).json()
    assert exported["status"] == "exporting" and exported["download_url"] is None
    clock.advance(6)
    ready = (await http.get(f"{R}/backups/{b['id']}")).json()
    assert ready["status"] == "ready" and ready["download_url"].startswith("https://")
    r = await http.post(
        f"{R}/backups/{b['id']}/restore", json={"instance_id": staging["id"], "database_name": "orders"}
    )
    assert (
        r.status_code == 400 and "reporting" in r.json()["message"]
    )  # spec 2 §4.3 rule 5: app exists there, reporting not
    await http.post(f"{R}/instances/{staging['id']}/users", json={"name": "reporting", "password": PW})
    restoring = (
        await http.post(
            f"{R}/backups/{b['id']}/restore", json={"instance_id": staging["id"], "database_name": "orders"}
        )
    ).json()
    assert restoring["status"] == "restoring"
    dbs = (await http.get(f"{R}/instances/{staging['id']}/databases")).json()["databases"]
    assert "orders" in {d["name"] for d in dbs}
    listed = (await http.get(f"{R}/backups", params={"instance_id": o["id"], "page_size": 100})).json()
    assert {x["status"] for x in listed["database_backups"]} >= {"ready", "error", "locked", "restoring"}
    locked = next(x for x in listed["database_backups"] if x["status"] == "locked")  # held: not deleted
    refused = await http.delete(f"{R}/backups/{locked['id']}")
    assert refused.status_code == 400 and (await http.get(f"{R}/backups/{locked['id']}")).json()["status"] == "locked"


async def test_snapshots_need_a_block_volume_and_upgrade_takes_one_field(http, clock):
    full, o = await inst(http, "legacy-mysql"), await inst(http, "orders-db")
    r = await http.post(f"{R}/instances/{o['id']}/snapshots", json={"name": "s0"})
    assert r.status_code == 409 and r.json()["current_state"] == "backuping"  # the demo's backup under way
    clock.advance(8)
    r = await http.post(f"{R}/instances/{full['id']}/snapshots", json={"name": "s"})
    assert r.status_code == 400 and "block volume" in r.json()["message"]
    assert full["status"] == "disk_full"
    s = (await http.post(f"{R}/instances/{o['id']}/snapshots", json={"name": "s1"})).json()
    assert s["status"] == "creating"
    clock.advance(8)
    assert (await http.patch(f"{R}/snapshots/{s['id']}", json={"name": "s2"})).json()["name"] == "s2"
    new = (
        await http.post(
            f"{R}/snapshots/{s['id']}/create-instance", json={"instance_name": "from-snap", "node_type": "DB-DEV-S"}
        )
    ).json()
    assert new["status"] == "provisioning" and new["engine"] == "PostgreSQL-15"
    assert args(
        await http.post(f"{R}/instances/{o['id']}/upgrade", json={"node_type": "DB-DEV-M", "enable_ha": True})
    ) == {"body": "constraint"}
    assert args(await http.post(f"{R}/instances/{o['id']}/upgrade", json={"volume_size": 40 * GB})) == {
        "volume_size": "constraint"
    }  # no shrink
    up = (await http.post(f"{R}/instances/{o['id']}/upgrade", json={"volume_size": 60 * GB})).json()
    assert up["status"] == "configuring"
    clock.advance(10)
    assert (await http.get(f"{R}/instances/{o['id']}")).json()["volume"]["size"] == 60 * GB


async def test_endpoints_logs_metrics_certificate_and_delete(http, clock):
    staging, o = await inst(http, "staging-pg"), await inst(http, "orders-db")
    base = f"{R}/instances/{staging['id']}"
    r = await http.post(f"{base}/endpoints", json={"endpoint_spec": {"load_balancer": {}}})
    assert args(r) == {"endpoint_spec.load_balancer": "constraint"}  # it has one
    e = (
        await http.post(
            f"{base}/endpoints",
            json={"endpoint_spec": {"private_network": {"private_network_id": PN, "ipam_config": {}}}},
        )
    ).json()
    assert e["private_network"]["private_network_id"] == PN
    moved = (await http.post(f"{R}/endpoints/{e['id']}/migrate", json={"instance_id": o["id"]})).json()
    assert moved["id"] == e["id"] and e["id"] in {
        x["id"] for x in (await http.get(f"{R}/instances/{o['id']}")).json()["endpoints"]
    }
    assert (await http.delete(f"{R}/endpoints/{e['id']}")).status_code == 204
    logs = (await http.post(f"{base}/prepare-logs", json={})).json()["instance_logs"]
    assert [x["status"] for x in logs] == ["creating"]
    clock.advance(5)
    assert (await http.get(f"{R}/logs/{logs[0]['id']}")).json()["download_url"].startswith("https://")
    assert (await http.post(f"{base}/purge-logs", json={"log_name": "postgresql.log"})).status_code == 204
    details = (await http.get(f"{base}/logs-details")).json()["details"]
    assert {d["log_name"]: d["size"] for d in details}["postgresql.log"] == 0
    ts = (await http.get(f"{R}/instances/{o['id']}/metrics", params={"metric_name": "cpu_usage_percent"})).json()[
        "timeseries"
    ]
    assert [t["metadata"]["node"] for t in ts] == ["main", "standby"]
    assert (await http.get(f"{base}/certificate")).json()["content_type"] == "application/x-pem-file"
    assert (await http.post(f"{base}/renew-certificate")).status_code == 204
    assert (await http.delete(base)).json()["status"] == "deleting"
    clock.advance(5)
    assert (await http.get(base)).status_code == 404
    assert args(await http.get("/rdb/v1/regions/eu-west/instances")) == {"region": "constraint"}


async def test_a_mysql_instance_listens_on_its_engines_port_and_a_standby_serves_no_clients(http, sandbox):
    mysql, pg = await inst(http, "legacy-mysql"), await inst(http, "orders-db")
    assert {e["port"] for e in mysql["endpoints"]} == {3306} and mysql["endpoint"]["port"] == 3306
    assert {e["port"] for e in pg["endpoints"]} == {5432}
    replica = (
        await http.post(
            f"{R}/read-replicas", json={"instance_id": mysql["id"], "endpoint_spec": [{"direct_access": {}}]}
        )
    ).json()
    assert [e["port"] for e in replica["endpoints"]] == [3306]
    made = (await http.post(f"{R}/instances", json=create_body(sandbox, engine="MySQL-8"))).json()
    assert made["endpoint"]["port"] == 3306
    rules = (await http.post(f"{R}/instances/{mysql['id']}/acls", json={"rules": [{"ip": "198.51.100.0/24"}]})).json()[
        "rules"
    ]
    assert rules[0]["port"] == 3306
    ts = (await http.get(f"{R}/instances/{pg['id']}/metrics", params={"metric_name": "total_connections"})).json()[
        "timeseries"
    ]
    by_node = {t["metadata"]["node"]: [v for _, v in t["points"]] for t in ts}
    assert (
        max(by_node["standby"]) <= 1 < min(by_node["main"])
    )  # the synchronous standby: only the replication connection
