"""Instance product: servers (virtual machines) as listed, shown and acted on.

This module holds what the list needs (columns, row fields, actions, states) and nothing that
imports pydantic; the full model and the forms live in `server_forms`, loaded on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from rich.text import Text

from ..kit.base import ActionSpec, Call, Child, Lazy, Probe, ResourceKind
from ..kit.columns import named
from ..kit.declared import Field
from ..kit.format import human_bytes, state_text
from ..kit.kind_options import Cost, Deleting, Item, Order, Reading, Refuses, Rows, Writing
from ..kit.pick_call import PickCall
from ..kit.shapes import FormCall
from ..kit.ssh_command import ssh_action
from .common import ID, action_call, instance_kind

if TYPE_CHECKING:
    from ..kit.base import Row
    from .server_forms import Server


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


def _volumes_summary(s: Server) -> str:
    parts = []
    for key in sorted(s.volumes, key=lambda k: int(k) if k.isdigit() else 999):
        v = s.volumes[key]
        parts.append(
            f"{key}: {v.get('name') or v.get('id', '')} {v.get('volume_type', '?')} {human_bytes(v.get('size'))}"
        )
    return "\n".join(parts) or "none"


def _state(s: Server) -> Text:
    """The state with its mark, and what it is doing when it says (`booting kernel`)."""
    return Text.assemble(state_text(s.state), f"  {s.state_detail}" if s.state_detail else "")


def _type(s: Server) -> str:
    return f"{s.commercial_type} ({s.arch})"


def _public_ips(s: Server) -> str:
    """Every public address; an object of the older shape names one (`public_ip`)."""
    return ", ".join(str(i.get("address")) for i in s.public_ips) or s.public_address or "none"


def _ipv6(s: Server) -> str:
    return "enabled" if s.enable_ipv6 else "disabled"


def _placement(s: Server) -> str:
    """The group, its policy and whether it is respected."""
    group = s.placement_group
    if not group:
        return named(group)
    respected = "respected" if group.get("policy_respected") else "NOT respected"
    return f"{named(group)}  {group.get('policy_type')}, {respected}"


def _nics(s: Server) -> str:
    return ", ".join(f"{n.get('private_network_id')} ({n.get('state')})" for n in s.private_nics) or "none"


def _allowed(action: str) -> Callable[[Row], bool]:
    return lambda row: action in row.items("allowed_actions")


FLOWS = "tui.products.instance.server_flows:"


PARTS_BUSY = frozenset(
    {"syncing", "attaching", "detaching", "hotsyncing", "resizing", "snapshotting", "fetching", "saving", "pending"}
)


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


def _protected(row: Row) -> str | None:
    return "it is protected: turn protection off first (e)" if row.get("protected") else None


def _until(row: Row, then: str) -> str:
    """Why a change waits on the server's state, and what to do: a locked server waits for the platform."""
    if row.state == "locked":
        return "it is locked by the platform: nothing changes it until it is unlocked (ask support)"
    return f"it is {row.state}: {then}"


def _stopped(row: Row) -> bool:
    return row.state == "stopped"


def _power(name: str, label: str, moves_to: set[str], confirm: bool = True, if_lost: str = "") -> ActionSpec:
    """A power action: allowed where the server's state says (spec 1), sent to its action endpoint,
    with the states it puts a server in at once (seen after a lost answer, it was applied); `if_lost`:
    what to say when its state cannot tell (a reboot ends where it began)."""
    return ActionSpec(
        name,
        label,
        _allowed(name),
        confirm=confirm,
        call=action_call(name),
        moves_to=frozenset(moves_to),
        if_lost=if_lost,
    )


