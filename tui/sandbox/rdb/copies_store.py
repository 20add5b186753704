"""The sandbox's database copies: backups (made, exported, expiring), snapshots and logs, kept in
the tables of `store.RdbStore`, whose base this is (it uses the store's clock, ids and instances), and moved
by its clock."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..errors import HttpError, not_found, or_not_found
from ..lifecycle import Timeline
from . import catalog

if TYPE_CHECKING:
    from ..core import Ids
    from .store import Timings

GB = catalog.GB


class CopiesStore:
    timeline: Timeline
    backups: dict[str, dict[str, dict[str, Any]]]
    snapshots: dict[str, dict[str, dict[str, Any]]]
    logs: dict[str, dict[str, dict[str, Any]]]
    # What it reads of `RdbStore` (its `ProductStore` base sets `ids`, `organization_id` and `t`).
    ids: Ids
    organization_id: str
    t: Timings

    if TYPE_CHECKING:  # `RdbStore`'s methods it calls

        def now(self) -> float: ...
        def iso(self, at: float | None = None) -> str: ...
        def busy_for(
            self, i: dict[str, Any], status: str, seconds: float, then: dict[str, Any] | None = None
        ) -> None: ...

    def create_backup(
        self,
        i: dict[str, Any],
        database: str,
        name: str,
        expires_at: str | None,
        status: str = "creating",
        age: float = 0.0,
    ) -> dict[str, Any]:
        now = self.now() - age
        users = sorted({u for (u, d), p in i["_privs"].items() if d == database and p != "none"})
        b = {
            "id": self.ids.uuid(),
            "instance_id": i["id"],
            "database_name": database,
            "name": name,
            "status": status,
            "size": i["_dbs"].get(database, {}).get("size") or 0,
            "expires_at": expires_at,
            "created_at": self.iso(now),
            "updated_at": self.iso(now),
            "instance_name": i["name"],
            "region": i["region"],
            "same_region": False,
            "download_url": None,
            "download_url_expires_at": None,
            "_users": users,
            "_engine": i["engine"],
        }
        if status == "creating":
            self.timeline.plan(b, (self.t.backup, {"status": "ready"}))
            if i["status"] in ("ready",):
                self.busy_for(i, "backuping", self.t.backup)
        self.backups[i["region"]][b["id"]] = b
        return b

    def settled(
        self,
        table: dict[str, dict[str, dict[str, Any]]],
        region: str,
        oid: str,
        resource: str,
        drop: Callable[[str, str], None] | None = None,
    ) -> dict[str, Any]:
        """The object `oid` of `table` in `region`, its due steps applied: 404 (as a `resource`) where
        there is none or the clock has removed it (then dropped from the table, or by `drop`)."""
        obj = table[region].get(oid)
        if obj is not None and self.timeline.settle(obj):
            if drop is None:
                table[region].pop(oid, None)
            else:
                drop(region, oid)
            obj = None
        if obj is None:
            raise not_found(resource, oid)
        return obj

    def backup(self, region: str, bid: str) -> dict[str, Any]:
        return self.settled(self.backups, region, bid, "database_backup")

    def live(
        self, region: str, table: dict[str, dict[str, dict[str, Any]]], get: Callable[[str, str], dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """Every object of `table` in `region` the clock has not removed (only those with a step due
        are settled, found among what is planned: a page of 10,000 settled backups reads none of them)."""
        objs = table[region]
        for obj in self.timeline.due_now():
            if objs.get(obj.get("id")) is obj:  # type: ignore[arg-type]  # (get(None): None, as in no table)
                try:
                    get(region, obj["id"])  # a step that removes it takes it out of `objs`
                except HttpError:
                    pass
        return list(objs.values())

    def export_url(self, b: dict[str, Any]) -> dict[str, Any]:
        return {
            "download_url": f"https://s3.{b['region']}.example/rdb-exports/{b['id']}/{b['database_name']}.custom"
            "?X-Expires=86400",
            "download_url_expires_at": self.iso(self.now() + self.t.export + 86_400),
        }

    def create_snapshot(
        self, i: dict[str, Any], name: str, expires_at: str | None, status: str = "creating"
    ) -> dict[str, Any]:
        s = {
            "id": self.ids.uuid(),
            "instance_id": i["id"],
            "name": name,
            "organization_id": self.organization_id,
            "project_id": i["project_id"],
            "status": status,
            "size": i["volume"]["size"],
            "expires_at": expires_at,
            "created_at": self.iso(),
            "updated_at": self.iso(),
            "instance_name": i["name"],
            "node_type": i["node_type"],
            "volume_type": {"type": i["volume"]["type"], "class": i["volume"]["type"]},
            "region": i["region"],
            "_engine": i["engine"],
        }
        if status == "creating":
            self.timeline.plan(s, (self.t.snapshot, {"status": "ready"}))
            if i["status"] == "ready":
                self.busy_for(i, "snapshotting", self.t.snapshot)
        self.snapshots[i["region"]][s["id"]] = s
        return s

    def snapshot(self, region: str, sid: str) -> dict[str, Any]:
        return self.settled(self.snapshots, region, sid, "snapshot")

    def prepare_logs(self, i: dict[str, Any], start: float, end: float) -> list[dict[str, Any]]:
        nodes = ["main", "standby"] if i["is_ha_cluster"] else ["main"]
        out = []
        for node in nodes:
            log = {
                "id": self.ids.uuid(),
                "status": "creating",
                "node_name": f"{i['name']}-{node}",
                "region": i["region"],
                "download_url": None,
                "expires_at": self.iso(self.now() + 86_400),
                "created_at": self.iso(),
                "_instance": i["id"],
                "_window": (start, end),
            }
            self.timeline.plan(
                log,
                (
                    self.t.logs,
                    {
                        "status": "ready",
                        "download_url": f"https://s3.{i['region']}.example/rdb-logs/{log['id']}.log.gz",
                    },
                ),
            )
            self.logs[i["region"]][log["id"]] = log
            out.append(log)
        return out

    def log(self, region: str, lid: str) -> dict[str, Any]:
        log = or_not_found(self.logs[region].get(lid), "instance_log", lid)
        self.timeline.settle(log)
        return log
