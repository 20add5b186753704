"""Forms and flows for flexible IPs, security groups (with the rule editor) and placement groups
(pydantic; loaded on first use)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ValidationInfo, field_validator, model_validator

from ..kit.base import Column, Context, CreateSpec, EditSpec, Row
from ..kit.fields import network, sends
from ..kit.vocabulary import Form, label
from .fields import Name, Tags

if TYPE_CHECKING:
    from ..kit.base import OptionsLoader
    from ..kit.flows import FlowUI
    from ..kit.service import ResourceService

HOST_RE = re.compile(r"^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}\.?$")


def _opts(*values: str) -> list[tuple[str, str]]:
    return [(v, v) for v in values]


def static(choices: dict[str, list[tuple[str, str]]]) -> OptionsLoader:
    async def load(service: ResourceService, scope: str) -> tuple[dict[str, Any], dict[str, Any]]:
        return choices, {}

    return load


# ---- flexible IPs -------------------------------------------------------------------------------
class IpCreateForm(Form):
    type: Annotated[str, label("Type", widget="select")] = "routed_ipv4"
    tags: Tags = []


class IpEditForm(Form):
    reverse: Annotated[str, label("Reverse DNS", placeholder="web.example.com (empty: none)")] = ""
    tags: Tags = []

    @field_validator("reverse")
    @classmethod
    def _reverse(cls, v: str) -> str:
        if v and not HOST_RE.match(v):
            raise ValueError("a fully qualified domain name, such as web.example.com")
        return v


def ip_values(row: Row) -> dict[str, Any]:
    return {"reverse": row.text("reverse"), "tags": [str(t) for t in row.items("tags")]}


def ip_patch(form: BaseModel, row: Row) -> dict[str, Any]:
    assert isinstance(form, IpEditForm)
    out: dict[str, Any] = {}
    if form.reverse != row.text("reverse"):
        out["reverse"] = form.reverse or None
    if form.tags != row.items("tags"):
        out["tags"] = form.tags
    return out


IP_CREATE = CreateSpec(
    IpCreateForm,
    sends("type", "tags", project="project"),
    static({"type": [("routed_ipv4 (IPv4)", "routed_ipv4"), ("routed_ipv6 (IPv6)", "routed_ipv6")]}),
)
IP_EDIT = EditSpec(IpEditForm, ip_values, ip_patch)


async def ip_servers(ui: FlowUI, ip: Row) -> tuple[list[tuple[str, Any]], Any]:
    """The servers an IP may move to (its own left out)."""
    from .servers import SERVERS

    current = ip.obj("server").get("id")
    servers = sorted(await ui.service(SERVERS).list_rows(ui.scope), key=lambda s: s.name)
    return [
        (f"{s.name} · {s.state} · {s.text('public_address') or 'no public IP'}", s) for s in servers if s.id != current
    ], None


async def detach_ip_message(service: ResourceService, scope: str, ip: Row) -> str:
    server = ip.obj("server")
    return (
        f"{server.get('name') or server.get('id') or 'Its server'} loses this public IP and its connections through it."
    )


# ---- security groups ----------------------------------------------------------------------------
Policy = Literal["accept", "drop"]


class SecurityGroupForm(Form):
    name: Name
    description: Annotated[str, label("Description", max_length=255)] = ""
    stateful: Annotated[bool, label("Stateful (return traffic allowed)")] = True
    inbound_default_policy: Annotated[Policy, label("Inbound default", widget="select")] = "accept"
    outbound_default_policy: Annotated[Policy, label("Outbound default", widget="select")] = "accept"
    project_default: Annotated[bool, label("Project default")] = False
    tags: Tags = []


POLICIES = {"inbound_default_policy": _opts("accept", "drop"), "outbound_default_policy": _opts("accept", "drop")}


def sg_payload(form: BaseModel, c: Context) -> dict[str, Any]:
    return {**form.model_dump(), "project": c.project_id}


def sg_values(row: Row) -> dict[str, Any]:
    keys = ("name", "description", "stateful", "inbound_default_policy", "outbound_default_policy", "project_default")
    return {
        **{k: row.get(k) for k in keys},
        "description": row.text("description"),
        "tags": [str(t) for t in row.items("tags")],
    }


SG_CREATE = CreateSpec(SecurityGroupForm, sg_payload, static(POLICIES))
SG_EDIT = EditSpec(SecurityGroupForm, sg_values, options=static(POLICIES))


class RuleForm(Form):
    """One rule of a security group; ports apply to TCP and UDP only."""

    direction: Annotated[Literal["inbound", "outbound"], label("Direction", widget="select")] = "inbound"
    action: Annotated[Literal["accept", "drop"], label("Action", widget="select")] = "accept"
    protocol: Annotated[Literal["TCP", "UDP", "ICMP", "ANY"], label("Protocol", widget="select")] = "TCP"
    ip_range: Annotated[str, label("IP range", min_length=1, placeholder="e.g. 0.0.0.0/0")]
    dest_port_from: Annotated[int | None, label("Port (from)", placeholder="e.g. 22")] = None
    dest_port_to: Annotated[int | None, label("Port (to)", placeholder="empty: one port")] = None

    @field_validator("ip_range")
    @classmethod
    def _range(cls, v: str) -> str:
        return network(v, "10.0.0.0/8 or 203.0.113.7/32")

    @model_validator(mode="before")
    @classmethod
    def _no_port(cls, data: object) -> object:
        """A port of 0 on an ICMP or ANY rule is how the platform says "no port"."""
        if isinstance(data, dict) and data.get("protocol") in ("ICMP", "ANY"):
            data = {**data, **{f: None for f in ("dest_port_from", "dest_port_to") if data.get(f) in (0, "0")}}
        return data

    @field_validator("dest_port_from", "dest_port_to")
    @classmethod
    def _port(cls, v: int | None, info: ValidationInfo) -> int | None:
        if v is None:
            return v
        if not 1 <= v <= 65535:
            raise ValueError("between 1 and 65535")
        if info.data.get("protocol") in ("ICMP", "ANY"):
            raise ValueError("ports apply to TCP and UDP only")
        if info.field_name == "dest_port_to":
            if "dest_port_from" not in info.data:  # the first port is wrong: its own error says how
                return v
            lo = info.data["dest_port_from"]
            if lo is None:
                raise ValueError("give the first port too")
            if v < lo:
                raise ValueError("not below the first port")
            if v == lo:
                return None  # a range of one port is that port: the rule reads and compares as one
        return v


# ---- placement groups ---------------------------------------------------------------------------
class PlacementGroupForm(Form):
    name: Name
    policy_type: Annotated[Literal["max_availability", "low_latency"], label("Policy", widget="select")] = (
        "max_availability"
    )
    policy_mode: Annotated[Literal["optional", "enforced"], label("Mode", widget="select")] = "optional"
    tags: Tags = []


PG_CHOICES = {
    "policy_type": [
        ("max_availability: spread over distant hypervisors", "max_availability"),
        ("low_latency: on the same hypervisors", "low_latency"),
    ],
    "policy_mode": [
        ("optional: start even if the policy cannot hold", "optional"),
        ("enforced: start only if it holds", "enforced"),
    ],
}


def pg_payload(form: BaseModel, c: Context) -> dict[str, Any]:
    return {**form.model_dump(), "project": c.project_id}


def pg_values(row: Row) -> dict[str, Any]:
    return {
        "name": row.name,
        "policy_type": row.text("policy_type"),
        "policy_mode": row.text("policy_mode"),
        "tags": [str(t) for t in row.items("tags")],
    }


PG_CREATE = CreateSpec(PlacementGroupForm, pg_payload, static(PG_CHOICES))
PG_EDIT = EditSpec(PlacementGroupForm, pg_values, options=static(PG_CHOICES))


class MemberForm(Form):
    id: Annotated[str, label("Server", min_length=1, widget="select")]


async def members_flow(ui: FlowUI, pg: Row) -> None:
    from .servers import SERVERS

    members = (await ui.service().call("GET", ui.scope, "placement_groups", pg.id, "servers")).get("servers", [])
    servers = {s.id: s for s in await ui.service(SERVERS).list_rows(ui.scope)}
    names = {sid: s.name for sid, s in servers.items()}
    columns = (
        Column("name", "Server", lambda r: names.get(r.get("id"), str(r.get("id"))), width=24),
        Column("state", "State", lambda r: servers[r["id"]].state if r.get("id") in servers else "?", width=16),
    )
    choices = {"id": [(f"{s.name} · {s.state}", s.id) for s in sorted(servers.values(), key=lambda s: s.name)]}
    result: dict[str, Any] = {}

    async def save(edited: list[dict[str, Any]]) -> None:
        ids = list(dict.fromkeys(r["id"] for r in edited))
        result.update(
            await ui.service().call("PUT", ui.scope, "placement_groups", pg.id, "servers", body={"servers": ids})
        )

    edited = await ui.edit_records(
        f"Servers in {pg.name}",
        MemberForm,
        [{"id": m.get("id")} for m in members],
        columns,
        choices=choices,
        describe="An enforced group refuses more servers than its policy can hold; an optional one reports it.",
        save=save,
    )
    if edited is None:
        return
    ids = list(dict.fromkeys(r["id"] for r in edited))
    respected = all(s.get("policy_respected", True) for s in result.get("servers", []))
    ui.notify(
        f"{pg.name}: {len(ids)} server(s)" + ("" if respected else " · the policy is not respected"),
        "information" if respected else "warning",
    )
    ui.follow(pg)
