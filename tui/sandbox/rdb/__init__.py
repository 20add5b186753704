"""Managed relational databases of the sandbox (`/rdb/v1/regions/{region}`): spec 2 §2.3, §3.3,
§4.3, §8 and spec/4 "Relational databases"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..registry import SandboxProduct
from . import routes_access, routes_copies, routes_endpoints, routes_instances, routes_logs
from .catalog import GB, REGIONS
from .store import RdbStore, Timings

if TYPE_CHECKING:
    import random

    from starlette.routing import BaseRoute

__all__ = ["PRODUCT", "RdbStore", "REGIONS", "Timings"]

DEMO_PASSWORD = "Demo-pass-42!"
PN = "5b2b0d1e-7c1a-4f8e-9d3b-1a2b3c4d5e6f"


def routes(store: RdbStore) -> list[BaseRoute]:
    return [
        *routes_instances.routes(store),
        *routes_logs.routes(store),
        *routes_endpoints.routes(store),
        *routes_access.routes(store),
        *routes_copies.routes(store),
    ]


def seed_demo(store: RdbStore, rng: random.Random) -> None:
    """An HA instance with a replica, a disk_full one, a restore target, backups in every state,
    snapshots, and instances in three regions."""
    day = 86_400.0

    def make(
        region: str,
        name: str,
        engine: str,
        node: str,
        *,
        ha: bool = False,
        bssd: int = 0,
        age: float = 30 * day,
        ready: bool = True,
        tags: tuple[str, ...] = (),
    ) -> dict[str, Any]:
        body = {
            "name": name,
            "engine": engine,
            "node_type": node,
            "is_ha_cluster": ha,
            "user_name": "admin",
            "password": DEMO_PASSWORD,
            "tags": list(tags),
            "volume_type": "bssd" if bssd else "lssd",
            "volume_size": bssd * GB if bssd else None,
        }
        return store.create_instance(region, body, ready=ready, age=age)

    orders = make("fr-par", "orders-db", "PostgreSQL-15", "DB-GP-XS", ha=True, bssd=50, tags=("prod",))
    orders["_users"]["app"] = {"name": "app", "is_admin": False, "_password": DEMO_PASSWORD}
    orders["_users"]["reporting"] = {"name": "reporting", "is_admin": False, "_password": DEMO_PASSWORD}
    orders["_dbs"]["orders"] = {"name": "orders", "owner": "_rdb_superadmin", "managed": True, "size": 2_412_000_000}
    orders["_dbs"]["analytics"] = {"name": "analytics", "owner": "reporting", "managed": False, "size": 845_000_000}
    orders["_privs"].update(
        {
            ("app", "orders"): "readwrite",
            ("reporting", "orders"): "readonly",
            ("admin", "orders"): "all",
            ("reporting", "analytics"): "custom",
        }
    )
    orders["_acls"] = [
        {"ip": "10.0.0.0/8", "description": "private networks"},
        {"ip": "203.0.113.7/32", "description": "jump host"},
    ]
    orders["settings"] = [{"name": "max_connections", "value": "400"}, {"name": "work_mem", "value": "16"}]
    orders["maintenances"] = [
        {
            "reason": "minor version update",
            "status": "pending",
            "is_applicable": True,
            "starts_at": store.iso(store.now() + 3 * day),
            "stops_at": store.iso(store.now() + 4 * day),
            "closed_at": None,
            "forced_at": None,
        }
    ]
    orders["endpoints"].append(
        store.pn_endpoint({"private_network_id": PN, "service_ip": "172.16.4.10/22"}, "fr-par", orders["engine"])
    )
    store.create_replica(orders, [{"direct_access": {}}], same_zone=True, ready=True)

    full = make("fr-par", "legacy-mysql", "MySQL-8", "DB-DEV-S", age=400 * day, tags=("legacy",))
    full["status"] = "disk_full"
    full["_dbs"]["wordpress"] = {
        "name": "wordpress",
        "owner": "_rdb_superadmin",
        "managed": True,
        "size": 9_400_000_000,
    }

    staging = make("fr-par", "staging-pg", "PostgreSQL-14", "DB-DEV-M", age=12 * day, tags=("staging",))
    staging["_users"]["app"] = {"name": "app", "is_admin": False, "_password": DEMO_PASSWORD}
    make("fr-par", "new-reports", "PostgreSQL-15", "DB-DEV-S", ready=False, age=0.0)
    make("nl-ams", "analytics-ams", "PostgreSQL-13", "DB-GP-XS", bssd=100, tags=("analytics",))
    make("pl-waw", "eu-east-pg", "PostgreSQL-12", "DB-DEV-S", age=700 * day)

    # backups of orders-db in every state
    for status, name, age in (
        ("ready", "orders-nightly", 1 * day),
        ("ready", "orders-weekly", 6 * day),
        ("error", "orders-failed", 2 * day),
        ("locked", "orders-legal-hold", 90 * day),
        ("exporting", "orders-export", 0.5 * day),
        ("restoring", "orders-restore-test", 3 * day),
    ):
        b = store.create_backup(orders, "orders", name, store.iso(store.now() + 30 * day), status=status, age=age)
        if status in ("exporting", "restoring"):
            store.timeline.plan(
                b, (store.t.export, {"status": "ready", **(store.export_url(b) if status == "exporting" else {})})
            )
    store.create_backup(orders, "orders", "orders-now", store.iso(store.now() + 7 * day))  # creating → ready
    store.create_backup(full, "wordpress", "wordpress-daily", None, status="ready", age=day)
    # kept past any schedule, without an expiry: the advisor's backup older than the age set (60 days)
    store.create_backup(orders, "orders", "orders-q3-close", None, status="ready", age=75 * day)
    store.create_snapshot(orders, "orders-before-upgrade", None, status="ready")


def seed_scale(store: RdbStore, rng: random.Random, count: int) -> None:
    """`count` backups of one instance in fr-par: the product's most numerous kind."""
    i = store.create_instance(
        "fr-par",
        {
            "name": "scale-db",
            "engine": "PostgreSQL-15",
            "node_type": "DB-DEV-S",
            "user_name": "admin",
            "password": DEMO_PASSWORD,
        },
        ready=True,
    )
    for n in range(count):
        store.create_backup(i, "rdb", f"backup-{n:05d}", None, status="ready", age=float(count - n))


PRODUCT = SandboxProduct("rdb", "/rdb/", RdbStore, routes, seed_demo=seed_demo, seed_scale=seed_scale)
