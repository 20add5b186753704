"""Instance product: servers (virtual machines) as listed, shown and acted on.

This module holds what the list needs (columns, row fields, actions, states) and nothing that
imports pydantic; the full model and the forms live in `server_forms`, loaded on first use.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from ..base import ActionSpec, Call, Child, Column, Lazy, Probe
from ..format import date_of, human_bytes, state_text
from ..shapes import FormCall, PickCall
from .common import DELETE_BY_ID, action_call, instance_kind, named
from .. import columns
from ..format import COMMON
from .common import name_col, tags_col, zone_col


def public_address(data: dict[str, Any]) -> str:
    """The server's main public address, from `public_ip` or else the first of `public_ips`."""
    ip = data.get("public_ip")
    if isinstance(ip, dict) and ip.get("address"):
        return str(ip["address"])
    ips = data.get("public_ips")
    for ip in ips if isinstance(ips, list) else []:
        if isinstance(ip, dict) and ip.get("address"):
            return str(ip["address"])
    return ""


def _volumes_summary(s: Any) -> str:
    parts = []
    for key in sorted(s.volumes, key=lambda k: int(k) if k.isdigit() else 999):
        v = s.volumes[key]
        parts.append(f"{key}: {v.get('name') or v.get('id', '')} {v.get('volume_type', '?')} {human_bytes(v.get('size'))}")
    return "\n".join(parts) or "none"


def _allowed(action: str) -> Any:
    return lambda row: action in row.items("allowed_actions")


FLOWS = "tui.products.instance.server_flows:"


PARTS_BUSY = frozenset({"syncing", "attaching", "detaching", "hotsyncing", "resizing", "snapshotting", "fetching", "saving", "pending"})


def parts_moving(data: dict[str, Any]) -> bool:
    """A private NIC or a volume of the server is between states (the server may be running).
    Runs for every listed server: plain loops, no intermediate lists."""
    nics = data.get("private_nics")
    if nics and nics.__class__ is list:
        for nic in nics:
            if nic.__class__ is dict and nic.get("state") in PARTS_BUSY:
                return True
    vols = data.get("volumes")
    if vols and vols.__class__ is dict:
        for vol in vols.values():
            if vol.__class__ is dict and vol.get("state") in PARTS_BUSY:
                return True
    return False


def _protected(row: Any) -> str | None:
    return "it is protected: turn protection off first (e)" if row.get("protected") else None


def _stopped(row: Any) -> bool:
    return row.state == "stopped"


SERVER_ACTIONS = (
    # The states each puts a server in at once (spec 4, transitions): seen after a lost answer, it was applied.
    ActionSpec("poweron", "Power on", _allowed("poweron"), call=action_call("poweron"),
               moves_to=frozenset({"starting", "running"})),
    ActionSpec("poweroff", "Power off", _allowed("poweroff"), confirm=True, call=action_call("poweroff"),
               moves_to=frozenset({"stopping", "stopped"})),
    ActionSpec("reboot", "Reboot", _allowed("reboot"), confirm=True, call=action_call("reboot"),
               moves_to=frozenset({"stopping", "starting"})),
    ActionSpec("stop_in_place", "Stop in place", _allowed("stop_in_place"), confirm=True,
               call=action_call("stop_in_place"), moves_to=frozenset({"stopping", "stopped in place"})),
    ActionSpec("backup", "Back up (image of its volumes)…", _allowed("backup"), shape=FormCall(
        "Back up {name}", Lazy(FLOWS + "BackupForm"), action_call("backup"), done="Backup of {name} started: an image and its snapshots (Images view)",
        initial=lambda r: {"name": f"{r.name}-backup"}, submit_label="Back up")),
    ActionSpec("volumes", "Volumes: attach, detach, order…", lambda r: True, flow=Lazy(FLOWS + "volumes_flow")),
    ActionSpec("security_group", "Security group…", lambda r: True, shape=PickCall(
        "Security group of {name}", Lazy(FLOWS + "security_groups"), Call("PATCH", "{id}"), "security_group.id", done="{name} is now in security group {picked}")),
    ActionSpec("placement_group", "Placement group…", lambda r: True, shape=PickCall(
        "Placement group of {name}", Lazy(FLOWS + "placement_groups"), Call("PATCH", "{id}"), "placement_group", done="{name}: placement group {picked}", none="none")),
    ActionSpec("user_data", "User data…", lambda r: True, flow=Lazy(FLOWS + "user_data_flow")),
    ActionSpec("change_type", "Change type…", _stopped, why_not=lambda r: None if _stopped(r) else f"it is {r.state}: power it off first (a type changes only while stopped)",
               shape=PickCall(
        "{name}: {commercial_type} → compatible types", Lazy(FLOWS + "compatible_types"), Call("PATCH", "{id}"), "commercial_type", done="{name} is now {picked}")),
    ActionSpec("terminate", "Terminate (deletes the server)…", _allowed("terminate"), flow=Lazy(FLOWS + "terminate_flow"), why_not=lambda r: _protected(r)),
)
SERVER_ROW_FIELDS = (
    "id", "name", "state", "state_detail", "commercial_type", "zone", "creation_date", "modification_date",
    "tags", "allowed_actions", "protected", "project",
)


