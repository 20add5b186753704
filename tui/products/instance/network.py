"""Instance flexible IPs, security groups and placement groups, as listed and acted on.
Forms and flows: `network_forms`."""

from __future__ import annotations

from typing import Any

from ..base import ActionSpec, Call, Column, Lazy
from ..shapes import PickCall, SetEditor, ShowAnswer
from .common import DELETE_BY_ID, detail_common, instance_kind, name_col, raw, server_col, state_col, tags_col, zone_col

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


def _rules_note(sg: Any) -> str:
    return (f"{'Stateful' if sg.get('stateful') else 'Stateless: return traffic needs its own accept rules'} · "
            f"inbound default {sg.text('inbound_default_policy')} · outbound default {sg.text('outbound_default_policy')}. "
            "Rules apply top to bottom.")


async def attach_ip_warning(ui: Any, ip: Any, server: Any) -> str:
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
        said = f"{ip.text('address')} becomes the public IP of {server.name}.\nIts current public IP {current} is removed and its open public connections are cut."
    else:
        said = f"{ip.text('address')} becomes the public IP of {server.name}."
    if owner.get("id"):
        said += f"\nIt moves from {owner.get('name') or owner.get('id')}: that server loses the connections through it."
    return said


RULE_FIELDS = ("direction", "action", "protocol", "ip_range", "dest_port_from", "dest_port_to")


def _default_rules(data: dict[str, Any]) -> str:
    rules = [r for r in data.get("rules") or [] if isinstance(r, dict)]
    lines = [f"{r.get('position')}. {r.get('direction')} {r.get('action')} {r.get('protocol')} {r.get('ip_range')} port {_ports(r)}" for r in rules]
    return "Applied before every group's rules; they cannot be edited.\n\n" + ("\n".join(lines) or "none")

IPS = instance_kind(
    id="instance.ips",
    title="Flexible IPs",
    singular="flexible IP",
    delete=DELETE_BY_ID,
    name_param="name",
    collection="ips",
    list_key="ips",
    item_key="ip",
    columns=(
        Column("address", "Address", lambda r: r.text("address"), width=24),
        Column("type", "Type", lambda r: r.text("type"), width=11),
        state_col(12),
        server_col(18),
        Column("reverse", "Reverse", lambda r: r.text("reverse") or "—", width=24),
        zone_col(),
        tags_col(12),
    ),
    delete_warning=lambda r: f"{r.obj('server').get('name') or r.obj('server').get('id')} loses its public address {r.text('address')}" if r.obj("server") else None,
    row_fields=("id", "address", "type", "state", "server", "reverse", "zone", "tags", "project"),
    summarize=lambda d: {"name": d.get("address") or ""},
    detail_fields=(
        ("ID", raw("id")),
        ("Address", raw("address")),
        ("Type", raw("type")),
        ("State", raw("state")),
        ("Server", raw("server", "not attached")),
        ("Reverse DNS", raw("reverse")),
        *detail_common(),
    ),
    transitional=frozenset({"pending"}),
    actions=(
        ActionSpec("attach", "Attach to a server…", lambda r: True, shape=PickCall(
            "Attach {address} to", Lazy(F + "ip_servers"), Call("PATCH", "{id}"), "server", done="{address} attached to {picked}",
            value=lambda server: server.id, confirm=attach_ip_warning,
            confirm_title="Attach {address} to {picked}?", confirm_label="Attach")),
        ActionSpec("detach", "Detach from its server", lambda r: bool(r.get("server")), call=Call("PATCH", "{id}", {"server": None}),
                   confirm=Lazy(F + "detach_ip_message")),
    ),
    create=Lazy(F + "IP_CREATE"),
    edit=Lazy(F + "IP_EDIT"),
)

SECURITY_GROUPS = instance_kind(
    id="instance.security_groups",
    title="Security groups",
    singular="security group",
    nav="Sec. groups",
    delete=DELETE_BY_ID,
    name_param="name",
    collection="security_groups",
    list_key="security_groups",
    item_key="security_group",
    columns=(
        name_col(24),
        Column("stateful", "Stateful", lambda r: "yes" if r.get("stateful") else "no", width=8),
        Column("inbound", "Inbound", lambda r: r.text("inbound_default_policy"), width=7),
        Column("outbound", "Outbound", lambda r: r.text("outbound_default_policy"), width=8),
        Column("servers", "Servers", lambda r: str(len(r.items("servers"))), width=7, sort_key=lambda r: len(r.items("servers"))),
        Column("default", "Default", lambda r: "yes" if r.get("project_default") else "", width=7),
        zone_col(),
    ),
    row_fields=("id", "name", "description", "stateful", "inbound_default_policy", "outbound_default_policy", "servers",
                "project_default", "state", "zone", "tags", "enable_default_security"),
    detail_fields=(
        ("ID", raw("id")),
        ("Name", raw("name")),
        ("Description", raw("description")),
        ("Stateful", raw("stateful")),
        ("Inbound default", raw("inbound_default_policy")),
        ("Outbound default", raw("outbound_default_policy")),
        ("Project default", raw("project_default")),
        ("Servers", lambda s: ", ".join(str(x.get("name")) for x in s.raw.get("servers") or []) or "none"),
        *detail_common(),
    ),
    transitional=frozenset({"syncing"}),
    actions=(
        ActionSpec("rules", "Rules…", lambda r: True, shape=SetEditor(
            "Rules of {name}", Lazy(F + "RuleForm"), RULE_COLUMNS, Call("PUT", "{id}/rules"), "rules", RULE_FIELDS, "rule",
            read=Call("GET", "{id}/rules", mutating=False), keep=lambda r: r.get("editable", True), ordered=True, numbered="position",
            choices=RULE_CHOICES, describe=_rules_note, unique=RULE_FIELDS)),
        ActionSpec("default_rules", "Platform default rules", lambda r: True, mutating=False,
                   shape=ShowAnswer("Platform default rules", Call("GET", "security_groups/default/rules", mutating=False), _default_rules)),
    ),
    create=Lazy(F + "SG_CREATE"),
    edit=Lazy(F + "SG_EDIT"),
    deletable=lambda r: "it is the project's default group" if r.get("project_default") else (
        f"{len(r.items('servers'))} server(s) use it: move them to another group first" if r.items("servers") else None),
)

PLACEMENT_GROUPS = instance_kind(
    id="instance.placement_groups",
    title="Placement groups",
    singular="placement group",
    nav="Placement",
    delete=DELETE_BY_ID,
    name_param="name",
    collection="placement_groups",
    list_key="placement_groups",
    item_key="placement_group",
    columns=(
        name_col(24),
        Column("policy_type", "Policy", lambda r: r.text("policy_type"), width=16),
        Column("policy_mode", "Mode", lambda r: r.text("policy_mode"), width=8),
        Column("respected", "Respected", lambda r: "yes" if r.get("policy_respected") else "✖ no", width=9),
        zone_col(),
        tags_col(14),
    ),
    row_fields=("id", "name", "policy_type", "policy_mode", "policy_respected", "zone", "tags"),
    detail_fields=(
        ("ID", raw("id")),
        ("Name", raw("name")),
        ("Policy type", raw("policy_type")),
        ("Policy mode", raw("policy_mode")),
        ("Policy respected", raw("policy_respected")),
        *detail_common(),
    ),
    actions=(ActionSpec("members", "Member servers…", lambda r: True, flow=Lazy(F + "members_flow")),),
    create=Lazy(F + "PG_CREATE"),
    edit=Lazy(F + "PG_EDIT"),
)
