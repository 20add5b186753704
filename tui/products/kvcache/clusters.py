"""Key-value cache clusters as listed, shown and acted on (no pydantic here: forms and flows live in
`forms`, loaded on first use)."""

from __future__ import annotations

from typing import Any

from ..base import ActionSpec, Call, Column, DetailPanel, Lazy, Metric, Metrics, kinds_of
from ..format import COMMON, Tones, date_of
from ..pick_change import Change, PickChange
from ..set_editor import SetEditor
from ..shapes import SaveAnswer
from ..states import When
from ..columns import name_col, scope_col, state_col, tags_col
from ..kind_options import Reading, Rows, Writing

API = "kvcache/v1"
ZONES = ("fr-par-1", "fr-par-2", "nl-ams-1", "nl-ams-2", "pl-waw-1", "pl-waw-2")  # spec 2 §2.1
# What every cache kind shares (clusters and catalogues); a kind says only what differs.
kvcache_kind = kinds_of(product="Cache", api=API, scope_type="zone", scopes=ZONES, paging="page_size", model=Lazy("tui.products.models:Resource"))
FORMS = "tui.products.kvcache.forms:"
TONES = Tones(busy={"autohealing"}, base=COMMON)
ACL_COLUMNS = (Column("ip_cidr", "Network", lambda r: str(r.get("ip_cidr", "")), width=20), Column("description", "Description", lambda r: str(r.get("description", "")), width=30))
SETTING_COLUMNS = (Column("name", "Setting", lambda r: str(r.get("name", "")), width=24), Column("value", "Value", lambda r: str(r.get("value", "")), width=24))


def endpoints_text(data: Any, most: int | None = 3) -> str:
    """Each endpoint with its addresses (one a node): the first `most` in a list's cell, all in the detail."""
    out = []
    for e in data.get("endpoints") or []:
        if not isinstance(e, dict):
            continue
        where = "private" if e.get("private_network") else "public"
        ips = e.get("ips") if isinstance(e.get("ips"), list) else []
        shown = ips if most is None else ips[:most]
        out.append(
            f"{where} {', '.join(str(i) for i in shown)}{'…' if len(ips) > len(shown) else ''}:{e.get('port', '?')}"
        )
    return "; ".join(out)


READY = When("ready", what="the cluster")
_ready, _why = READY.ok, READY.why


def _tls(r: Any) -> str | None:
    return None if r.get("tls_enabled") else "TLS is not enabled on this cluster"


METRICS = Metrics(
    path="{id}/metrics", start="start_at", end="end_at",
    metrics=(Metric("cpu_usage_percent", "CPU"), Metric("memory_usage_percent", "Memory"), Metric("connected_clients", "Clients", "")),
)