# ---- the create form ----------------------------------------------------------------------------
SERVERS = instance_kind(
    id="instance.servers",
    title="Servers",
    singular="server",
    delete=DELETE_BY_ID,
    name_param="name",
    collection="servers",
    list_key="servers",
    item_key="server",
    newest_first=True,  # the API's own order (creation_date_desc): one created here goes where a listing puts it
    model=Lazy("tui.products.instance.server_forms:Server"),
    columns=(
        name_col(20),
        columns.state_col(COMMON, 18),
        Column("type", "Type", lambda r: r.text("commercial_type"), width=13),
        zone_col(),
        Column("ip", "Public IP", lambda r: r.text("public_address"), width=15),
        Column("created", "Created", lambda r: date_of(r.text("creation_date")), width=10, sort_key=lambda r: r.text("creation_date")),
        tags_col(18),
    ),
    row_fields=SERVER_ROW_FIELDS,
    summarize=lambda data: {"public_address": public_address(data)},
    probe=Probe("order", "modification_date_desc", "modification_date"),
    detail_fields=(
        ("ID", lambda s: s.id),
        ("Name", lambda s: s.name),
        ("State", lambda s: Text.assemble(state_text(s.state), f"  {s.state_detail}" if s.state_detail else "")),
        ("Type", lambda s: f"{s.commercial_type} ({s.arch})"),
        ("Zone", lambda s: s.zone),
        ("Image", lambda s: named(s.image)),
        ("Public IPs", lambda s: ", ".join(str(i.get("address")) for i in s.public_ips) or s.public_address or "none"),
        ("Private IP", lambda s: s.private_ip or "none"),
        ("IPv6", lambda s: "enabled" if s.enable_ipv6 else "disabled"),
        ("Volumes", _volumes_summary),
        ("Security group", lambda s: named(s.security_group)),
        ("Placement group", lambda s: named(s.placement_group) + ("" if not s.placement_group else
            f"  {s.placement_group.get('policy_type')}, {'respected' if s.placement_group.get('policy_respected') else 'NOT respected'}")),
        ("Private NICs", lambda s: ", ".join(f"{n.get('private_network_id')} ({n.get('state')})" for n in s.private_nics) or "none"),
        ("Hostname", lambda s: s.hostname),
        ("Tags", lambda s: ", ".join(s.tags) or "none"),
        ("Protected", lambda s: "yes" if s.protected else "no"),
        ("Created", lambda s: s.creation_date),
        ("Modified", lambda s: s.modification_date),
        ("Project", lambda s: s.project),
        ("Allowed actions", lambda s: ", ".join(s.allowed_actions) or "none"),
    ),
    transitional=frozenset({"starting", "stopping"}),
    moving=parts_moving,
    actions=SERVER_ACTIONS,
    children=(Child("Private NICs", "tui.products.instance.nics:PRIVATE_NICS"),),
    create=Lazy("tui.products.instance.server_forms:CREATE"),
    edit=Lazy("tui.products.instance.server_forms:EDIT"),
    deletable=lambda r: _protected(r) or (None if r.state == "stopped" else f"it is {r.state}: power it off first, or terminate it"),
    delete_flow=Lazy(FLOWS + "delete_flow"),
)

