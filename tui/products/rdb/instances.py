"""Database instances as listed, shown and acted on (no pydantic here: forms and flows live in
`instance_forms` and `data_forms`, loaded on first use)."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from ..base import ActionSpec, Call, Child, Column, DetailPanel, Lazy, Metric, Metrics, kinds_of
from ..format import COMMON, Tones, date_of, gb
from ..pick_change import Change, PickChange
from ..set_editor import SetEditor
from ..shapes import FormCall, SaveAnswer
from ..states import When
from ..columns import name_col, scope_col, state_col, tags_col
from ..kind_options import Reading, Rows, Writing

API = "rdb/v1"
RESOURCE = Lazy("tui.products.models:Resource")
# What every Databases kind shares; a kind says only what differs.
rdb_kind = kinds_of(product="Databases", api=API, scope_type="region", paging="page_size", model=RESOURCE)
FORMS = "tui.products.rdb.instance_forms:"
GB = 1_000_000_000


def _volume(row: Any) -> dict[str, Any]:
    vol = row.get("volume")
    return vol if isinstance(vol, dict) else {}


UPGRADE = PickChange("Upgrade {name}: one change at a time", Call("POST", "{id}/upgrade"), (
    Change("Node type (more CPU and memory)", Lazy(FORMS + "NodeTypeForm"), "Upgrade {name}: node type", options=Lazy(FORMS + "node_type_options"),
           warn=Lazy(FORMS + "node_type_warning")),
    Change("Enable high availability", title="Enable HA on {name}?", body={"enable_ha": True},
           confirm="A synchronous standby node is added; the instance is configuring meanwhile.",
           why_not=lambda r: "it is already highly available" if r.get("is_ha_cluster") else None),
    Change("Move to a block volume (bssd)", title="Move {name} to a block volume?", body={"volume_type": "bssd"},
           confirm="The data moves to a block SSD volume; the instance is configuring meanwhile.",
           why_not=lambda r: "it has a block volume" if _volume(r).get("type") == "bssd" else None),
    Change("Grow the block volume", Lazy(FORMS + "VolumeSizeForm"), "Grow the volume of {name}", options=Lazy(FORMS + "catalogue_context"),
           initial=lambda r: {"volume_size": int(_volume(r).get("size") or 0) // GB},
           body=lambda form, r: {"volume_size": form.volume_size * GB},
           why_not=lambda r: None if _volume(r).get("type") == "bssd" else "only a block volume is resized: move to bssd first"),
    Change("Engine version", Lazy(FORMS + "VersionForm"), "Upgrade the engine of {name}", options=Lazy(FORMS + "version_options"),
           warn=Lazy(FORMS + "version_warning"),
           body=lambda form, r: {"upgradable_version_id": form.version_id},
           why_not=lambda r: None if r.items("upgradable_version") else "no newer version is offered"),
), submit_label="Upgrade", done="{name}: upgrade accepted ({change}); it is configuring")
# The database states beyond the common words; a full disk needs someone now.
TONES = Tones(busy={"backuping", "promoting", "exporting", "restoring", "autohealing"}, alarm={"disk_full"}, base=COMMON)
DATA = "tui.products.rdb.data_forms:"
REPLICAS = "tui.products.rdb.replica_forms:"
COPIES = "tui.products.rdb.copy_forms:"
KINDS = "tui.products.rdb."
TRANSITIONAL = frozenset({"provisioning", "initializing", "configuring", "deleting", "backuping", "snapshotting", "restarting", "autohealing"})
USABLE = ("ready", "disk_full")  # an instance one may change: disk_full is still up (free space or grow it)


def volume(data: Any) -> str:
    v = data.get("volume")
    if not isinstance(v, dict):
        return ""
    return f"{v.get('type', '?')} {gb(v.get('size'))} GB"


def endpoints_text(data: Any) -> str:
    """Every endpoint as ip:port, with what it is (load balancer, private network, direct)."""
    out = []
    for e in data.get("endpoints") or []:
        if not isinstance(e, dict):
            continue
        where = "private" if e.get("private_network") else "lb" if "load_balancer" in e else "direct" if "direct_access" in e else "?"
        out.append(f"{e.get('ip') or e.get('hostname') or '?'}:{e.get('port', '?')} ({where})")
    return ", ".join(out)


def first_endpoint(data: Any) -> str:
    e = data.get("endpoint")
    if not isinstance(e, dict):
        eps = [x for x in data.get("endpoints") or [] if isinstance(x, dict)]
        e = eps[0] if eps else None
    return f"{e.get('ip') or e.get('hostname') or '?'}:{e.get('port', '?')}" if isinstance(e, dict) else ""


ACL_COLUMNS = (Column("ip", "IP / network", lambda r: str(r.get("ip", "")), width=20), Column("description", "Description", lambda r: str(r.get("description", "")), width=30))
SETTING_COLUMNS = (Column("name", "Setting", lambda r: str(r.get("name", "")), width=26), Column("value", "Value", lambda r: str(r.get("value", "")), width=30))


def acl_editor(read: str | Call, path: str, owner: str) -> SetEditor:
    """An instance's ACL rules, the whole set per PUT: from the instance (`{id}/acls`) or from its
    ACL list (`instances/{parent}/acls`)."""
    return SetEditor(f"ACL rules of {owner}", Lazy(DATA + "AclRecord"), ACL_COLUMNS, Call("PUT", path), "rules", ("ip", "description"), "ACL rule",
                     read=read, unique="ip", empty="With no ACL rule, no client can connect to the instance.", describe="Who may connect to the load-balanced and direct endpoints. The whole set is sent at once; an empty set lets nobody in.")


def settings_editor(read: str, path: str, owner: str) -> SetEditor:
    """An instance's settings, the whole set per PUT (see `acl_editor`)."""
    return SetEditor(f"Settings of {owner}", Lazy(DATA + "SettingForm"), SETTING_COLUMNS, Call("PUT", path), "settings", ("name", "value"), "setting",
                     read=read, unique="name", options=Lazy(DATA + "set_options"),
                     describe="The whole set is sent at once: a setting left out goes back to its default.")


