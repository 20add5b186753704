"""The filters of the Instance listings, as the public clients send them: `organization`, `project`,
`tags` (all of them, comma-separated), `name` (a part of it, any case), and a listing's own ones;
booleans as `true`/`false` in any case (a Python client sends `True`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from ..errors import invalid_arguments

if TYPE_CHECKING:
    from .server_state import ServerState

Obj = dict[str, Any]


def query_bool(query: Mapping[str, str], name: str) -> bool | None:
    """The boolean parameter `name`, or None when absent; anything but true/false is refused."""
    raw = query.get(name)
    if raw is None or raw == "":
        return None
    if raw.lower() not in ("true", "false"):
        raise invalid_arguments((name, "format", f"{name} must be true or false"))
    return raw.lower() == "true"


def comma_list(query: Mapping[str, str], name: str) -> list[str]:
    return [part for part in (query.get(name) or "").split(",") if part]


def owned(items: list[Obj], query: Mapping[str, str], *, name_of: str = "name") -> list[Obj]:
    """The filters every Instance listing takes: organization, project, tags, and a part of the
    `name_of` field (an IP's address for IPs)."""
    for key in ("organization", "project"):
        if value := query.get(key):
            items = [o for o in items if o.get(key) == value]
    if wanted := comma_list(query, "tags"):
        items = [o for o in items if all(t in o.get("tags", []) for t in wanted)]
    if name := query.get("name"):
        items = [o for o in items if name.lower() in str(o.get(name_of) or "").lower()]
    return items


def public_addresses(store: ServerState, server: Obj) -> list[str]:
    zone = server["zone"]
    flexible = [store.ips[zone][i]["address"] for i in server["flexible_ips"] if i in store.ips[zone]]
    return flexible + [ip["address"] for ip in server["dynamic_ips"]]


def server_filters(store: ServerState, zone: str, items: list[Obj], query: Mapping[str, str]) -> list[Obj]:
    """ListServersRequest's filters beyond `owned`: state (`stopped_in_place` is `stopped in place`),
    commercial type, IPs (private, any, none public), private networks and NIC MAC addresses, ids."""
    items = owned(items, query)
    if state := query.get("state"):
        items = [s for s in items if s["state"] == state.replace("_", " ")]
    if ctype := query.get("commercial_type"):
        items = [s for s in items if s["commercial_type"] == ctype]
    if private_ip := query.get("private_ip"):
        items = [s for s in items if s.get("private_ip") == private_ip]
    if with_ip := query.get("with_ip"):
        items = [s for s in items if with_ip == s.get("private_ip") or with_ip in public_addresses(store, s)]
    without_ip = query_bool(query, "without_ip")
    if without_ip is not None:
        items = [s for s in items if bool(public_addresses(store, s)) != without_ip]
    nics = list(store.nics[zone].values())
    networks = comma_list(query, "private_networks") + comma_list(query, "private_network")
    if networks:
        on = {n["server_id"] for n in nics if n["private_network_id"] in networks}
        items = [s for s in items if s["id"] in on]
    if mac := query.get("private_nic_mac_address"):
        on = {n["server_id"] for n in nics if n["mac_address"].lower() == mac.lower()}
        items = [s for s in items if s["id"] in on]
    if ids := comma_list(query, "servers"):
        items = [s for s in items if s["id"] in ids]
    return items