CLUSTERS = kvcache_kind(
    id="kvcache.clusters",
    title="Cache clusters",
    singular="cache cluster",
    collection="clusters",
    list_key="clusters",
    item_key=None,
    reading=Reading(page_size=100),
    state_field="status",
    transitional=frozenset({"provisioning", "initializing", "configuring", "deleting", "autohealing"}),
    columns=(
        name_col(16),
        state_col(TONES, 14, "status", "Status"),
        Column("version", "Version", lambda r: r.text("version"), width=7),
        Column("node", "Node type", lambda r: r.text("node_type"), width=10),
        Column("size", "Nodes", lambda r: r.text("cluster_size"), width=5, sort_key=lambda r: r.get("cluster_size") or 0),
        Column("tls", "TLS", lambda r: "TLS" if r.get("tls_enabled") else "—", width=3),
        Column("endpoints", "Endpoints", lambda r: r.text("endpoints_text"), width=30),
        scope_col("zone"),
        Column("created", "Created", lambda r: date_of(r.text("created_at")), width=10, sort_key=lambda r: r.text("created_at")),
        tags_col(12),
    ),
    rows=Rows(summarize=lambda data: {"endpoints_text": endpoints_text(data)}),
    detail_fields=(
        ("ID", lambda s: s.id),
        ("Name", lambda s: s.name),
        ("Status", lambda s: TONES.text(str(s.raw.get("status", "")))),
        ("Version", lambda s: str(s.raw.get("version", "")) + (f" (upgradable to {', '.join(map(str, s.raw.get('upgradable_versions') or []))})" if s.raw.get("upgradable_versions") else "")),
        ("Nodes", lambda s: f"{s.raw.get('cluster_size', '?')} × {s.raw.get('node_type', '?')}" + (" (standalone)" if s.raw.get("cluster_size") == 1 else " (cluster mode)")),
        ("TLS", lambda s: "enabled (a: download its certificate)" if s.raw.get("tls_enabled") else "disabled"),
        ("Endpoints", lambda s: endpoints_text(s.raw, most=None).replace("; ", "\n") or "none"),
        ("ACL rules", lambda s: "\n".join(f"{a.get('ip_cidr')}  {a.get('description') or ''}" for a in s.raw.get("acl_rules") or [] if isinstance(a, dict)) or "none"),
        ("Settings", lambda s: ", ".join(f"{x.get('name')}={x.get('value')}" for x in s.raw.get("cluster_settings") or [] if isinstance(x, dict)) or "all defaults"),
        ("User", lambda s: str(s.raw.get("user_name", ""))),
        ("Tags", lambda s: ", ".join(s.raw.get("tags") or []) or "none"),
        ("Zone", lambda s: str(s.raw.get("zone", ""))),
        ("Created", lambda s: str(s.raw.get("created_at", ""))),
    ),
    actions=(
        ActionSpec("migrate", "Migrate: version, node type or size…", _ready, why_not=_why, shape=PickChange(
            "Migrate {name}: one change per request", Call("POST", "{id}/migrate"), (
                Change("Version", Lazy(FORMS + "VersionForm"), "Upgrade {name}", options=Lazy(FORMS + "version_options"), warn=Lazy(FORMS + "version_warning"),
                       why_not=lambda r: None if r.items("upgradable_versions") else "no newer version is offered"),
                Change("Node type (vertical scaling)", Lazy(FORMS + "NodeTypeForm"), "Node type of {name}", options=Lazy(FORMS + "node_type_options"),
                       warn=Lazy(FORMS + "node_type_warning"),
                       initial=lambda r: {"node_type": r.get("node_type")}),
                Change("Number of nodes (horizontal scaling)", Lazy(FORMS + "SizeForm"), "Nodes of {name} (the TLS certificate is not renewed by this)",
                       options=Lazy(FORMS + "size_options"), initial=lambda r: {"cluster_size": r.get("cluster_size") or 1},
                       why_not=lambda r: "a standalone node does not scale out: create a cluster of 3 to 6" if (r.get("cluster_size") or 1) == 1 else None),
            ), submit_label="Migrate", done="{name}: migrating ({change} → {value})")),
        ActionSpec("acls", "ACL rules (replace the set)…", _ready, why_not=_why, shape=SetEditor(
            "ACL rules of {name}", Lazy(FORMS + "AclRecord"), ACL_COLUMNS, Call("PUT", "{id}/acls"), "acl_rules", ("ip_cidr", "description"),
            "ACL rule", read="acl_rules", unique="ip_cidr", empty="With no ACL rule, no client can connect to the cluster.",
            describe="Networks allowed to connect. The whole set is sent at once; an empty set lets nobody in.")),
        ActionSpec("settings", "Settings (replace the set)…", _ready, why_not=_why, shape=SetEditor(
            "Settings of {name} ({version})", Lazy(FORMS + "SettingRecord"), SETTING_COLUMNS, Call("PUT", "{id}/settings"), "settings", ("name", "value"),
            "setting", read="cluster_settings", unique="name", options=Lazy(FORMS + "settings_options"),
            describe="The whole set is sent at once: a setting left out goes back to its default.")),
        ActionSpec("certificate", "Download the TLS certificate…", lambda r: bool(r.get("tls_enabled")), why_not=_tls,
                   shape=SaveAnswer(Call("GET", "{id}/certificate", mutating=False), "Save the TLS certificate of {name}")),
        ActionSpec("renew", "Renew the TLS certificate", lambda r: bool(r.get("tls_enabled")) and _ready(r), call=Call("POST", "{id}/renew-certificate", {}),
                   confirm="The current certificate stops working: every client needs the new one (download it after). "
                           "Scaling the cluster out does not renew it; this does.",
                   why_not=lambda r: _tls(r) or _why(r)),
    ),
    panels=(DetailPanel("Metrics", chart=METRICS),),
    create=Lazy(FORMS + "CREATE"),
    edit=Lazy(FORMS + "EDIT"),
    delete=Call("DELETE", "{id}"),
    writing=Writing(delete_needs_name=True, delete_warning=lambda r: "Every key in it is lost: the data cannot be recovered", name_param="name"),
)