USABLE_NOW = When(*USABLE, what="the instance", until="ready")
_usable, _why_busy = USABLE_NOW.ok, USABLE_NOW.why


def _why_not_ready(row: Any) -> str | None:
    if row.state == "ready":
        return None
    if row.state == "disk_full":
        return "the instance is disk_full: free space, or upgrade to a larger or block volume, first"
    return _why_busy(row)


def _block(row: Any) -> str | None:
    v = row.get("volume")
    return None if isinstance(v, dict) and v.get("type") == "bssd" else "a snapshot copies a block volume: this instance has a local volume (lssd)"


def _schedule(s: Any) -> str:
    b = s.raw.get("backup_schedule")
    if not isinstance(b, dict):
        return "?"
    if b.get("disabled"):
        return "automatic backups disabled"
    return f"every {b.get('frequency', '?')} h, kept {b.get('retention', '?')} days" + (f", next {b['next_run_at']}" if b.get("next_run_at") else "")


def _replicas(s: Any) -> str:
    out = []
    for r in s.raw.get("read_replicas") or []:
        if isinstance(r, dict):
            out.append(f"{r.get('id', '?')} {r.get('status', '?')} · {endpoints_text(r) or 'no endpoint'}")
    return "\n".join(out) or "none"


def _settings(s: Any) -> str:
    return ", ".join(f"{x.get('name')}={x.get('value')}" for x in s.raw.get("settings") or [] if isinstance(x, dict)) or "all defaults"


def _maintenance(s: Any) -> str:
    ms = [m for m in s.raw.get("maintenances") or [] if isinstance(m, dict)]
    return "\n".join(f"{m.get('reason', '?')} · {m.get('status', '?')} · {m.get('starts_at', '')} → {m.get('stops_at', '')}" for m in ms) or "none"


def _status_detail(s: Any) -> Text:
    status = str(s.raw.get("status", ""))
    t = TONES.text(status)
    if status == "disk_full":
        t.append("  the local volume is nearly full: free space, or upgrade to a larger or block volume", style="red")
    return t


METRICS = Metrics(
    path="{id}/metrics", start="start_date", end="end_date",
    metrics=(Metric("cpu_usage_percent", "CPU"), Metric("mem_usage_percent", "Memory"), Metric("disk_usage_percent", "Disk"),
             Metric("total_connections", "Connections", "")),
)

