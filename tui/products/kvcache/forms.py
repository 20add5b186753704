"""Cache-cluster forms and flows (pydantic; loaded on first use): create per spec 2 §4.1 (cluster
size 1 or 3–6, one RFC 1918 address in CIDR notation per node on a private network), edit, migrate
(exactly one of version, node type, size), ACL rules, settings and the certificate."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import AfterValidator, BaseModel, Field, SecretStr, ValidationInfo, field_validator

from ..kit.base import Choices, Context, CreateSpec, EditSpec, Row
from ..kit.fields import (
    check_password,
    ctx,
    in_stock,
    meta,
    network,
    network_if,
    number_error,
    once_each,
    private_cidr,
    refused_by,
    sent,
)
from ..kit.vocabulary import Form, Password, Tags, label

if TYPE_CHECKING:
    from ..kit.flows import FlowUI
    from ..kit.service import ResourceService

SIZES = "1 (standalone), or 3 to 6 (cluster mode)"
STOCK = {"available": "in stock", "low_stock": "low stock", "out_of_stock": "OUT OF STOCK"}


def check_size(v: int) -> int:
    if not (v == 1 or 3 <= v <= 6):
        raise ValueError(SIZES)
    return v


def setting_error(spec: dict[str, Any] | None, value: str) -> str | None:
    if spec is None:
        return "not a setting of this version"
    kind = spec.get("type")
    if kind == "INT":
        return number_error(value, kind, spec.get("min_value"), spec.get("max_value"))
    if kind == "BOOLEAN" and value not in ("true", "false"):
        return "true or false"
    if kind == "STRING" and not 1 <= len(value) <= 255:
        return (
            f"1 to 255 characters (default {spec.get('default_value')})"
            if spec.get("default_value")
            else "1 to 255 characters"
        )
    return None


async def create_options(service: ResourceService, scope: str) -> tuple[Choices, dict[str, Any]]:
    versions = await service.read_all(
        scope, "cluster-versions", key="versions", params={"include_beta": "true", "include_deprecated": "true"}
    )
    types = await service.read_all(scope, "node-types", key="node_types")
    vchoices = []
    for v in sorted(versions, key=lambda v: str(v.get("version")), reverse=True):
        marks = [m for m, on in (("deprecated", v.get("deprecated")), ("beta", v.get("beta"))) if on]
        vchoices.append(
            (
                f"{v.get('version')}"
                + (f" · {', '.join(marks)}" if marks else "")
                + (f" · end of life {str(v.get('end_of_life_at'))[:10]}" if v.get("end_of_life_at") else ""),
                str(v.get("version")),
            )
        )
    tchoices = [
        (
            f"{t.get('name')} · {t.get('description', '')} · "
            f"{STOCK.get(str(t.get('stock_status')), t.get('stock_status'))}" + (" · beta" if t.get("beta") else ""),
            str(t.get("name")),
        )
        for t in types
        if t.get("name") and not t.get("disabled")
    ]
    return (
        {"version": vchoices, "node_type": tchoices, "network": [("public", "public"), ("private network", "private")]},
        {"versions": {str(v.get("version")): v for v in versions}, "types": {str(t.get("name")): t for t in types}},
    )


class CreateForm(Form):
    name: Annotated[str, label("Name", min_length=1, max_length=255, placeholder="e.g. carts")]
    version: Annotated[str, label("Version", min_length=1, widget="select")]
    node_type: Annotated[str, label("Node type", min_length=1, widget="select")]
    cluster_size: Annotated[
        int, Field(json_schema_extra=meta("Nodes", placeholder=SIZES)), AfterValidator(check_size)
    ] = 1
    user_name: Annotated[str, label("User", min_length=1, max_length=63, placeholder="e.g. app")]
    password: Password
    tls_enabled: Annotated[bool, label("TLS (the cluster gets a certificate to download)")] = True
    network: Annotated[str, label("Endpoint", widget="select")] = "public"
    private_network_id: Annotated[
        str,
        label("Network ID", validate_default=True, placeholder="the private network's UUID, for a private endpoint"),
    ] = ""
    service_ips: Annotated[
        list[str], label("Node addresses", validate_default=True, placeholder="one per node: 10.0.0.5/24, 10.0.0.6/24…")
    ] = []
    acl_rules: Annotated[
        list[str],
        label("Allowed networks", placeholder="10.0.0.0/8, 203.0.113.7/32 (empty: no rule, nobody can connect)"),
    ] = []
    settings: Annotated[list[str], label("Settings", placeholder="e.g. maxclients=20000, tcp-keepalive=60")] = []
    tags: Tags = []

    @field_validator("version")
    @classmethod
    def _version(cls, v: str, info: ValidationInfo) -> str:
        return refused_by(info, "versions", v, "deprecated", True, "is deprecated: choose a supported version")

    @field_validator("node_type")
    @classmethod
    def _node(cls, v: str, info: ValidationInfo) -> str:
        return in_stock(info, v)

    @field_validator("private_network_id")
    @classmethod
    def _pn(cls, v: str, info: ValidationInfo) -> str:
        why = "only a private-network endpoint takes one: choose Endpoint: private network"
        return network_if(info.data.get("network") == "private", v, why)

    @field_validator("service_ips")
    @classmethod
    def _ips(cls, v: list[str], info: ValidationInfo) -> list[str]:
        if info.data.get("network") != "private":
            if v:
                raise ValueError("only a private-network endpoint takes addresses")
            return []
        size = info.data.get("cluster_size") or 1
        ips = [private_cidr(i) for i in v]
        if len(ips) != size:
            raise ValueError(f"one address per node: {size} needed, {len(ips)} given")
        return once_each(ips)

    @field_validator("acl_rules")
    @classmethod
    def _acls(cls, v: list[str]) -> list[str]:
        out = []
        for rule in v:
            try:
                out.append(network(rule, "10.0.0.0/8"))
            except ValueError as err:
                raise ValueError(f"{rule.strip()}: {err}") from None
        return once_each(out)

    @field_validator("settings")
    @classmethod
    def _settings(cls, v: list[str], info: ValidationInfo) -> list[str]:
        version = (ctx(info, "versions") or {}).get(info.data.get("version"))
        specs = {s.get("name"): s for s in (version or {}).get("available_settings") or [] if isinstance(s, dict)}
        for item in v:
            name, eq, value = item.partition("=")
            if not eq:
                raise ValueError(f"{item!r}: write name=value")
            if version is not None:
                bad = setting_error(specs.get(name.strip()), value.strip())
                if bad:
                    raise ValueError(f"{name.strip()}: {bad}")
        return v


def create_payload(form: BaseModel, c: Context) -> dict[str, Any]:
    assert isinstance(form, CreateForm)
    names = ("name", "version", "node_type", "tags", "user_name", "password", "cluster_size", "tls_enabled")
    body = sent(form, *names, project_id=c.project_id) | {
        "acl_rules": [{"ip_cidr": r, "description": ""} for r in form.acl_rules],
        "cluster_settings": [
            {"name": s.partition("=")[0].strip(), "value": s.partition("=")[2].strip()} for s in form.settings
        ],
    }
    if form.network == "private":
        body["endpoints"] = [{"private_network": {"id": form.private_network_id, "service_ips": form.service_ips}}]
    else:
        body["endpoints"] = [{"public_network": {}}]
    return body


CREATE = CreateSpec(CreateForm, create_payload, create_options)


class EditForm(Form):
    name: Annotated[str, label("Name", min_length=1, max_length=255)]
    tags: Tags = []
    user_name: Annotated[str, label("User", min_length=1, max_length=63)]
    password: Annotated[SecretStr | None, label("New password", widget="password", placeholder="empty: unchanged")] = (
        None
    )

    @field_validator("password")
    @classmethod
    def _pw(cls, v: SecretStr | None) -> SecretStr | None:
        return check_password(v) if v is not None and v.get_secret_value() else None


EDIT = EditSpec(
    EditForm, lambda row: {"name": row.name, "tags": list(row.items("tags")), "user_name": row.text("user_name")}
)  # a new password: when typed


# ---- migrate: one field per request, by construction -------------------------------------------------
class VersionForm(Form):
    version: Annotated[str, label("Upgrade to", min_length=1, widget="select")]


class NodeTypeForm(Form):
    node_type: Annotated[str, label("Node type", min_length=1, widget="select")]

    @field_validator("node_type")
    @classmethod
    def _node(cls, v: str, info: ValidationInfo) -> str:
        if v == ctx(info, "current"):
            raise ValueError("that is the node type it has")
        return in_stock(info, v, why="is out of stock")


class SizeForm(Form):
    cluster_size: Annotated[int, label("Nodes", placeholder="3 to 6")]

    @field_validator("cluster_size")
    @classmethod
    def _size(cls, v: int, info: ValidationInfo) -> int:
        if not 3 <= v <= 6:
            raise ValueError("3 to 6 nodes in cluster mode")
        if v == ctx(info, "current"):
            raise ValueError("that is the size it has")
        return v


async def version_options(ui: FlowUI, cluster: Row) -> tuple[Choices, dict[str, Any]]:
    return {"version": [(str(v), str(v)) for v in cluster.items("upgradable_versions")]}, {}


async def node_type_options(ui: FlowUI, cluster: Row) -> tuple[Choices, dict[str, Any]]:
    choices, context = await create_options(ui.service(), ui.scope)
    current = cluster.get("node_type")
    marked = [(label + " (current)" if value == current else label, value) for label, value in choices["node_type"]]
    return {"node_type": marked}, {**context, "current": current}


def node_type_warning(form: NodeTypeForm, cluster: Row, context: dict[str, Any]) -> str | None:
    """Less memory is said before it is sent: what no longer fits is evicted, or the move fails."""
    types = context.get("types") or {}
    old, new = (
        (types.get(cluster.get("node_type")) or {}).get("memory"),
        (types.get(form.node_type) or {}).get("memory"),
    )
    if not isinstance(old, (int, float)) or not isinstance(new, (int, float)) or new >= old:
        return None
    sizes = f"{new / 2**30:g} GB against {old / 2**30:g} GB"
    lost = "keys that no longer fit are evicted by the cluster's eviction policy, or the migration fails."
    return f"{form.node_type} has less memory than {cluster.get('node_type')} ({sizes}): {lost}"


def version_warning(form: VersionForm, cluster: Row, context: dict[str, Any]) -> str:
    return (
        f"{cluster.name} moves from {cluster.get('version')} to {form.version}: this cannot be undone, and clients "
        "may be disconnected while it migrates."
    )


async def size_options(ui: FlowUI, cluster: Row) -> tuple[Choices, dict[str, Any]]:
    return {}, {"current": cluster.get("cluster_size") or 1}


# ---- ACL rules and settings: the records of the whole-set editors (`clusters`)
# ----------------------------------------------------
class AclRecord(Form):
    ip_cidr: Annotated[str, label("Network", min_length=1, placeholder="e.g. 10.0.0.0/8")]
    description: Annotated[str, label("Description", max_length=255)] = ""

    @field_validator("ip_cidr")
    @classmethod
    def _net(cls, v: str) -> str:
        return network(v, "10.0.0.0/8")


class SettingRecord(Form):
    name: Annotated[str, label("Setting", min_length=1, widget="select")]
    value: Annotated[str, label("Value", min_length=1, max_length=1024)]

    @field_validator("value")
    @classmethod
    def _value(cls, v: str, info: ValidationInfo) -> str:
        specs = ctx(info, "specs") or {}
        bad = setting_error(specs.get(info.data.get("name")), v.strip()) if specs else None
        if bad:
            raise ValueError(bad)
        return v.strip()


async def settings_options(ui: FlowUI, cluster: Row) -> tuple[Choices, dict[str, Any]]:
    """The settings the cluster's version offers (choices, and the specs the value rule reads)."""
    versions = await ui.service().read_all(
        ui.scope, "cluster-versions", key="versions", params={"include_beta": "true", "include_deprecated": "true"}
    )
    version: dict[str, Any] = next((v for v in versions if v.get("version") == cluster.get("version")), {})
    specs = {s["name"]: s for s in version.get("available_settings") or [] if isinstance(s, dict) and s.get("name")}
    choices = [
        (
            f"{n} · {s.get('type')}"
            + (f" {s.get('min_value')}–{s.get('max_value')}" if s.get("min_value") is not None else "")
            + f" · default {s.get('default_value')}",
            n,
        )
        for n, s in sorted(specs.items())
    ]
    return {"name": choices}, {"specs": specs}
