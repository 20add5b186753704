"""Key-value cache clusters as listed, shown and acted on (no pydantic here: forms and flows live in
`forms`, loaded on first use)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..kit.base import ActionSpec, Call, DetailPanel, Lazy, Metric, Metrics, data_lost, kinds_of
from ..kit.declared import ID, Field, columns
from ..kit.format import COMMON, Tones
from ..kit.kind_options import Rows
from ..kit.pick_change import Change, PickChange
from ..kit.set_editor import SetEditor
from ..kit.shapes import SaveAnswer
from ..kit.states import When

if TYPE_CHECKING:
    from ..kit.base import Row
    from ..kit.models import Resource

API = "kvcache/v1"
ZONES = ("fr-par-1", "fr-par-2", "nl-ams-1", "nl-ams-2", "pl-waw-1", "pl-waw-2")  # spec 2 §2.1
# What every cache kind shares (clusters and catalogues); a kind says only what differs.
kvcache_kind = kinds_of(product="Cache", api=API, scope_type="zone", scopes=ZONES)
FORMS = "tui.products.kvcache.forms:"
TONES = Tones(busy={"autohealing"}, base=COMMON)
ACL_COLUMNS = columns(Field("ip_cidr", "Network", "ip", width=20), Field("description", "Description", width=30))
SETTING_COLUMNS = columns(Field("name", "Setting", "name", width=24), Field("value", "Value", width=24))


def endpoints_text(data: dict[str, Any], most: int | None = 3) -> str:
    """Each endpoint with its addresses (one a node): the first `most` in a list's cell, all in the detail."""
    out = []
    for e in data.get("endpoints") or []:
        if not isinstance(e, dict):
            continue
        where = "private" if e.get("private_network") else "public"
        ips: list[Any] = e["ips"] if isinstance(e.get("ips"), list) else []
        shown = ips if most is None else ips[:most]
        out.append(
            f"{where} {', '.join(str(i) for i in shown)}{'…' if len(ips) > len(shown) else ''}:{e.get('port', '?')}"
        )
    return "; ".join(out)


READY = When("ready", what="the cluster")
_ready, _why = READY.ok, READY.why


def _tls(r: Row) -> str | None:
    return None if r.get("tls_enabled") else "TLS is not enabled on this cluster"


def _version(s: Row | Resource) -> str:
    """The version, and those it may be upgraded to."""
    upgradable = s.raw.get("upgradable_versions")
    return str(s.raw.get("version", "")) + (f" (upgradable to {', '.join(map(str, upgradable))})" if upgradable else "")


def _nodes(s: Row | Resource) -> str:
    size = s.raw.get("cluster_size", "?")
    return f"{size} × {s.raw.get('node_type', '?')}" + (" (standalone)" if size == 1 else " (cluster mode)")


def _endpoint_lines(s: Row | Resource) -> str:
    return endpoints_text(s.raw, most=None).replace("; ", "\n") or "none"


def _acl_lines(s: Row | Resource) -> str:
    rules = [a for a in s.raw.get("acl_rules") or [] if isinstance(a, dict)]
    return "\n".join(f"{a.get('ip_cidr')}  {a.get('description') or ''}" for a in rules) or "none"


def _settings(s: Row | Resource) -> str:
    settings = [x for x in s.raw.get("cluster_settings") or [] if isinstance(x, dict)]
    return ", ".join(f"{x.get('name')}={x.get('value')}" for x in settings) or "all defaults"


# A version and a node type are named by their names, which are their ids.
CLUSTER_FIELDS = (
    ID,
    Field("name", "Name", "name", width=16),
    Field("status", "Status", "state", width=14, tones=TONES),
    Field("version", "Version", "ref", ref="kvcache.versions", named="version", width=7, detail=_version),
    Field(
        "node_type", "Node type", "ref", ref="kvcache.node_types", named="node_type", width=10, key="node", detail=False
    ),
    Field("cluster_size", "Nodes", "count", width=5, key="size", detail=False),
    Field("cluster_size", "Nodes", "count", show=_nodes),
    Field("tls_enabled", "TLS", "flag", width=3, key="tls", words=("TLS", "—"), detail=False),
    Field("tls_enabled", "TLS", "flag", words=("enabled (a: download its certificate)", "disabled")),
    Field("endpoints_text", "Endpoints", width=30, key="endpoints", detail=False),  # made by `summarize`
    Field("endpoints.ips", "Endpoints", "ip", show=_endpoint_lines),
    Field("acl_rules.ip_cidr", "ACL rules", "ip", show=_acl_lines),
    Field("cluster_settings", "Settings", show=_settings),
    Field("user_name", "User", empty=""),
    Field("tags", "Tags", "tags", width=12),
    Field("zone", "Zone", "place", width=8, empty=""),
    Field("created_at", "Created", "time", width=10, key="created", empty=""),
)


