"""The state of the sandbox's Instance platform: servers, volumes, snapshots, images, IPs, security
groups, placement groups, private NICs and user data, per zone, with time-driven transitions.

Every timed state is a `lifecycle.Timeline` step: servers settle when read (stamped at the step's
time); volumes, snapshots, images, NICs and IPs settle on any request (`run_due`, stamped when read).
With a ManualClock a test decides exactly when a transition happens; with the wall clock the demo
moves by itself.
"""

from __future__ import annotations

import uuid
from typing import Any

from tui.records import record

from .. import catalog
from ..clock import Clock
from ..core import ALL_ZONES, Ids
from ..errors import HttpError, invalid_request, or_not_found, platform_error, precondition_failed
from ..lifecycle import Timeline
from . import actions
from .server_state import ServerState, policy_respected

GB = catalog.GB


@record
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
        # Servers: state and detail, stamped at the step's time; removed by a GONE step.
        self.server_steps = Timeline(
            clock, stamp="modification_date", on_step=self._server_step, on_gone=self._server_gone
        )
        # The other objects, stamped when the step is applied (on the next request).
        self.volume_steps = Timeline(clock, stamp="modification_date", stamp_read=True, on_step=self._volume_step)
        self.object_steps = Timeline(clock, stamp="modification_date", stamp_read=True)  # snapshots and images
        self.nic_steps = Timeline(clock, stamp="modification_date", stamp_read=True, on_step=self._nic_step)
        self.ip_steps = Timeline(clock, stamp=None, apply=_while_attached)
        self.version: dict[str, int] = {z: 0 for z in ALL_ZONES}
        self.revs: dict[str, int] = {}  # server id -> revision, bumped on every change
        self._json: dict[str, tuple[int, bytes]] = {}
        # Fault injection for leniency tests: fields a server's JSON carries whatever its state says.
        self.wire_overrides: dict[str, dict[str, Any]] = {}
        self._list_cache: dict[tuple[str, tuple[tuple[str, str], ...]], tuple[int, list[dict[str, Any]]]] = {}
        for zone in ALL_ZONES:
            for label, name, arch, size in catalog.IMAGES:
                image = self.new_image(zone, name, arch, self._public_root(zone, name, size * GB), public=True)
                self.labels[zone][label] = image["id"]
            self._default_security_group(zone)

    # ---- time ---------------------------------------------------------------------------------
    def run_due(self) -> None:
        """Apply the steps due to every object but servers (those settle when read)."""
        for timeline in (self.volume_steps, self.object_steps, self.nic_steps, self.ip_steps):
            timeline.settle_due()

    def _volume_step(self, vol: dict[str, Any], changes: dict[str, Any]) -> None:
        if vol.get("server"):
            self._touch(vol["zone"], vol["server"]["id"])

    def _nic_step(self, nic: dict[str, Any], changes: dict[str, Any]) -> None:
        if nic["server_id"] in self.servers[nic["zone"]]:
            self._touch(nic["zone"], nic["server_id"])

    def run_action(self, zone: str, server: dict[str, Any], action: str, body: dict[str, Any]) -> dict[str, Any]:
        """What POST /servers/{id}/action does (tests and seeds drive servers through this)."""
        return actions.run_action(self, zone, server, action, body)

    def stamp(self, obj: dict[str, Any]) -> None:
        obj["modification_date"] = self.clock.iso()

    # ---- images -------------------------------------------------------------------------------
    def _public_root(self, zone: str, name: str, size: int) -> dict[str, Any]:
        return {"id": self.ids.uuid(), "name": f"{name} root", "size": size, "volume_type": "unified"}

    def new_image(
        self,
        zone: str,
        name: str,
        arch: str,
        root: dict[str, Any],
        public: bool,
        state: str = "available",
        extra: dict[str, Any] | None = None,
        tags: list[str] | None = None,
    ) -> dict[str, Any]:
        iid = self.ids.uuid()
        now = self.clock.iso()
        image: dict[str, Any] = {
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

    # ---- snapshots ----------------------------------------------------------------------------
    def new_snapshot(
        self,
        zone: str,
        name: str,
        volume_type: str,
        size: int,
        state: str,
        *,
        base_volume: dict[str, Any] | None = None,
        tags: list[str] | None = None,
    ) -> dict[str, Any]:
        now = self.clock.iso()
        snap: dict[str, Any] = {
            "id": self.ids.uuid(),
            "name": name,
            "volume_type": volume_type,
            "size": size,
            "state": state,
            "base_volume": base_volume,
            "organization": self.organization,
            "project": self.project,
            "tags": list(tags or []),
            "creation_date": now,
            "modification_date": now,
            "error_reason": None,
            "zone": zone,
        }
        self.snapshots[zone][snap["id"]] = snap
        return snap

    def import_snapshot(
        self,
        zone: str,
        name: str,
        volume_type: str,
        size: int,
        tags: list[str] | None,
    ) -> dict[str, Any]:
        """A snapshot of a QCOW2 object: `importing`, then available after a while."""
        snap = self.new_snapshot(zone, name, volume_type, size, "importing", tags=tags)
        self.object_steps.plan(snap, (self.timings.export, {"state": "available"}))
        return snap

    # ---- volumes ------------------------------------------------------------------------------
    def new_volume(
        self,
        zone: str,
        name: str,
        volume_type: str,
        size: int,
        *,
        state: str = "available",
        tags: list[str] | None = None,
        base_snapshot: str | None = None,
    ) -> dict[str, Any]:
        now = self.clock.iso()
        vol: dict[str, Any] = {
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
        return or_not_found(self.volumes[zone].get(vid), "instance_volume", vid)

    def used_bytes(self, volume_type: str) -> int:
        return sum(
            v["size"] for zone in self.volumes.values() for v in zone.values() if v["volume_type"] == volume_type
        )

    def check_quota(self, volume_type: str, extra: int) -> None:
        quota = catalog.QUOTA_BYTES.get(volume_type)
        if quota is None:
            return
        used = self.used_bytes(volume_type)
        if used + extra > quota:
            resource = f"volumes_{volume_type}_total_size"
            raise platform_error(
                403,
                "quotas_exceeded",
                f"Quota exceeded: {resource}",
                details=[{"resource": resource, "quota": quota, "current": used}],
            )

    def volume_changed(self, zone: str, vol: dict[str, Any]) -> None:
        """A volume changed: so did the server it is attached to (its JSON embeds the volume)."""
        self.stamp(vol)
        if vol.get("server"):
            self._touch(zone, vol["server"]["id"])

    def volume_ready_later(self, vol: dict[str, Any], seconds: float) -> None:
        """The volume (fetching, resizing, migrating…) is available after `seconds`."""
        self.volume_steps.plan(vol, (seconds, {"state": "available"}), queue=False)

    def _default_security_group(self, zone: str) -> str:
        sgid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"sg-default-{zone}-{self.project}"))
        if sgid not in self.security_groups[zone]:
            self.new_security_group(
                zone, sgid, "Default security group", "Auto generated security group.", project_default=True
            )
        return sgid

    def new_security_group(self, zone: str, sgid: str, name: str, description: str, **fields: object) -> dict[str, Any]:
        now = self.clock.iso()
        sg: dict[str, Any] = {
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


def _while_attached(ip: dict[str, Any], changes: dict[str, Any]) -> None:
    """An IP's attach settles only if it is still attached by then."""
    if ip.get("server"):
        ip.update(changes)


def still_in_use(resource: str, help_message: str) -> HttpError:
    return precondition_failed("resource_still_in_use", help_message, resource=resource)


def must(condition: bool, message: str) -> None:
    if not condition:
        raise invalid_request(message)
