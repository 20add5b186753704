"""Instance flexible IPs, security groups and placement groups, as listed and acted on.
Forms and flows: `network_forms`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..kit.base import ActionSpec, Call, Child, Column, Lazy, Parent
from ..kit.declared import Field
from ..kit.kind_options import Deleting, Refuses, Rows, Writing
from ..kit.pick_call import PickCall
from ..kit.set_editor import SetEditor
from ..kit.shapes import ShowAnswer
from .common import ID, SERVER, TONES, detail_common, instance_kind

if TYPE_CHECKING:
    from ..kit.base import Row
    from ..kit.flows import FlowUI
    from ..kit.models import Resource

F = "tui.products.instance.network_forms:"


def _opts(*values: str) -> list[tuple[str, str]]:
    return [(v, v) for v in values]


RULE_CHOICES = {
    "direction": _opts("inbound", "outbound"),
    "action": _opts("accept", "drop"),
    "protocol": _opts("TCP", "UDP", "ICMP", "ANY"),
}


def _ports(r: dict[str, Any]) -> str:
    lo, hi = r.get("dest_port_from"), r.get("dest_port_to")
    if lo is None or lo == 0 and r.get("protocol") in ("ICMP", "ANY"):
        return "all"
    return f"{lo}-{hi}" if hi not in (None, lo) else str(lo)


RULE_COLUMNS = (
    Column("direction", "Direction", lambda r: str(r.get("direction")), width=9),
    Column("action", "Action", lambda r: str(r.get("action")), width=6),
    Column("protocol", "Proto", lambda r: str(r.get("protocol")), width=5),
    Column("ip_range", "IP range", lambda r: str(r.get("ip_range")), width=20),
    Column("ports", "Ports", _ports, width=11),
)


def _rules_note(sg: Row) -> str:
    return (
        f"{'Stateful' if sg.get('stateful') else 'Stateless: return traffic needs its own accept rules'} · "
        f"inbound default {sg.text('inbound_default_policy')} · "
        f"outbound default {sg.text('outbound_default_policy')}. "
        "Rules apply top to bottom."
    )


async def attach_ip_warning(ui: FlowUI, ip: Row, server: Row) -> str:
    """What attaching does (spec 1 §2.4): the server's previous public IP is removed and its public
    connections cut, unless it is on the routed stack and already has a flexible IP; a moved IP's
    current server loses the connections through it. Read from the server as it is now."""
    full = (await ui.service().call("GET", ui.scope, "servers", server.id)).get("server") or {}
    public = [p for p in full.get("public_ips") or [] if isinstance(p, dict)]
    keeps = bool(full.get("routed_ip_enabled")) and any(p.get("dynamic") is False for p in public)
    current = ", ".join(str(p.get("address")) for p in public if p.get("address"))
    owner = ip.obj("server")
    if keeps:
        said = f"{ip.text('address')} is added to the public IPs of {server.name}; it keeps {current}."
    elif current:
        said = (
            f"{ip.text('address')} becomes the public IP of {server.name}.\n"
            f"Its current public IP {current} is removed and its open public connections are cut."
        )
    else:
        said = f"{ip.text('address')} becomes the public IP of {server.name}."
    if owner.get("id"):
        said += f"\nIt moves from {owner.get('name') or owner.get('id')}: that server loses the connections through it."
    return said


RULE_FIELDS = ("direction", "action", "protocol", "ip_range", "dest_port_from", "dest_port_to")


def _default_rules(data: dict[str, Any]) -> str:
    rules = [r for r in data.get("rules") or [] if isinstance(r, dict)]
    lines = [
        f"{r.get('position')}. {r.get('direction')} {r.get('action')} {r.get('protocol')} {r.get('ip_range')} "
        f"port {_ports(r)}"
        for r in rules
    ]
    return "Applied before every group's rules; they cannot be edited.\n\n" + ("\n".join(lines) or "none")


def _if_default(group: Row) -> str:
    """`yes` for the project's default security group, nothing for the others."""
    return "yes" if group.get("project_default") else ""


def _server_names(group: Row | Resource) -> str:
    return ", ".join(str(x.get("name")) for x in group.raw.get("servers") or []) or "none"


def _respected(group: Row) -> str:
    """A placement policy not respected stands out."""
    return "yes" if group.get("policy_respected") else "✖ no"


IPS = instance_kind(
    id="instance.ips",
    singular="flexible IP",
    writing=Writing(
        deleting=Deleting(
            warning=lambda r: (
                f"{r.obj('server').get('name') or r.obj('server').get('id')} loses its public address "
                f"{r.text('address')}"
                if r.obj("server")
                else None
            )
        ),
    ),
    fields=(
        ID,
        Field("address", "Address", ("name", "ip"), width=24),
        Field("type", "Type", width=11),
        Field("state", "State", "state", width=12, tones=TONES),
        SERVER,
        Field("reverse", "Reverse DNS", width=24, head="Reverse", blank="—"),
        *detail_common(tags=12),
    ),
    columns=("address", "type", "state", "server", "reverse", "zone", "tags"),
    rows=Rows(
        row_fields=("id", "address", "type", "state", "server", "reverse", "zone", "tags", "project"),
        summarize=lambda d: {"name": d.get("address") or ""},
    ),
    transitional=frozenset({"pending"}),
    actions=(
        ActionSpec(
            "attach",
            "Attach to a server…",
            shape=PickCall(
                "Attach {address} to",
                Lazy(F + "ip_servers"),
                Call("PATCH", "{id}"),
                "server",
                done="{address} attached to {picked}",
                value=lambda server: server.id,
                confirm=attach_ip_warning,
                confirm_title="Attach {address} to {picked}?",
                confirm_label="Attach",
            ),
        ),
        ActionSpec(
            "detach",
            "Detach from its server",
            lambda r: bool(r.get("server")),
            call=Call("PATCH", "{id}", {"server": None}),
            confirm=Lazy(F + "detach_ip_message"),
        ),
    ),
    create=Lazy(F + "IP_CREATE"),
    edit=Lazy(F + "IP_EDIT"),
)