METRICS = Metrics(
    path="{id}/metrics",
    start="start_at",
    end="end_at",
    metrics=(
        Metric("cpu_usage_percent", "CPU"),
        Metric("memory_usage_percent", "Memory"),
        Metric("connected_clients", "Clients", ""),
    ),
)

CLUSTERS = kvcache_kind(
    id="kvcache.clusters",
    singular="cache cluster",
    transitional=frozenset({"provisioning", "initializing", "configuring", "deleting", "autohealing"}),
    fields=CLUSTER_FIELDS,
    columns=("name", "status", "version", "node", "size", "tls", "endpoints", "zone", "created", "tags"),
    rows=Rows(summarize=lambda data: {"endpoints_text": endpoints_text(data)}),
    actions=(
        ActionSpec(
            "migrate",
            "Migrate: version, node type or size…",
            _ready,
            why_not=_why,
            shape=PickChange(
                "Migrate {name}: one change per request",
                Call("POST", "{id}/migrate"),
                (
                    Change(
                        "Version",
                        Lazy(FORMS + "VersionForm"),
                        "Upgrade {name}",
                        options=Lazy(FORMS + "version_options"),
                        warn=Lazy(FORMS + "version_warning"),
                        why_not=lambda r: None if r.items("upgradable_versions") else "no newer version is offered",
                    ),
                    Change(
                        "Node type (vertical scaling)",
                        Lazy(FORMS + "NodeTypeForm"),
                        "Node type of {name}",
                        options=Lazy(FORMS + "node_type_options"),
                        warn=Lazy(FORMS + "node_type_warning"),
                        initial=lambda r: {"node_type": r.get("node_type")},
                    ),
                    Change(
                        "Number of nodes (horizontal scaling)",
                        Lazy(FORMS + "SizeForm"),
                        "Nodes of {name} (the TLS certificate is not renewed by this)",
                        options=Lazy(FORMS + "size_options"),
                        initial=lambda r: {"cluster_size": r.get("cluster_size") or 1},
                        why_not=lambda r: (
                            "a standalone node does not scale out: create a cluster of 3 to 6"
                            if (r.get("cluster_size") or 1) == 1
                            else None
                        ),
                    ),
                ),
                submit_label="Migrate",
                done="{name}: migrating ({change} → {value})",
            ),
        ),
        ActionSpec(
            "acls",
            "ACL rules (replace the set)…",
            _ready,
            why_not=_why,
            shape=SetEditor(
                "ACL rules of {name}",
                Lazy(FORMS + "AclRecord"),
                ACL_COLUMNS,
                Call("PUT", "{id}/acls"),
                "acl_rules",
                ("ip_cidr", "description"),
                "ACL rule",
                read="acl_rules",
                unique="ip_cidr",
                empty="With no ACL rule, no client can connect to the cluster.",
                describe="Networks allowed to connect. The whole set is sent at once; an empty set lets nobody in.",
            ),
        ),
        ActionSpec(
            "settings",
            "Settings (replace the set)…",
            _ready,
            why_not=_why,
            shape=SetEditor(
                "Settings of {name} ({version})",
                Lazy(FORMS + "SettingRecord"),
                SETTING_COLUMNS,
                Call("PUT", "{id}/settings"),
                "settings",
                ("name", "value"),
                "setting",
                read="cluster_settings",
                unique="name",
                options=Lazy(FORMS + "settings_options"),
                describe="The whole set is sent at once: a setting left out goes back to its default.",
            ),
        ),
        ActionSpec(
            "certificate",
            "Download the TLS certificate…",
            lambda r: bool(r.get("tls_enabled")),
            why_not=_tls,
            shape=SaveAnswer(Call("GET", "{id}/certificate", mutating=False), "Save the TLS certificate of {name}"),
        ),
        ActionSpec(
            "renew",
            "Renew the TLS certificate",
            lambda r: bool(r.get("tls_enabled")) and _ready(r),
            call=Call("POST", "{id}/renew-certificate", {}),
            confirm="The current certificate stops working: every client needs the new one (download it after). "
            "Scaling the cluster out does not renew it; this does.",
            why_not=lambda r: _tls(r) or _why(r),
        ),
    ),
    panels=(DetailPanel("Metrics", chart=METRICS),),
    create=Lazy(FORMS + "CREATE"),
    edit=Lazy(FORMS + "EDIT"),
    delete=Call("DELETE", "{id}"),
    writing=data_lost("Every key in it is lost: the data cannot be recovered", name_param="name"),
)