SERVER_ACTIONS = (
    _power("poweron", "Power on", {"starting", "running"}, confirm=False),
    _power("poweroff", "Power off", {"stopping", "stopped"}),
    _power(  # a reboot ends running, as it began: seen running after a lost answer, it may have happened
        "reboot",
        "Reboot",
        {"stopping", "starting"},
        if_lost="a reboot ends where it began: check the server (its console, its uptime) before rebooting it again",
    ),
    _power("stop_in_place", "Stop in place", {"stopping", "stopped in place"}),
    ActionSpec(
        "backup",
        "Back up (image of its volumes)…",
        _allowed("backup"),
        shape=FormCall(
            "Back up {name}",
            Lazy(FLOWS + "BackupForm"),
            action_call("backup"),
            done="Backup of {name} started: an image and its snapshots (Images view)",
            initial=lambda r: {"name": f"{r.name}-backup"},
            submit_label="Back up",
        ),
    ),
    ActionSpec("volumes", "Volumes: attach, detach, order…", flow=Lazy(FLOWS + "volumes_flow")),
    ActionSpec(
        "security_group",
        "Security group…",
        shape=PickCall(
            "Security group of {name}",
            Lazy(FLOWS + "security_groups"),
            Call("PATCH", "{id}"),
            "security_group.id",
            done="{name} is now in security group {picked}",
        ),
    ),
    ActionSpec(
        "placement_group",
        "Placement group…",
        shape=PickCall(
            "Placement group of {name}",
            Lazy(FLOWS + "placement_groups"),
            Call("PATCH", "{id}"),
            "placement_group",
            done="{name}: placement group {picked}",
            none="none",
        ),
    ),
    ActionSpec("user_data", "User data…", flow=Lazy(FLOWS + "user_data_flow")),
    ActionSpec(
        "change_type",
        "Change type…",
        _stopped,
        why_not=lambda r: None if _stopped(r) else _until(r, "power it off first (a type changes only while stopped)"),
        shape=PickCall(
            "{name}: {commercial_type} → compatible types",
            Lazy(FLOWS + "compatible_types"),
            Call("PATCH", "{id}"),
            "commercial_type",
            done="{name} is now {picked}",
        ),
    ),
    ActionSpec(
        "terminate",
        "Terminate (deletes the server)…",
        _allowed("terminate"),
        flow=Lazy(FLOWS + "terminate_flow"),
        why_not=lambda r: _protected(r),
    ),
    ssh_action(lambda: SERVERS),
)
SERVER_FIELDS = (
    ID,
    Field("name", "Name", "name", width=20),
    Field("state", "State", "state", width=18, detail=_state),
    Field(
        "commercial_type",
        "Type",
        "ref",
        ref="instance.types",
        named="commercial_type",
        width=13,
        key="type",
        detail=False,
    ),  # a type's name is its id
    Field("commercial_type", "Type", "ref", ref="instance.types", named="commercial_type", show=_type),
    Field("zone", "Zone", "place", width=8),
    Field("public_address", "Public IP", "ip", width=15, key="ip", detail=False),  # made by `summarize`
    Field("image.id", "Image", "ref", ref="instance.images", named="image.name"),
    Field("public_ips.address", "Public IPs", "ip", show=_public_ips),
    Field("private_ip", "Private IP", "ip"),
    Field("enable_ipv6", "IPv6", "flag", show=_ipv6),
    Field("volumes.*.id", "Volumes", "ref", ref="instance.volumes", show=_volumes_summary),
    Field("security_group.id", "Security group", "ref", ref="instance.security_groups", named="security_group.name"),
    Field(
        "placement_group.id",
        "Placement group",
        "ref",
        ref="instance.placement_groups",
        named="placement_group.name",
        show=_placement,
    ),
    Field("private_nics.private_network_id", "Private NICs", "id", show=_nics),  # no kind here lists private networks
    Field("hostname", "Hostname"),
    Field("tags", "Tags", "tags", width=18),
    Field("protected", "Protected", "flag", empty="no"),
    Field("creation_date", "Created", "time", width=10, key="created"),
    Field("modification_date", "Modified", "time"),
    Field("project", "Project", "id"),
    Field("allowed_actions", "Allowed actions"),
)
SERVER_ROW_FIELDS = (
    "id",
    "name",
    "state",
    "state_detail",
    "commercial_type",
    "zone",
    "creation_date",
    "modification_date",
    "tags",
    "allowed_actions",
    "protected",
    "project",
)


# ---- the create form ----------------------------------------------------------------------------
SERVERS: ResourceKind = instance_kind(
    id="instance.servers",
    singular="server",
    writing=Writing(
        refuses=Refuses(
            delete=lambda r: (
                _protected(r) or (None if r.state == "stopped" else _until(r, "power it off first, or terminate it"))
            )
        ),
        deleting=Deleting(flow=Lazy(FLOWS + "delete_flow")),
    ),
    reading=Reading(  # the API's own order (creation_date_desc): one created here goes where a listing puts it
        order=Order(newest_first=True),
        probe=Probe("order", "modification_date_desc", "modification_date"),
        item=Item(model=Lazy("tui.products.instance.server_forms:Server")),
    ),
    fields=SERVER_FIELDS,
    columns=("name", "state", "type", "zone", "ip", "created", "tags"),
    rows=Rows(
        row_fields=SERVER_ROW_FIELDS,
        summarize=lambda data: {"public_address": public_address(data)},
        moving=parts_moving,
        cost=Cost(
            "commercial_type",
            Lazy("tui.products.instance.types:TYPES"),
            "name",
            lambda t: t.raw.get("monthly_price"),
            "the Instance price list (GET /products/servers: monthly_price of its type), volumes and IPs not counted",
            idle=("stopped",),  # powered off: its compute may not be billed (the spec does not say)
        ),
    ),
    transitional=frozenset({"starting", "stopping"}),
    actions=SERVER_ACTIONS,
    children=(Child("Private NICs", "tui.products.instance.nics:PRIVATE_NICS"),),
    create=Lazy("tui.products.instance.server_forms:CREATE"),
    edit=Lazy("tui.products.instance.server_forms:EDIT"),
)