def _rule_name(data: dict[str, Any]) -> dict[str, Any]:
    """A rule has no name: it is called by what it does ("inbound accept TCP 22 from 0.0.0.0/0")."""
    ports = "-".join(str(p) for p in (data.get("dest_port_from"), data.get("dest_port_to")) if p is not None)
    words = (data.get("direction"), data.get("action"), data.get("protocol"), ports, "from", data.get("ip_range"))
    return {"name": " ".join(str(w) for w in words if w)}


# A security group's rules as a list of its own (read-only here: the group's "Rules" action edits them as a
# whole, PUT): what the index reads under each group, for the advisor's open doors.
SG_RULES = instance_kind(
    id="instance.security_group_rules",
    singular="rule",
    title="Rules",
    list_key="rules",
    parent=Parent("instance.security_groups", list_path="security_groups/{parent}/rules"),
    fields=(
        ID,
        Field("name", "Rule", "name", width=40, detail=False),  # made by `_rule_name`
        Field("position", "Position", "count", width=3, head="#", key="position"),
        Field("direction", "Direction", width=9),
        Field("action", "Action", width=7),
        Field("protocol", "Protocol", width=8, head="Proto"),
        Field("ip_range", "IP range", "ip", width=20, key="range"),
        Field("dest_port_from", "Port from", "count", width=6, key="from", blank="any"),
        Field("dest_port_to", "Port to", "count", width=6, key="to", blank=""),
    ),
    columns=("position", "direction", "action", "protocol", "range", "from", "to"),
    rows=Rows(summarize=_rule_name),
)


SECURITY_GROUPS = instance_kind(
    id="instance.security_groups",
    singular="security group",
    writing=Writing(
        refuses=Refuses(
            delete=lambda r: (
                "it is the project's default group"
                if r.get("project_default")
                else (
                    f"{len(r.items('servers'))} server(s) use it: move them to another group first"
                    if r.items("servers")
                    else None
                )
            )
        ),
    ),
    fields=(
        ID,
        Field("name", "Name", "name", width=24),
        Field("description", "Description"),
        Field("stateful", "Stateful", "flag", width=8, blank="no"),
        Field("inbound_default_policy", "Inbound default", width=7, head="Inbound", key="inbound"),
        Field("outbound_default_policy", "Outbound default", width=8, head="Outbound", key="outbound"),
        Field(
            "project_default",
            "Project default",
            "flag",
            width=7,
            head="Default",
            key="default",
            show=_if_default,
            detail=False,
        ),
        Field("project_default", "Project default", "flag"),
        Field("servers", "Servers", "count", width=7, blank="0", detail=False),
        Field("servers.id", "Servers", "ref", ref="instance.servers", show=_server_names),
        *detail_common(),
    ),
    columns=("name", "stateful", "inbound", "outbound", "servers", "default", "zone"),
    rows=Rows(
        row_fields=(
            "id",
            "name",
            "description",
            "stateful",
            "inbound_default_policy",
            "outbound_default_policy",
            "servers",
            "project_default",
            "state",
            "zone",
            "tags",
            "enable_default_security",
        )
    ),
    transitional=frozenset({"syncing"}),
    children=(Child("Rules", "tui.products.instance.network:SG_RULES"),),
    actions=(
        ActionSpec(
            "rules",
            "Rules…",
            shape=SetEditor(
                "Rules of {name}",
                Lazy(F + "RuleForm"),
                RULE_COLUMNS,
                Call("PUT", "{id}/rules"),
                "rules",
                RULE_FIELDS,
                "rule",
                read=Call("GET", "{id}/rules", mutating=False),
                keep=lambda r: r.get("editable", True),
                ordered=True,
                numbered="position",
                choices=RULE_CHOICES,
                describe=_rules_note,
                unique=RULE_FIELDS,
            ),
        ),
        ActionSpec(
            "default_rules",
            "Platform default rules",
            mutating=False,
            shape=ShowAnswer(
                "Platform default rules", Call("GET", "security_groups/default/rules", mutating=False), _default_rules
            ),
        ),
    ),
    create=Lazy(F + "SG_CREATE"),
    edit=Lazy(F + "SG_EDIT"),
)

PLACEMENT_GROUPS = instance_kind(
    id="instance.placement_groups",
    singular="placement group",
    fields=(
        ID,
        Field("name", "Name", "name", width=24),
        Field("policy_type", "Policy type", width=16, head="Policy"),
        Field("policy_mode", "Policy mode", width=8, head="Mode"),
        Field(
            "policy_respected",
            "Policy respected",
            "flag",
            width=9,
            head="Respected",
            key="respected",
            show=_respected,
            detail=False,
        ),
        Field("policy_respected", "Policy respected", "flag"),
        *detail_common(tags=14),
    ),
    columns=("name", "policy_type", "policy_mode", "respected", "zone", "tags"),
    rows=Rows(row_fields=("id", "name", "policy_type", "policy_mode", "policy_respected", "zone", "tags")),
    actions=(ActionSpec("members", "Member servers…", flow=Lazy(F + "members_flow")),),
    create=Lazy(F + "PG_CREATE"),
    edit=Lazy(F + "PG_EDIT"),
)
