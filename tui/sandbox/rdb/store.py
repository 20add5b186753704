"""State of the sandbox's relational databases: instances with their users, databases, privileges,
ACL rules, settings and endpoints; read replicas, backups, snapshots and logs — each with the
statuses of spec/4 advancing with the clock (one `lifecycle.Timeline`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tui.records import record

from ..errors import HttpError, invalid_request, not_found, or_not_found, transient_state
from ..lifecycle import GONE, Timeline
from ..product_store import ProductStore
from . import catalog
from .copies_store import CopiesStore

if TYPE_CHECKING:
    from ..app import Sandbox

GB = catalog.GB


@record
class Timings:
    provision: float = 20.0  # provisioning → initializing
    initialize: float = 10.0  # initializing → ready
    restart: float = 8.0  # restarting → ready
    configure: float = 10.0  # configuring → ready (upgrade, maintenance, replica reset)
    backup: float = 8.0  # creating (instance backuping) → ready
    export: float = 6.0  # exporting → ready with a download URL
    restore: float = 10.0  # restoring → ready
    snapshot: float = 8.0  # creating (instance snapshotting) → ready
    promote: float = 10.0  # promoting → a standalone instance
    delete: float = 5.0  # deleting → gone
    logs: float = 5.0  # a prepared log: creating → ready


def transient(resource: str, obj: dict[str, Any]) -> HttpError:
    return transient_state(resource, obj["id"], obj["status"])


class RdbStore(ProductStore, CopiesStore):
    t: Timings

    def __init__(self, sandbox: Sandbox) -> None:
        super().__init__(sandbox, "rdb_timings", Timings)
        self.instances: dict[str, dict[str, dict[str, Any]]] = {r: {} for r in catalog.REGIONS}
        self.replicas: dict[str, dict[str, dict[str, Any]]] = {r: {} for r in catalog.REGIONS}
        self.backups: dict[str, dict[str, dict[str, Any]]] = {r: {} for r in catalog.REGIONS}
        self.snapshots: dict[str, dict[str, dict[str, Any]]] = {r: {} for r in catalog.REGIONS}
        self.logs: dict[str, dict[str, dict[str, Any]]] = {r: {} for r in catalog.REGIONS}
        self.ip_seq = 10
        self.timeline = Timeline(self.clock, on_step=self._after_step)

    def _after_step(self, obj: dict[str, Any], changes: dict[str, Any]) -> None:
        if "engine" in changes:  # an upgrade landed: what it can upgrade to next changes
            self.upgrades(obj)

    def now(self) -> float:
        return self.clock.now()

    def iso(self, at: float | None = None) -> str:
        return self.clock.iso(at)

    def next_ip(self) -> str:
        self.ip_seq += 1
        return f"51.158.{self.ip_seq // 250}.{self.ip_seq % 250 + 2}"

    # ---- instances ------------------------------------------------------------------------------
    def create_instance(
        self, region: str, body: dict[str, Any], ready: bool = False, age: float = 0.0
    ) -> dict[str, Any]:
        now = self.now() - age
        iid = self.ids.uuid()
        volume_type = body.get("volume_type") or "lssd"
        size = body.get("volume_size") if volume_type == "bssd" else None
        i = {
            "id": iid,
            "name": body["name"],
            "organization_id": self.organization_id,
            "project_id": body.get("project_id") or self.project_id,
            "status": "ready" if ready else "provisioning",
            "engine": body["engine"],
            "upgradable_version": [],
            "endpoint": None,
            "endpoints": [],
            "tags": list(body.get("tags") or []),
            "settings": [],
            "backup_schedule": {
                "frequency": 24,
                "retention": 7,
                "disabled": bool(body.get("disable_backup")),
                "next_run_at": None,
            },
            "is_ha_cluster": bool(body.get("is_ha_cluster")),
            "read_replicas": [],
            "node_type": body["node_type"],
            "volume": {"type": volume_type, "size": size or 10 * GB, "class": volume_type},
            "created_at": self.iso(now),
            "init_settings": list(body.get("init_settings") or []),
            "backup_same_region": False,
            "maintenances": [],
            "logs_policy": {"max_age_retention": 30, "total_disk_retention": None},
            "region": region,
            "encryption": {"enabled": bool((body.get("encryption") or {}).get("enabled"))},
            "_users": {},
            "_dbs": {},
            "_privs": {},
            "_acls": [],
            "_cert": 1,
            "_logfiles": {
                "postgresql.log" if body["engine"].startswith("PostgreSQL") else "mysql.log": 48_211_332,
                "audit.log": 1_204_551,
            },
        }
        i["endpoints"] = [self.lb_endpoint(i["engine"])]
        i["endpoint"] = dict(i["endpoints"][0])
        user = body.get("user_name")
        if user:
            i["_users"][user] = {"name": user, "is_admin": True, "_password": body.get("password")}
        i["_dbs"]["rdb"] = {"name": "rdb", "owner": "_rdb_superadmin", "managed": True, "size": 8 * 1024 * 1024}
        self.upgrades(i)
        if not ready:
            self.timeline.plan(
                i, (self.t.provision, {"status": "initializing"}), (self.t.initialize, {"status": "ready"}), start=now
            )
        self.instances[region][iid] = i
        return i

    def lb_endpoint(self, engine: str) -> dict[str, Any]:
        ip = self.next_ip()
        return {
            "id": self.ids.uuid(),
            "ip": ip,
            "port": catalog.port_of(engine),
            "name": None,
            "load_balancer": {},
            "hostname": None,
        }

    def pn_endpoint(self, spec: dict[str, Any], region: str, engine: str) -> dict[str, Any]:
        ip = str(spec.get("service_ip") or "").split("/")[0] or f"172.16.{self.ip_seq % 250}.{self.ip_seq % 200 + 10}"
        self.ip_seq += 1
        return {
            "id": self.ids.uuid(),
            "ip": ip,
            "port": catalog.port_of(engine),
            "name": None,
            "hostname": None,
            "private_network": {
                "private_network_id": spec.get("private_network_id"),
                "service_ip": spec.get("service_ip") or f"{ip}/22",
                "zone": f"{region}-1",
                "provisioning_mode": "ipam" if "ipam_config" in spec else "static",
            },
        }

    def upgrades(self, i: dict[str, Any]) -> None:
        engine, _, number = i["engine"].partition("-")
        later = [
            v
            for e in catalog.engines(i["region"])
            if e["name"] == engine
            for v in e["versions"]
            if not v["disabled"] and number.isdigit() and v["version"].isdigit() and int(v["version"]) > int(number)
        ]
        i["upgradable_version"] = [
            {
                "id": f"{v['name'].lower()}-upgrade",
                "name": v["name"],
                "version": v["version"],
                "minor_version": f"{v['version']}.0",
            }
            for v in later
        ]

    def instance(self, region: str, iid: str) -> dict[str, Any]:
        return self.settled(self.instances, region, iid, "instance", drop=self.drop_instance)

    def drop_instance(self, region: str, iid: str) -> None:
        self.instances[region].pop(iid, None)
        for rid, r in list(self.replicas[region].items()):
            if r["instance_id"] == iid:
                del self.replicas[region][rid]

    def all_instances(self, region: str) -> list[dict[str, Any]]:
        for iid in list(self.instances[region]):
            try:
                self.instance(region, iid)
            except HttpError:
                pass
        return list(self.instances[region].values())

    def ready(
        self,
        i: dict[str, Any],
        resource: str = "instance",
        also: tuple[str, ...] = ("disk_full", "backuping", "snapshotting"),
    ) -> None:
        """Refused with 409 transient_state unless ready (or in `also`: a backup under way does not stop
        users, databases or settings from changing; a restart or an upgrade waits for it)."""
        if i["status"] not in ("ready", *also):
            raise transient(resource, i)

    def busy_for(self, i: dict[str, Any], status: str, seconds: float, then: dict[str, Any] | None = None) -> None:
        i["status"] = status
        self.timeline.plan(i, (seconds, {**(then or {}), "status": "ready"}))

    def delete_instance(self, i: dict[str, Any]) -> None:
        self.delete_later(i)

    def delete_later(self, obj: dict[str, Any]) -> dict[str, Any]:
        """Deleting now, gone after a while (whatever was planned is dropped)."""
        obj["status"] = "deleting"
        self.timeline.replan(obj, (self.t.delete, {GONE: True}))
        return obj

    def public_instance(self, i: dict[str, Any]) -> dict[str, Any]:
        out = {k: v for k, v in i.items() if not k.startswith("_")}
        out["read_replicas"] = [self.public_replica(r) for r in self.replicas_of(i)]
        return out

    def replicas_of(self, i: dict[str, Any]) -> list[dict[str, Any]]:
        """The instance's read replicas, each advanced to the time now (a promoted one is gone)."""
        found = []
        for rid, r in list(self.replicas[i["region"]].items()):
            if r["instance_id"] != i["id"]:
                continue
            try:
                found.append(self.replica(i["region"], rid))
            except HttpError:
                pass
        return found

    # ---- read replicas --------------------------------------------------------------------------
    def create_replica(
        self, i: dict[str, Any], specs: list[dict[str, Any]], same_zone: bool, ready: bool = False
    ) -> dict[str, Any]:
        region = i["region"]
        r = {
            "id": self.ids.uuid(),
            "endpoints": [],
            "status": "ready" if ready else "provisioning",
            "region": region,
            "same_zone": same_zone,
            "instance_id": i["id"],
            "_engine": i["engine"],
        }
        r["endpoints"] = [self.replica_endpoint(spec, r) for spec in specs]
        if not ready:
            self.timeline.plan(
                r, (self.t.provision, {"status": "initializing"}), (self.t.initialize, {"status": "ready"})
            )
        self.replicas[region][r["id"]] = r
        return r

    def replica_endpoint(self, spec: dict[str, Any], r: dict[str, Any]) -> dict[str, Any]:
        """An endpoint of read replica `r`, on its engine's port."""
        if "private_network" in spec:
            return self.pn_endpoint(spec["private_network"], r["region"], r["_engine"])
        return {
            "id": self.ids.uuid(),
            "ip": self.next_ip(),
            "port": catalog.port_of(r["_engine"]),
            "name": None,
            "hostname": None,
            "direct_access": {},
        }

    def replica(self, region: str, rid: str) -> dict[str, Any]:
        return self.settled(self.replicas, region, rid, "read_replica")

    def promote(self, r: dict[str, Any]) -> dict[str, Any]:
        """The replica becomes a standalone instance (configuring, then ready) with its endpoints,
        users and databases; the replica itself is promoting, then gone."""
        region = r["region"]
        source = self.instances[region].get(r["instance_id"])
        body = {
            "name": f"{source['name'] if source else 'replica'}-promoted",
            "engine": source["engine"] if source else "PostgreSQL-15",
            "node_type": source["node_type"] if source else "DB-DEV-S",
            "tags": list(source["tags"]) if source else [],
        }
        new = self.create_instance(region, body, ready=True)
        if r["endpoints"]:
            new["endpoints"] = [dict(e) for e in r["endpoints"]]
            new["endpoint"] = dict(new["endpoints"][0])
        if source:
            new["_users"] = {k: dict(v) for k, v in source["_users"].items()}
            new["_dbs"] = {k: dict(v) for k, v in source["_dbs"].items()}
            new["_privs"] = dict(source["_privs"])
            new["_acls"] = [dict(a) for a in source["_acls"]]
        self.busy_for(new, "configuring", self.t.promote)
        r["status"], r["endpoints"] = "promoting", []
        self.timeline.replan(r, (self.t.promote, {GONE: True}))
        return new

    def public_replica(self, r: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in r.items() if not k.startswith("_")}

    def find_endpoint(self, region: str, eid: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """(owner, endpoint): the instance or read replica holding endpoint `eid`."""
        for owner in [*self.all_instances(region), *self.replicas[region].values()]:
            for e in owner["endpoints"]:
                if e["id"] == eid:
                    return owner, e
        raise not_found("endpoint", eid)

    def refuse_unless_managed(self, i: dict[str, Any], database: str) -> None:
        db = or_not_found(i["_dbs"].get(database), "database", database)
        if not db["managed"]:
            raise invalid_request(
                f"database {database} is not managed: its permissions are managed in SQL by its owner {db['owner']}"
            )
