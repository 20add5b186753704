"""What the Instance platform does when asked to act: power a server on or off, reboot, terminate,
back it up (an image of a snapshot of each volume), snapshot a volume — each as timed steps."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import invalid_arguments, invalid_request, transient_state
from ..lifecycle import GONE
from .server_state import ALLOWED_ACTIONS, policy_respected
from .validation import NAME_RE

if TYPE_CHECKING:
    from .state import InstanceStore


def _refusal(action: str, state: str) -> str:
    if action == "poweron":
        return "server should be stopped"
    if action in ("poweroff", "reboot", "terminate"):
        return "server should be running"
    return f"action {action} is not allowed while the server is {state}"


def run_action(
    store: InstanceStore, zone: str, server: dict[str, Any], action: str, body: dict[str, Any]
) -> dict[str, Any]:
    t = store.timings
    state = server["state"]
    if action == "enable_routed_ip":
        return enable_routed_ip(store, zone, server, bool(body.get("disable_ipv6")))
    if action not in ALLOWED_ACTIONS.get(state, []):
        raise invalid_request(_refusal(action, state))
    if action == "terminate" and server.get("protected"):  # terminate deletes, as DELETE does
        raise invalid_request("server is protected: unset protection before terminating it")
    if action == "poweron":
        pg = store.placement_groups[zone].get(server["placement_group"] or "")
        if pg is not None and pg["policy_mode"] == "enforced":
            members = sum(1 for s in store.servers[zone].values() if s["placement_group"] == pg["id"])
            if not policy_respected(pg, members):
                raise invalid_request(
                    f"placement group {pg['name']} is enforced and its {pg['policy_type']} policy cannot be respected"
                )
        store.plan(
            zone,
            server,
            [
                (0, "starting", "provisioning node"),
                (t.start / 2, "starting", "booting kernel"),
                (t.start, "running", "booted"),
            ],
        )
    elif action == "poweroff":
        store.plan(zone, server, [(0, "stopping", "stopping"), (t.stop, "stopped", "")])
    elif action == "stop_in_place":
        store.plan(zone, server, [(0, "stopping", "stopping in place"), (t.stop, "stopped in place", "")])
    elif action == "reboot":
        store.plan(
            zone,
            server,
            [
                (0, "stopping", "rebooting"),
                (t.reboot_stop, "starting", "booting kernel"),
                (t.reboot_stop + t.reboot_start, "running", "booted"),
            ],
        )
    elif action == "terminate":
        store.plan(zone, server, [(0, "stopping", "terminating"), (t.terminate, GONE, "")])
    elif action == "backup":
        backup(store, zone, server, body.get("name") or f"{server['name']}-backup", body.get("volumes") or {})
    description = "server_batch_poweron" if action == "poweron" else f"server_{action}"
    return store.task(zone, description, f"/servers/{server['id']}/action", f"/servers/{server['id']}")


def enable_routed_ip(store: InstanceStore, zone: str, server: dict[str, Any], disable_ipv6: bool) -> dict[str, Any]:
    """Move the server to the routed network stack (IPv6 off if asked); once there, it stays."""
    if server["state"] == "locked":
        raise invalid_request("the server is locked")
    if server.get("routed_ip_enabled"):
        raise invalid_request("the server already uses routed IPs")
    server["routed_ip_enabled"] = True
    if disable_ipv6:
        server["enable_ipv6"] = False
    store.server_changed(zone, server)
    return store.task(zone, "server_enable_routed_ip", f"/servers/{server['id']}/action", f"/servers/{server['id']}")


def backup(store: InstanceStore, zone: str, server: dict[str, Any], name: object, volumes: object = None) -> None:
    """A backup is an image made of a snapshot of every volume, or of the `volumes` asked (keyed by
    volume id, each with the snapshot's volume_type if it overrides the volume's); both are ready
    after a while."""
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise invalid_arguments(("name", "format", "only alphanumeric characters, dots, spaces and dashes"))
    asked = _backup_volumes(store, zone, server, volumes or {})
    snaps = []
    for key in sorted(server["volumes"], key=int):
        vol = store.volumes[zone].get(server["volumes"][key]["id"])
        if vol is None or (asked and vol["id"] not in asked):
            continue
        if asked or vol["volume_type"] in ("l_ssd", "b_ssd"):
            snaps.append(snapshot_volume(store, zone, vol, f"{name}-{key}", volume_type=asked.get(vol["id"])))
    root = snaps[0] if snaps else None
    image = store.new_image(
        zone,
        name,
        server["arch"],
        {"id": root["id"], "name": root["name"], "size": root["size"], "volume_type": root["volume_type"]}
        if root
        else {},
        public=False,
        state="creating",
        extra={
            str(i): {"id": s["id"], "name": s["name"], "size": s["size"], "volume_type": s["volume_type"]}
            for i, s in enumerate(snaps[1:], 1)
        },
    )
    image["from_server"] = server["id"]
    store.object_steps.plan(image, (store.timings.backup, {"state": "available"}))


def _backup_volumes(store: InstanceStore, zone: str, server: dict[str, Any], volumes: object) -> dict[str, str | None]:
    """ServerActionRequest.volumes: volume id -> {volume_type}, each a volume of the server."""
    if not isinstance(volumes, dict):
        raise invalid_arguments(("volumes", "format", "volumes maps volume ids to {volume_type}"))
    own = {ref["id"] for ref in server["volumes"].values()}
    asked: dict[str, str | None] = {}
    for vid, template in volumes.items():
        vtype = template.get("volume_type") if isinstance(template, dict) else None
        if vid not in own:
            raise invalid_arguments((f"volumes.{vid}", "constraint", "not a volume of this server"))
        if not isinstance(template, dict) or set(template) - {"volume_type"}:
            raise invalid_arguments((f"volumes.{vid}", "format", "each volume takes only volume_type"))
        asked[vid] = None if vtype in (None, "unknown_volume_type") else vtype
    return asked


def snapshot_volume(
    store: InstanceStore,
    zone: str,
    vol: dict[str, Any],
    name: str,
    tags: list[str] | None = None,
    volume_type: str | None = None,
) -> dict[str, Any]:
    """A snapshot of `vol`, of its type (or `unified`, usable by l_ssd and b_ssd volumes, when
    asked); both are `snapshotting` for a while."""
    refuse_transient("instance_volume", vol)
    if vol["volume_type"] == "sbs_volume":
        raise invalid_request("snapshots of sbs_volume volumes are made with the Block Storage API")
    if volume_type not in (None, vol["volume_type"], "unified"):
        raise invalid_arguments(
            (
                "volume_type",
                "constraint",
                f"a snapshot of a {vol['volume_type']} volume is {vol['volume_type']} or unified",
            )
        )
    snap = store.new_snapshot(
        zone,
        name,
        volume_type or vol["volume_type"],
        vol["size"],
        "snapshotting",
        base_volume={"id": vol["id"], "name": vol["name"]},
        tags=tags,
    )
    vol["state"] = "snapshotting"
    store.volume_changed(zone, vol)
    store.object_steps.plan(snap, (store.timings.snapshot, {"state": "available"}))
    store.volume_ready_later(vol, store.timings.snapshot)
    return snap


def refuse_transient(resource: str, obj: dict[str, Any], states: tuple[str, ...] = ("available",)) -> None:
    if obj.get("state") not in states:
        raise transient_state(resource, obj["id"], obj.get("state"))
