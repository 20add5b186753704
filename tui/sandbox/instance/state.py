"""The state of the sandbox's Instance platform: servers, volumes, snapshots, images, IPs, security
groups, placement groups, private NICs and user data, per zone, with time-driven transitions.

Server state is a plan of timed steps applied when read (`_settle`); other objects move through
`later(delay, fn)` callbacks run when any request arrives (`run_due`). With a ManualClock a test
decides exactly when a transition happens; with the wall clock the demo moves by itself.
"""

from __future__ import annotations

import heapq
import itertools
import uuid
from dataclasses import dataclass
from typing import Any, Callable

from .. import catalog
from ..clock import Clock
from ..core import ALL_ZONES, Ids
from ..errors import HttpError, invalid_request, not_found
from .server_state import ALLOWED_ACTIONS, GONE, ServerState, hostname  # noqa: F401  (re-exported)

GB = catalog.GB

# Volume types of /products/volumes, and the project quota on the total size of each.
VOLUME_TYPES: dict[str, dict[str, Any]] = {
    "l_ssd": {
        "display_name": "Local SSD",
        "capabilities": {"snapshot": True, "block_migration": False},
        "constraints": {"min": 1 * GB, "max": 800 * GB},
    },
    "b_ssd": {
        "display_name": "Block SSD",
        "capabilities": {"snapshot": True, "block_migration": True},
        "constraints": {"min": 1 * GB, "max": 10_000 * GB},
    },
    "sbs_volume": {
        "display_name": "Block Storage",
        "capabilities": {"snapshot": False, "block_migration": False},
        "constraints": {"min": 1 * GB, "max": 10_000 * GB},
    },
}
QUOTA_BYTES = {"l_ssd": 4_000 * GB, "b_ssd": 20_000 * GB, "sbs_volume": 20_000 * GB}

# The platform's own rules, applied before every group's (GET /security_groups/default/rules).
DEFAULT_RULES = [
    {"protocol": "TCP", "direction": "outbound", "action": "drop", "ip_range": "0.0.0.0/0", "dest_port_from": p, "dest_port_to": None}
    for p in (25, 465, 587)
]


@dataclass
class Timings:
    """Seconds each transition takes; the demo's defaults feel alive without being slow."""

    start: float = 4.0
    stop: float = 3.0
    reboot_stop: float = 1.5
    reboot_start: float = 2.5
    terminate: float = 3.0
    backup: float = 5.0
    snapshot: float = 4.0
    volume: float = 2.0  # fetching from a snapshot, resizing, migrating
    export: float = 5.0
    nic: float = 2.0
    ip: float = 1.0