INSTANCES = rdb_kind(
    id="rdb.instances",
    title="Database instances",
    singular="database instance",
    collection="instances",
    list_key="instances",
    item_key=None,
    reading=Reading(page_size=100),
    state_field="status",
    transitional=TRANSITIONAL,
    columns=(
        name_col(16),
        state_col(TONES, 14, "status", "Status"),
        Column("engine", "Engine", lambda r: r.text("engine"), width=13),
        Column("node", "Node type", lambda r: r.text("node_type"), width=13),
        Column("ha", "HA", lambda r: "HA" if r.get("is_ha_cluster") else "—", width=3),
        Column("volume", "Volume", lambda r: r.text("volume_text"), width=11),
        Column("endpoint", "Endpoint", lambda r: r.text("endpoint_text"), width=21),
        scope_col("region", 6),
        Column("created", "Created", lambda r: date_of(r.text("created_at")), width=10, sort_key=lambda r: r.text("created_at")),
        tags_col(14),
    ),
    rows=Rows(summarize=lambda data: {"volume_text": volume(data), "endpoint_text": first_endpoint(data)}),
    detail_fields=(
        ("ID", lambda s: s.id),
        ("Name", lambda s: s.name),
        ("Status", _status_detail),
        ("Engine", lambda s: str(s.raw.get("engine", "")) + (f" (upgradable to {', '.join(str(v.get('name')) for v in s.raw.get('upgradable_version') or [] if isinstance(v, dict))})" if s.raw.get("upgradable_version") else "")),
        ("Node type", lambda s: f"{s.raw.get('node_type', '')}{' · high availability (synchronous standby)' if s.raw.get('is_ha_cluster') else ' · standalone'}"),
        ("Volume", lambda s: volume(s.raw) + "  (usage: Metrics tab, Disk)"),
        ("Endpoints", lambda s: endpoints_text(s.raw).replace(", ", "\n") or "none"),
        ("Backups", _schedule),
        ("Read replicas", _replicas),
        ("Settings", _settings),
        ("Maintenance", _maintenance),
        ("Tags", lambda s: ", ".join(s.raw.get("tags") or []) or "none"),
        ("Region", lambda s: str(s.raw.get("region", ""))),
        ("Created", lambda s: str(s.raw.get("created_at", ""))),
    ),
    actions=(
        ActionSpec("restart", "Restart", lambda r: r.state == "ready", confirm=True, call=Call("POST", "{id}/restart", {}), why_not=_why_not_ready),
        ActionSpec("privileges", "Privileges (users × databases)…", _usable, flow=Lazy(DATA + "privileges_flow"), why_not=_why_busy,
                   mutating=False),  # a read: in read-only mode the grid opens read-only
        ActionSpec("acls", "ACL rules (replace the set)…", lambda r: True, shape=acl_editor(Call("GET", "{id}/acls", mutating=False), "{id}/acls", "{name}")),
        ActionSpec("settings", "Settings (replace the set)…", _usable, shape=settings_editor("settings", "{id}/settings", "{name}"), why_not=_why_busy),
        ActionSpec("endpoints", "Endpoints: add, delete, migrate…", _usable, flow=Lazy(FORMS + "endpoints_flow"), why_not=_why_busy),
        ActionSpec("replica", "Create a read replica…", lambda r: r.state == "ready", flow=Lazy(REPLICAS + "create_replica_flow"), why_not=_why_not_ready),
        ActionSpec("backup", "Back up a database…", _usable, flow=Lazy(COPIES + "backup_flow"), why_not=_why_busy),
        ActionSpec("snapshot", "Snapshot the volume…", lambda r: r.state == "ready", shape=FormCall(
            "Snapshot the block volume of {name}", Lazy(COPIES + "SnapshotForm"), Call("POST", "{id}/snapshots"), body=Lazy(COPIES + "snapshot_body"),
            done="A snapshot of {name} is being made — see Snapshots", initial=lambda r: {"name": f"{r.name}-snapshot"}, submit_label="Snapshot"),
                   why_not=lambda r: _block(r) or _why_not_ready(r)),
        ActionSpec("upgrade", "Upgrade (node type, HA, volume, version)…", lambda r: r.state in USABLE, why_not=_why_busy, shape=UPGRADE),
        ActionSpec("clone", "Clone…", lambda r: r.state == "ready", flow=Lazy(FORMS + "clone_flow"), why_not=_why_not_ready),
        ActionSpec("maintenance", "Apply the pending maintenance", lambda r: bool(r.items("maintenances")), confirm=True,
                   call=Call("POST", "{id}/apply-maintenance", {}), why_not=_why_busy),
        ActionSpec("log_files", "Log files: sizes, purge…", lambda r: True, flow=Lazy(DATA + "log_files_flow"), mutating=False),  # sizes only when read-only
        ActionSpec("certificate", "Download the TLS certificate…", lambda r: True,
                   shape=SaveAnswer(Call("GET", "{id}/certificate", mutating=False), "Save the TLS certificate of {name}")),
        ActionSpec("renew", "Renew the TLS certificate", lambda r: r.state == "ready", confirm=True, call=Call("POST", "{id}/renew-certificate", {}),
                   why_not=_why_not_ready),
    ),
    children=(
        Child("Databases", KINDS + "children:DATABASES"),
        Child("Users", KINDS + "children:USERS"),
        Child("ACL rules", KINDS + "children:ACLS"),
        Child("Settings", KINDS + "children:SETTINGS"),
        Child("Read replicas", KINDS + "children:REPLICAS"),
        Child("Endpoints", KINDS + "children:ENDPOINTS"),
        Child("Backups of this instance", KINDS + "backups:INSTANCE_BACKUPS"),
        Child("Snapshots of this instance", KINDS + "backups:INSTANCE_SNAPSHOTS"),
        Child("Logs", KINDS + "children:LOGS"),
    ),
    panels=(DetailPanel("Metrics", chart=METRICS),),
    create=Lazy(FORMS + "CREATE"),
    edit=Lazy(FORMS + "EDIT"),
    delete=Call("DELETE", "{id}"),
    writing=Writing(delete_needs_name=True, delete_warning=lambda r: "Its databases, users and read replicas are deleted with it; backups stay until they expire", name_param="name"),
)
