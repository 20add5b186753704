"""Every form rule of the data products (databases, caches), checked on its pydantic model (tests/form_rules.py)."""

from __future__ import annotations

import pytest

from form_rules import (
    Rule,
    check,
    KV_NEW,
    PN,
    PW,
    RDB_NEW,
    instance_id,
    kv_catalogue,
    kv_settings,
    literal,
    rdb_acls,
    rdb_backups,
    rdb_catalogue,
    rdb_grow,
    rdb_one_setting,
    rdb_settings,
)

pytestmark = pytest.mark.anyio


RULES: dict[str, Rule] = {
    # ---- databases ---------------------------------------------------------------------------------
    "rdb create: block size in steps": Rule(
        "rdb.instance_forms:CreateForm",
        RDB_NEW,
        {"volume_size": "7"},
        "volume_size",
        "5 to 10000 GB, in steps of 5 GB",
        rdb_catalogue,
    ),
    "rdb create: local volume takes no size": Rule(
        "rdb.instance_forms:CreateForm",
        RDB_NEW,
        {"volume_type": "lssd"},
        "volume_size",
        "only a block volume (bssd) takes a size",
        rdb_catalogue,
    ),
    "rdb create: HA-only node type": Rule(
        "rdb.instance_forms:CreateForm",
        RDB_NEW,
        {"node_type": "DB-PRO2-M"},
        "is_ha_cluster",
        "runs only as a high-availability cluster",
        rdb_catalogue,
    ),
    "rdb create: node out of stock": Rule(
        "rdb.instance_forms:CreateForm",
        RDB_NEW,
        {"node_type": "DB-GP-L"},
        "node_type",
        "DB-GP-L is out of stock",
        rdb_catalogue,
    ),
    "rdb create: weak password": Rule(
        "rdb.instance_forms:CreateForm", RDB_NEW, {"password": "weakpass"}, "password", "upper-case", rdb_catalogue
    ),
    "rdb create: user name": Rule(
        "rdb.instance_forms:CreateForm",
        RDB_NEW,
        {"user_name": "9admin"},
        "user_name",
        "starting with a letter",
        rdb_catalogue,
    ),
    "rdb database: starts with a letter": Rule(
        "rdb.data_forms:DatabaseForm",
        {"name": "shop"},
        {"name": "9shop"},
        "name",
        "1 to 63 letters, digits, _ and -, starting with a letter or _",
    ),
    "rdb user: weak password": Rule(
        "rdb.data_forms:UserForm",
        {"name": "shopper", "password": PW},
        {"password": "shopper1"},
        "password",
        "upper-case",
    ),
    "rdb password: weak": Rule(
        "rdb.data_forms:PasswordForm", {"password": PW}, {"password": "password"}, "password", "upper-case"
    ),
    "rdb acl: not an address": Rule(
        "rdb.data_forms:AclForm",
        {"ip": "10.1.0.0/16"},
        {"ip": "300.1.2.3/32"},
        "ip",
        "an IP address or a network in CIDR notation",
        rdb_acls,
    ),
    "rdb acl: host bits set": Rule(
        "rdb.data_forms:AclForm",
        {"ip": "10.1.0.0/16"},
        {"ip": "10.1.2.3/16"},
        "ip",
        "did you mean 10.1.0.0/16",
        rdb_acls,
    ),
    "rdb acl: already allowed": Rule(
        "rdb.data_forms:AclForm",
        {"ip": "10.1.0.0/16"},
        {"ip": "203.0.113.7/32"},
        "ip",
        "203.0.113.7/32 is already allowed",
        rdb_acls,
    ),
    "rdb setting: init-only": Rule(
        "rdb.data_forms:SettingForm",
        {"name": "work_mem", "value": "64"},
        {"name": "lc_collate", "value": "C"},
        "name",
        "set only when the engine is initialised",
        rdb_settings,
    ),
    "rdb setting: boolean": Rule(
        "rdb.data_forms:SettingForm",
        {"name": "autovacuum", "value": "false"},
        {"value": "yes"},
        "value",
        "true or false",
        rdb_settings,
    ),
    "rdb setting: range": Rule(
        "rdb.data_forms:SettingForm",
        {"name": "work_mem", "value": "64"},
        {"value": "5000"},
        "value",
        "from 1 to 1024 MB",
        rdb_settings,
    ),
    "rdb setting value: boolean": Rule(
        "rdb.data_forms:ValueForm", {"value": "true"}, {"value": "maybe"}, "value", "true or false", rdb_one_setting
    ),
    "rdb replica: network is a UUID": Rule(
        "rdb.replica_forms:ReplicaForm",
        {"private_network_id": PN},
        {"private_network_id": "my-network"},
        "private_network_id",
        "UUID",
    ),
    "rdb replica: service IP needs a network": Rule(
        "rdb.replica_forms:ReplicaForm",
        {"direct_access": True},
        {"service_ip": "172.16.4.10/22"},
        "service_ip",
        "goes with a private network",
    ),
    "rdb replica: some endpoint": Rule(
        "rdb.replica_forms:ReplicaForm",
        {"direct_access": True},
        {"direct_access": False},
        "same_zone",
        "give the replica an endpoint",
    ),
    "rdb endpoint: private address": Rule(
        "rdb.instance_forms:PrivateEndpointForm",
        {"private_network_id": PN, "service_ip": "172.16.4.10/22"},
        {"service_ip": "8.8.8.8/24"},
        "service_ip",
        "RFC 1918",
    ),
    "rdb backup: database must exist": Rule(
        "rdb.copy_forms:BackupForm",
        {"database_name": "orders", "name": "adhoc"},
        {"database_name": "shop"},
        "database_name",
        "no database shop there",
        rdb_backups,
        given=lambda w: instance_id(w, "orders-db"),
    ),
    "rdb backup: expiry in days": Rule(
        "rdb.copy_forms:BackupForm",
        {"database_name": "orders", "name": "adhoc"},
        {"expires_in_days": "0"},
        "expires_in_days",
        "",
        rdb_backups,
        given=lambda w: instance_id(w, "orders-db"),
    ),
    "rdb from snapshot: HA-only node type": Rule(
        "rdb.copy_forms:FromSnapshotForm",
        {"instance_name": "launch-copy", "node_type": "DB-DEV-S"},
        {"node_type": "DB-PRO2-M"},
        "is_ha_cluster",
        "high-availability",
        rdb_catalogue,
    ),
    "rdb grow: never shrinks": Rule(
        "rdb.upgrade_forms:VolumeSizeForm",
        {"volume_size": "60"},
        {"volume_size": "40"},
        "volume_size",
        "larger than now (50 GB): a volume does not shrink",
        rdb_grow,
    ),
    "rdb grow: steps": Rule(
        "rdb.upgrade_forms:VolumeSizeForm",
        {"volume_size": "60"},
        {"volume_size": "62"},
        "volume_size",
        "in steps of 5 GB",
        rdb_grow,
    ),
    "rdb logs: hours": Rule("rdb.data_forms:LogsForm", {"hours": "2"}, {"hours": "0"}, "hours", "at least 1"),
    # ---- caches ---------------------------------------------------------------------------------------
    "cache create: cluster size": Rule(
        "kvcache.forms:CreateForm", KV_NEW, {"cluster_size": "2"}, "cluster_size", "3 to 6", kv_catalogue
    ),
    "cache create: private service IPs": Rule(
        "kvcache.forms:CreateForm",
        KV_NEW,
        {"service_ips": "8.8.8.8/24, 10.20.0.11/24, 10.20.0.12/24"},
        "service_ips",
        "RFC 1918",
        kv_catalogue,
    ),
    "cache create: one IP per node": Rule(
        "kvcache.forms:CreateForm",
        KV_NEW,
        {"service_ips": "10.20.0.10/24, 10.20.0.11/24"},
        "service_ips",
        "3 needed, 2 given",
        kv_catalogue,
    ),
    "cache create: a private endpoint left without its network": Rule(
        "kvcache.forms:CreateForm", KV_NEW, {"private_network_id": ""}, "private_network_id", "private network ID"
    ),
    "cache create: an allowed network given twice": Rule(
        "kvcache.forms:CreateForm",
        KV_NEW,
        {"acl_rules": "10.0.0.0/8, 10.0.0.0/8"},
        "acl_rules",
        "10.0.0.0/8 is listed twice",
        kv_catalogue,
    ),
    "cache edit: weak password": Rule(
        "kvcache.forms:EditForm",
        {"name": "sessions", "user_name": "app"},
        {"password": "short"},
        "password",
        "upper-case",
    ),
    "cache acl: host bits set": Rule(
        "kvcache.forms:AclRecord",
        {"ip_cidr": "192.168.7.0/24"},
        {"ip_cidr": "192.168.7.1/24"},
        "ip_cidr",
        "did you mean 192.168.7.0/24",
    ),
    "cache setting: range": Rule(
        "kvcache.forms:SettingRecord",
        {"name": "tcp-keepalive", "value": "300"},
        {"value": "9000"},
        "value",
        "from 0 to 7200",
        kv_settings,
    ),
    "cache nodes: 3 to 6": Rule(
        "kvcache.forms:SizeForm",
        {"cluster_size": "5"},
        {"cluster_size": "7"},
        "cluster_size",
        "3 to 6",
        literal({"current": 3}),
    ),
    "cache nodes: a change": Rule(
        "kvcache.forms:SizeForm",
        {"cluster_size": "5"},
        {"cluster_size": "3"},
        "cluster_size",
        "that is the size it has",
        literal({"current": 3}),
    ),
}


@pytest.mark.parametrize("name", list(RULES))
async def test_form_rule(world, name):
    await check(world, RULES[name])