class InstanceStore(ServerState):
    def __init__(self, clock: Clock, ids: Ids, organization: str, project: str, timings: Timings | None = None) -> None:
        self.clock = clock
        self.ids = ids
        self.organization = organization
        self.project = project
        self.timings = timings or Timings()
        self.types = catalog.commercial_types()
        self.servers: dict[str, dict[str, dict[str, Any]]] = {z: {} for z in ALL_ZONES}
        self.images: dict[str, dict[str, dict[str, Any]]] = {z: {} for z in ALL_ZONES}
        self.volumes: dict[str, dict[str, dict[str, Any]]] = {z: {} for z in ALL_ZONES}
        self.snapshots: dict[str, dict[str, dict[str, Any]]] = {z: {} for z in ALL_ZONES}
        self.ips: dict[str, dict[str, dict[str, Any]]] = {z: {} for z in ALL_ZONES}
        self.security_groups: dict[str, dict[str, dict[str, Any]]] = {z: {} for z in ALL_ZONES}
        self.placement_groups: dict[str, dict[str, dict[str, Any]]] = {z: {} for z in ALL_ZONES}
        self.nics: dict[str, dict[str, dict[str, Any]]] = {z: {} for z in ALL_ZONES}  # nic id -> nic
        self.user_data: dict[str, dict[str, bytes]] = {}  # server id -> key -> value
        self.migration_keys: dict[str, str] = {}  # plan key -> fingerprint of what it covers
        self.labels: dict[str, dict[str, str]] = {z: {} for z in ALL_ZONES}  # zone -> label -> image id
        self.plans: dict[str, list[tuple[float, str, str]]] = {}  # server id -> timed steps
        self._due: list[tuple[float, int, Callable[[], None]]] = []
        self._seq = itertools.count()
        self.version: dict[str, int] = {z: 0 for z in ALL_ZONES}
        self.revs: dict[str, int] = {}  # server id -> revision, bumped on every change
        self._json: dict[str, tuple[int, bytes]] = {}
        # Fault injection for leniency tests: fields a server's JSON carries whatever its state says.
        self.wire_overrides: dict[str, dict[str, Any]] = {}
        self._list_cache: dict[tuple, tuple[int, list[dict[str, Any]]]] = {}
        for zone in ALL_ZONES:
            for label, name, arch, size in catalog.IMAGES:
                image = self.new_image(zone, name, arch, self._public_root(zone, name, size * GB), public=True)
                self.labels[zone][label] = image["id"]
            self._default_security_group(zone)

    # ---- time ---------------------------------------------------------------------------------
    def later(self, delay: float, fn: Callable[[], None]) -> None:
        heapq.heappush(self._due, (self.clock.now() + delay, next(self._seq), fn))

    def run_due(self) -> None:
        now = self.clock.now()
        while self._due and self._due[0][0] <= now:
            _, _, fn = heapq.heappop(self._due)
            fn()

    def stamp(self, obj: dict[str, Any]) -> None:
        obj["modification_date"] = self.clock.iso()

    # ---- images -------------------------------------------------------------------------------
    def _public_root(self, zone: str, name: str, size: int) -> dict[str, Any]:
        return {"id": self.ids.uuid(), "name": f"{name} root", "size": size, "volume_type": "unified"}

    def new_image(
        self, zone: str, name: str, arch: str, root: dict[str, Any], public: bool, state: str = "available",
        extra: dict[str, Any] | None = None, tags: list[str] | None = None,
    ) -> dict[str, Any]:
        iid = self.ids.uuid()
        now = self.clock.iso()
        image = {
            "id": iid,
            "name": name,
            "arch": arch,
            "root_volume": root,
            "extra_volumes": extra or {},
            "public": public,
            "state": state,
            "organization": self.organization,
            "project": self.project,
            "tags": list(tags or []),
            "creation_date": now,
            "modification_date": now,
            "default_bootscript": None,
            "from_server": None,
            "zone": zone,
        }
        self.images[zone][iid] = image
        return image

    def resolve_image(self, zone: str, ref: str) -> dict[str, Any] | None:
        self.run_due()
        iid = self.labels[zone].get(ref, ref)
        return self.images[zone].get(iid)

    # ---- volumes ------------------------------------------------------------------------------
    def new_volume(
        self, zone: str, name: str, volume_type: str, size: int, *, state: str = "available",
        tags: list[str] | None = None, base_snapshot: str | None = None,
    ) -> dict[str, Any]:
        now = self.clock.iso()
        vol = {
            "id": self.ids.uuid(),
            "name": name,
            "volume_type": volume_type,
            "size": size,
            "state": state,
            "server": None,
            "organization": self.organization,
            "project": self.project,
            "tags": list(tags or []),
            "export_uri": None,
            "base_snapshot": base_snapshot,
            "creation_date": now,
            "modification_date": now,
            "zone": zone,
        }
        self.volumes[zone][vol["id"]] = vol
        return vol

    def volume(self, zone: str, vid: str) -> dict[str, Any]:
        self.run_due()
        vol = self.volumes[zone].get(vid)
        if vol is None:
            raise not_found("instance_volume", vid)
        return vol

    def used_bytes(self, volume_type: str) -> int:
        return sum(v["size"] for zone in self.volumes.values() for v in zone.values() if v["volume_type"] == volume_type)

    def check_quota(self, volume_type: str, extra: int) -> None:
        quota = QUOTA_BYTES.get(volume_type)
        if quota is None:
            return
        used = self.used_bytes(volume_type)
        if used + extra > quota:
            raise HttpError(403, {
                "type": "quotas_exceeded",
                "message": f"Quota exceeded: volumes_{volume_type}_total_size",
                "details": [{"resource": f"volumes_{volume_type}_total_size", "quota": quota, "current": used}],
            })

    def volume_changed(self, zone: str, vol: dict[str, Any]) -> None:
        """A volume changed: so did the server it is attached to (its JSON embeds the volume)."""
        self.stamp(vol)
        if vol.get("server"):
            self._touch(zone, vol["server"]["id"])

    def set_volume_state(self, zone: str, vid: str, state: str) -> Callable[[], None]:
        def apply() -> None:
            vol = self.volumes[zone].get(vid)
            if vol is not None:
                vol["state"] = state
                self.volume_changed(zone, vol)

        return apply

    def _default_security_group(self, zone: str) -> str:
        sgid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"sg-default-{zone}-{self.project}"))
        if sgid not in self.security_groups[zone]:
            self.new_security_group(zone, sgid, "Default security group", "Auto generated security group.", project_default=True)
        return sgid

    def new_security_group(self, zone: str, sgid: str, name: str, description: str, **fields: Any) -> dict[str, Any]:
        now = self.clock.iso()
        sg = {
            "id": sgid,
            "name": name,
            "description": description,
            "stateful": True,
            "inbound_default_policy": "accept",
            "outbound_default_policy": "accept",
            "project_default": False,
            "enable_default_security": True,
            "organization": self.organization,
            "project": self.project,
            "tags": [],
            "state": "available",
            "rules": [],
            "creation_date": now,
            "modification_date": now,
            "zone": zone,
        }
        sg.update(fields)
        self.security_groups[zone][sgid] = sg
        return sg

    def render_placement_group(self, zone: str, pg: dict[str, Any]) -> dict[str, Any]:
        members = [s for s in self.servers[zone].values() if s["placement_group"] == pg["id"]]
        return {**pg, "policy_respected": policy_respected(pg, len(members))}


# How many members a placement group's policy can hold in the sandbox's pretend datacenter:
# low_latency packs them on one hypervisor, max_availability spreads them over distinct ones.
POLICY_CAPACITY = {"low_latency": 4, "max_availability": 8}


def policy_respected(pg: dict[str, Any], members: int) -> bool:
    return members <= POLICY_CAPACITY.get(pg["policy_type"], 8)


def refuse_transient(resource: str, obj: dict[str, Any], states: tuple[str, ...] = ("available",)) -> None:
    if obj.get("state") not in states:
        raise HttpError(409, {
            "type": "transient_state", "message": "resource is in a transient state",
            "resource": resource, "resource_id": obj["id"], "current_state": obj.get("state"),
        })


def still_in_use(resource: str, help_message: str) -> HttpError:
    return HttpError(412, {
        "type": "precondition_failed", "message": "precondition is not respected",
        "precondition": "resource_still_in_use", "help_message": help_message, "resource": resource,
    })


def must(condition: bool, message: str) -> None:
    if not condition:
        raise invalid_request(message)
