"""What the sandbox's server routes check and apply beyond a field's own rule: the types a server may
change to, the volumes a PATCH attaches, and the ids of keys, private NICs and public IPs a body names."""

from __future__ import annotations

from typing import Any

from .. import catalog
from ..core import is_uuid
from ..errors import invalid_arguments, invalid_request
from .ips import check_ip_ids
from .state import InstanceStore
from .validation import (
    Errors,
)


def compatible_types(store: InstanceStore, server: dict[str, Any]) -> list[str]:
    """Types the server can change to while stopped: same architecture, and room for its local volumes."""
    zone = server["zone"]
    local = sum(
        store.volumes[zone][r["id"]]["size"]
        for r in server["volumes"].values()
        if r["id"] in store.volumes[zone] and store.volumes[zone][r["id"]]["volume_type"] == "l_ssd"
    )
    out = []
    for name, t in store.types.items():
        if name == server["commercial_type"] or t["arch"] != server["arch"]:
            continue
        if local and (not catalog.supports_local(t) or t["volumes_constraint"]["max_size"] < local):
            continue
        out.append(name)
    return out


def apply_volumes(store: InstanceStore, zone: str, server: dict[str, Any], volumes: object) -> None:
    """PATCH volumes: the server's whole volume map. Volumes left out are detached; new ones attached.
    l_ssd volumes change only while the server is stopped; block volumes at any time, except the
    boot volume of a running server."""
    errs: Errors = []
    if not isinstance(volumes, dict) or list(volumes) != [str(i) for i in range(len(volumes))]:
        raise invalid_arguments(("volumes", "format", 'volumes must be an object keyed by "0", "1", … in order'))
    wanted: dict[str, dict[str, Any]] = {}
    for key, ref in volumes.items():
        vid = ref.get("id") if isinstance(ref, dict) else None
        if not is_uuid(vid):
            errs.append((f"volumes.{key}.id", "required", "each volume is given by its id"))
            continue
        vol = store.volumes[zone].get(vid)
        if vol is None:
            errs.append((f"volumes.{key}.id", "constraint", "no such volume in this zone"))
            continue
        if vol["server"] and vol["server"]["id"] != server["id"]:
            errs.append(
                (f"volumes.{key}.id", "constraint", f"volume {vol['name']} is attached to {vol['server']['name']}")
            )
            continue
        wanted[key] = vol
    if errs:
        raise invalid_arguments(*errs)
    current = {r["id"] for r in server["volumes"].values()}
    new_ids = {v["id"] for v in wanted.values()}
    changed = [store.volumes[zone][i] for i in current ^ new_ids if i in store.volumes[zone]]
    stopped = server["state"] == "stopped"
    for vol in changed:
        verb = "attach" if vol["id"] in new_ids else "detach"
        if vol["volume_type"] == "l_ssd" and not stopped:
            raise invalid_request(f"the server must be powered off to {verb} the l_ssd volume {vol['name']}")
        if vol["id"] in new_ids and vol["state"] != "available":
            raise invalid_request(f"volume {vol['name']} is {vol['state']}")
    boot = server["volumes"].get("0")
    if boot and not stopped and boot["id"] not in new_ids:
        raise invalid_request("the boot volume cannot be detached while the server is running")
    if wanted and not stopped and wanted.get("0", {}).get("id") != (boot or {}).get("id"):
        raise invalid_request("the boot volume can only change while the server is powered off")
    for vid in current - new_ids:
        vol = store.volumes[zone].get(vid)
        if vol is not None:
            vol["server"] = None
            store.stamp(vol)
    old_boot = {r["id"]: r["boot"] for r in server["volumes"].values()}
    server["volumes"] = {
        key: {"id": vol["id"], "boot": bool(volumes[key].get("boot", old_boot.get(vol["id"], key == "0")))}
        for key, vol in wanted.items()
    }
    for vol in wanted.values():
        if not vol["server"]:
            vol["server"] = {"id": server["id"], "name": server["name"]}
            store.stamp(vol)


def ref_id(value: object) -> Any:
    return value.get("id") if isinstance(value, dict) else value


def group_errors(groups: dict[str, Any], arg: str, group_id: object, what: str) -> Errors:
    """`group_id` (what `ref_id` found) names one of the zone's `groups`: anything but a string id
    (a list, an object) is refused by its format before it is looked up."""
    if group_id is not None and not isinstance(group_id, str):
        return [(arg, "format", f"{arg} is the ID of a {what}, or an object with its id")]
    if group_id not in groups:
        return [(arg, "constraint", f"no such {what} in this zone")]
    return []


def key_id_errors(body: dict[str, Any]) -> Errors:
    key_id = body.get("admin_password_encryption_ssh_key_id")
    if key_id is not None and not (key_id == "" or is_uuid(key_id)):
        return [("admin_password_encryption_ssh_key_id", "format", "an SSH key ID (UUID), or empty to unset")]
    return []


def nic_id_errors(store: InstanceStore, zone: str, server: dict[str, Any], ids: object) -> Errors:
    """UpdateServerRequest.private_nics: ids of the server's own private NICs. NICs are made and
    removed by their own calls: the list names them, it changes none."""
    if ids is None:
        return []
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        return [("private_nics", "format", "private_nics is a list of private NIC ids")]
    for i, nid in enumerate(ids):
        nic = store.nics[zone].get(nid)
        if nic is None or nic["server_id"] != server["id"]:
            return [(f"private_nics.{i}", "constraint", "no such private NIC on this server")]
    return []


def public_ip_ids(
    store: InstanceStore,
    zone: str,
    body: dict[str, Any],
    server_id: str | None = None,
) -> tuple[list[str], Errors]:
    """The flexible IPs asked by `public_ip` (one id) and `public_ips` (ids), checked."""
    ids: list[str] = []
    errs: Errors = []
    if body.get("public_ip") is not None:
        one = check_ip_ids(store, zone, [body["public_ip"]], "public_ip", server_id)
        errs += [("public_ip", reason, text) for _, reason, text in one]
        ids.append(body["public_ip"])
    if body.get("public_ips") is not None:
        errs += check_ip_ids(store, zone, body["public_ips"], "public_ips", server_id)
        ids += [i for i in body["public_ips"] if i not in ids] if isinstance(body["public_ips"], list) else []
    return ids, errs
