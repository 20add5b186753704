"""The sandbox Instance store's servers: their JSON (cached until they change), their state as
timed steps applied when read (`server_steps`), creation and removal with their volumes and IPs,
listing with the API's filters, and tasks. A mixin of `InstanceStore`, which holds the objects."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from ..errors import invalid_arguments, not_found
from ..lifecycle import GONE
from .listing import server_filters

if TYPE_CHECKING:
    from ..clock import Clock
    from ..core import Ids
    from ..lifecycle import Timeline
    from .state import Timings

ALLOWED_ACTIONS: dict[str, list[str]] = {
    "stopped": ["poweron", "backup"],
    "starting": ["stop_in_place", "backup"],
    "running": ["poweroff", "terminate", "reboot", "stop_in_place", "backup"],
    "stopping": ["stop_in_place", "backup"],
    "stopped in place": ["poweron", "poweroff", "terminate", "reboot", "backup"],
    "locked": [],
}


def hostname(name: str) -> str:
    return re.sub(r"[^a-z0-9-]+", "-", name.lower()).strip("-")


def _public_entry(ip: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": ip["id"],
        "address": ip["address"],
        "dynamic": False,
        "family": "inet6" if ip["type"] == "routed_ipv6" else "inet",
        "provisioning_mode": "manual",
    }


# How many members a placement group's policy can hold in the sandbox's pretend datacenter:
# low_latency packs them on one hypervisor, max_availability spreads them over distinct ones.
POLICY_CAPACITY = {"low_latency": 4, "max_availability": 8}


def policy_respected(pg: dict[str, Any], members: int) -> bool:
    return members <= POLICY_CAPACITY.get(pg["policy_type"], 8)


class ServerState:
    """Servers of `InstanceStore` (its `servers`, `volumes`, `ips`, `clock`, `ids`, caches)."""

    # What it reads of `InstanceStore`, which sets them (see there).
    clock: Clock
    ids: Ids
    organization: str
    project: str
    timings: Timings
    types: dict[str, dict[str, Any]]
    servers: dict[str, dict[str, dict[str, Any]]]
    volumes: dict[str, dict[str, dict[str, Any]]]
    snapshots: dict[str, dict[str, dict[str, Any]]]
    ips: dict[str, dict[str, dict[str, Any]]]
    security_groups: dict[str, dict[str, dict[str, Any]]]
    placement_groups: dict[str, dict[str, dict[str, Any]]]
    nics: dict[str, dict[str, dict[str, Any]]]
    user_data: dict[str, dict[str, bytes]]
    server_steps: Timeline
    volume_steps: Timeline
    nic_steps: Timeline
    version: dict[str, int]
    revs: dict[str, int]
    _json: dict[str, tuple[int, bytes]]
    wire_overrides: dict[str, dict[str, Any]]
    _list_cache: dict[tuple[str, tuple[tuple[str, str], ...]], tuple[int, list[dict[str, Any]]]]

    if TYPE_CHECKING:  # `InstanceStore`'s methods it calls

        def run_due(self) -> None: ...
        def stamp(self, obj: dict[str, Any]) -> None: ...
        def render_placement_group(self, zone: str, pg: dict[str, Any]) -> dict[str, Any]: ...
        def _default_security_group(self, zone: str) -> str: ...
        def volume_ready_later(self, vol: dict[str, Any], seconds: float) -> None: ...
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
        ) -> dict[str, Any]: ...

    # ---- servers ------------------------------------------------------------------------------
    def _touch(self, zone: str, sid: str | None = None) -> None:
        """Something changed in the zone (and in server `sid`): list caches and its JSON are stale."""
        self.version[zone] += 1
        if sid is not None:
            self.revs[sid] = self.revs.get(sid, 0) + 1

    def server_changed(self, zone: str, server: dict[str, Any]) -> None:
        self.stamp(server)
        self._touch(zone, server["id"])

    def encoded(self, server: dict[str, Any]) -> bytes:
        """The server as JSON, cached until it changes: listing 50,000 servers must not re-encode
        every one of them for every page (the sandbox is not what the benchmark measures)."""
        sid = server["id"]
        rev = self.revs.get(sid, 0)
        hit = self._json.get(sid)
        if hit is not None and hit[0] == rev:
            return hit[1]
        data = json.dumps(self.render(server), separators=(",", ":"), ensure_ascii=False).encode()
        self._json[sid] = (rev, data)
        return data

    def _server_step(self, server: dict[str, Any], changes: dict[str, Any]) -> None:
        if (
            server["state"] == "running"
            and server.get("dynamic_ip_required")
            and not server.get("dynamic_ips")
            and not server.get("flexible_ips")
        ):  # a reboot keeps the address it had
            self.assign_dynamic_ip(server)
        self._touch(server["zone"], server["id"])

    def _server_gone(self, server: dict[str, Any]) -> None:
        if server["id"] in self.servers[server["zone"]]:
            self.remove_server(server["zone"], server, keep_volumes=False)

    def settle_zone(self, zone: str) -> None:
        """Everything due, servers included (a server's steps apply to it alone: settling those
        of other zones too is what reading them would do)."""
        self.run_due()
        self.server_steps.settle_due()

    def get_server(self, zone: str, sid: str) -> dict[str, Any]:
        self.run_due()
        server = self.servers[zone].get(sid)
        if server is not None:
            self.server_steps.settle(server)
            server = self.servers[zone].get(sid)
        if server is None:
            raise not_found("instance_server", sid)
        return server

    def render(self, server: dict[str, Any]) -> dict[str, Any]:
        out = dict(server)
        zone = server["zone"]
        out["allowed_actions"] = list(ALLOWED_ACTIONS.get(server["state"], []))
        vols = {}
        for key, ref in server["volumes"].items():
            vol = self.volumes[zone].get(ref["id"])
            if vol is not None:
                vols[key] = {**vol, "boot": ref["boot"]}
        out["volumes"] = vols
        ips = [self.ips[zone][i] for i in server["flexible_ips"] if i in self.ips[zone]]
        public = [_public_entry(ip) for ip in ips] + server["dynamic_ips"]
        out["public_ips"] = public
        out["public_ip"] = public[0] if public else None
        sg = self.security_groups[zone].get(server["security_group"])
        out["security_group"] = {"id": sg["id"], "name": sg["name"]} if sg else None
        pg = self.placement_groups[zone].get(server["placement_group"] or "")
        out["placement_group"] = self.render_placement_group(zone, pg) if pg else None
        out["private_nics"] = [n for n in self.nics[zone].values() if n["server_id"] == server["id"]]
        del out["flexible_ips"], out["dynamic_ips"]
        out.update(self.wire_overrides.get(server["id"], {}))
        return out

    def assign_dynamic_ip(self, server: dict[str, Any]) -> None:
        n = self.ids.rng.randrange(1, 254)
        m = self.ids.rng.randrange(1, 254)
        server["dynamic_ips"] = [
            {
                "id": self.ids.uuid(),
                "address": f"51.15.{n}.{m}",
                "dynamic": True,
                "family": "inet",
                "provisioning_mode": "dhcp",
            }
        ]

    def add_server(
        self,
        zone: str,
        name: str,
        commercial_type: str,
        image: dict[str, Any],
        *,
        state: str = "stopped",
        tags: list[str] | None = None,
        volumes: dict[str, dict[str, Any]] | None = None,
        enable_ipv6: bool = False,
        dynamic_ip_required: bool = True,
        created_at: float | None = None,
        project: str | None = None,
    ) -> dict[str, Any]:
        """`volumes`: key -> either {"id", "boot"} (an existing volume) or a volume to create
        ({"size", "volume_type", "name"?, "boot"?, "base_snapshot"?})."""
        sid = self.ids.uuid()
        created = self.clock.iso(created_at)
        rng = self.ids.rng
        server: dict[str, Any] = {
            "id": sid,
            "name": name,
            "organization": self.organization,
            "project": project or self.project,
            "tags": list(tags or []),
            "commercial_type": commercial_type,
            "creation_date": created,
            "modification_date": created,
            "dynamic_ip_required": dynamic_ip_required,
            "routed_ip_enabled": True,
            "enable_ipv6": enable_ipv6,
            "hostname": hostname(name) or sid[:8],
            "image": image,
            "protected": False,
            "admin_password_encryption_ssh_key_id": None,
            "flexible_ips": [],
            "dynamic_ips": [],
            # an address on the zone's internal network, as the platform gives every server (made of its id: the
            # seeded random draws, and so the demo's other values, stay as they were)
            "private_ip": f"10.{64 + int(sid[0:2], 16) % 128}.{int(sid[2:4], 16)}.{1 + int(sid[4:6], 16) % 254}",
            "mac_address": "de:00:00:%02x:%02x:%02x" % (rng.randrange(256), rng.randrange(256), rng.randrange(256)),
            "state": state,
            "state_detail": {"running": "booted", "stopped": "", "locked": "locked by support"}.get(state, ""),
            "boot_type": "local",
            "arch": self.types.get(commercial_type, {}).get("arch", "x86_64"),
            "volumes": {},
            "security_group": self._default_security_group(zone),
            "placement_group": None,
            "maintenances": [],
            "ipv6": None,
            "location": {
                "zone_id": zone,
                "platform_id": "14",
                "cluster_id": str(rng.randrange(1, 40)),
                "hypervisor_id": str(rng.randrange(100, 999)),
                "node_id": str(rng.randrange(1, 60)),
            },
            "zone": zone,
        }
        for key, spec in (volumes or {}).items():
            boot = bool(spec.get("boot", key == "0"))
            if "id" in spec:
                vol = self.volumes[zone][spec["id"]]
            else:
                snap = self.snapshots[zone].get(spec.get("base_snapshot") or "")
                vol = self.new_volume(
                    zone,
                    spec.get("name") or f"{name}-vol-{key}",
                    spec["volume_type"],
                    spec["size"],
                    base_snapshot=snap["id"] if snap else None,
                    state="fetching" if snap else "available",
                )
                if snap:
                    self.volume_ready_later(vol, self.timings.volume)
            vol["server"] = {"id": sid, "name": name}
            server["volumes"][key] = {"id": vol["id"], "boot": boot}
        if state in ("running", "stopped in place") and dynamic_ip_required:
            self.assign_dynamic_ip(server)
        self.servers[zone][sid] = server
        self._touch(zone, sid)
        return server

    def remove_server(self, zone: str, server: dict[str, Any], keep_volumes: bool) -> None:
        """The server is gone: its attached volumes with it (the spec: detach a volume to keep it),
        its flexible IPs detached, its NICs and user data deleted."""
        sid = server["id"]
        for ref in server["volumes"].values():
            vol = self.volumes[zone].get(ref["id"])
            if vol is None:
                continue
            if keep_volumes:
                vol["server"] = None
                self.stamp(vol)
            else:
                del self.volumes[zone][ref["id"]]
                self.volume_steps.cancel(vol)
        for iid in server["flexible_ips"]:
            ip = self.ips[zone].get(iid)
            if ip is not None:
                ip["server"] = None
                ip["state"] = "detached"
        for nid in [n for n, nic in self.nics[zone].items() if nic["server_id"] == sid]:
            self.nic_steps.cancel(self.nics[zone].pop(nid))
        self.user_data.pop(sid, None)
        self.servers[zone].pop(sid, None)
        self.server_steps.cancel(server)
        self._json.pop(sid, None)
        self._touch(zone)

    def server_list(self, zone: str, params: dict[str, str]) -> list[dict[str, Any]]:
        self.settle_zone(zone)
        key = (zone, tuple(sorted(params.items())))
        hit = self._list_cache.get(key)
        if hit and hit[0] == self.version[zone]:
            return hit[1]
        items = server_filters(self, zone, list(self.servers[zone].values()), params)
        order = params.get("order", "creation_date_desc")
        if order not in ("creation_date_asc", "creation_date_desc", "modification_date_asc", "modification_date_desc"):
            raise invalid_arguments(
                (
                    "order",
                    "constraint",
                    "order must be creation_date_asc|creation_date_desc|modification_date_asc|modification_date_desc",
                )
            )
        field, _, direction = order.rpartition("_")
        items.sort(key=lambda s: (s[field], s["id"]), reverse=direction == "desc")
        if len(self._list_cache) > 64:
            self._list_cache.clear()
        self._list_cache[key] = (self.version[zone], items)
        return items

    # ---- transitions --------------------------------------------------------------------------
    def plan(self, zone: str, server: dict[str, Any], steps: list[tuple[float, str, str]]) -> None:
        """Replace the server's plan with `steps`: (seconds from now, state or GONE, state detail)."""
        declared, previous = [], 0.0
        for at, state, detail in steps:
            declared.append(
                (at - previous, {GONE: True} if state == GONE else {"state": state, "state_detail": detail})
            )
            previous = at
        self.server_steps.replan(server, *declared)
        self.server_steps.settle(server)
        self._touch(zone, server["id"])

    def task(self, zone: str, description: str, href_from: str, href_result: str) -> dict[str, Any]:
        return {
            "id": self.ids.uuid(),
            "description": description,
            "status": "pending",
            "href_from": href_from,
            "href_result": href_result,
            "started_at": self.clock.iso(),
            "terminated_at": None,
            "progress": 0,
            "zone": zone,
        }
