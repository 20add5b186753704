"""Database instances as listed, shown and acted on (no pydantic here: forms and flows live in
`instance_forms` and `data_forms`, loaded on first use)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text

from ..kit.base import ActionSpec, Call, Child, DetailPanel, Lazy, Metric, Metrics, data_lost
from ..kit.declared import ID, Field
from ..kit.kind_options import Rows
from ..kit.pick_change import Change, PickChange
from ..kit.shapes import FormCall, SaveAnswer
from ..kit.states import When
from .common import DATA, TONES, acl_editor, endpoints_text, first_endpoint, rdb_kind, settings_editor, volume

if TYPE_CHECKING:
    from ..kit.base import Row
    from ..kit.models import Resource

FORMS = "tui.products.rdb.instance_forms:"
UPGRADES = "tui.products.rdb.upgrade_forms:"
GB = 1_000_000_000


def _volume(row: Row) -> dict[str, Any]:
    vol = row.get("volume")
    return vol if isinstance(vol, dict) else {}


UPGRADE = PickChange(
    "Upgrade {name}: one change at a time",
    Call("POST", "{id}/upgrade"),
    (
        Change(
            "Node type (more CPU and memory)",
            Lazy(UPGRADES + "NodeTypeForm"),
            "Upgrade {name}: node type",
            options=Lazy(UPGRADES + "node_type_options"),
            warn=Lazy(UPGRADES + "node_type_warning"),
        ),
        Change(
            "Enable high availability",
            title="Enable HA on {name}?",
            body={"enable_ha": True},
            confirm="A synchronous standby node is added; the instance is configuring meanwhile.",
            why_not=lambda r: "it is already highly available" if r.get("is_ha_cluster") else None,
        ),
        Change(
            "Move to a block volume (bssd)",
            title="Move {name} to a block volume?",
            body={"volume_type": "bssd"},
            confirm="The data moves to a block SSD volume; the instance is configuring meanwhile.",
            why_not=lambda r: "it has a block volume" if _volume(r).get("type") == "bssd" else None,
        ),
        Change(
            "Grow the block volume",
            Lazy(UPGRADES + "VolumeSizeForm"),
            "Grow the volume of {name}",
            options=Lazy(UPGRADES + "catalogue_context"),
            initial=lambda r: {"volume_size": int(_volume(r).get("size") or 0) // GB},
            body=lambda form, r: {"volume_size": form.volume_size * GB},
            why_not=lambda r: (
                None if _volume(r).get("type") == "bssd" else "only a block volume is resized: move to bssd first"
            ),
        ),
        Change(
            "Engine version",
            Lazy(UPGRADES + "VersionForm"),
            "Upgrade the engine of {name}",
            options=Lazy(UPGRADES + "version_options"),
            warn=Lazy(UPGRADES + "version_warning"),
            body=lambda form, r: {"upgradable_version_id": form.version_id},
            why_not=lambda r: None if r.items("upgradable_version") else "no newer version is offered",
        ),
    ),
    submit_label="Upgrade",
    done="{name}: upgrade accepted ({change}); it is configuring",
)
REPLICAS = "tui.products.rdb.replica_forms:"
COPIES = "tui.products.rdb.copy_forms:"
KINDS = "tui.products.rdb."
TRANSITIONAL = frozenset(
    {
        "provisioning",
        "initializing",
        "configuring",
        "deleting",
        "backuping",
        "snapshotting",
        "restarting",
        "autohealing",
    }
)
USABLE = ("ready", "disk_full")  # an instance one may change: disk_full is still up (free space or grow it)


USABLE_NOW = When(*USABLE, what="the instance", until="ready")
_usable, _why_busy = USABLE_NOW.ok, USABLE_NOW.why


def _why_not_ready(row: Row) -> str | None:
    if row.state == "ready":
        return None
    if row.state == "disk_full":
        return "the instance is disk_full: free space, or upgrade to a larger or block volume, first"
    return _why_busy(row)


def _posted_when_ready(name: str, label: str, path: str) -> ActionSpec:
    """An action of one request with no body, confirmed, on a ready instance."""
    return ActionSpec(
        name, label, lambda r: r.state == "ready", confirm=True, call=Call("POST", path, {}), why_not=_why_not_ready
    )


def _block(row: Row) -> str | None:
    v = row.get("volume")
    return (
        None
        if isinstance(v, dict) and v.get("type") == "bssd"
        else "a snapshot copies a block volume: this instance has a local volume (lssd)"
    )


def _schedule(s: Row | Resource) -> str:
    b = s.raw.get("backup_schedule")
    if not isinstance(b, dict):
        return "?"
    if b.get("disabled"):
        return "automatic backups disabled"
    return f"every {b.get('frequency', '?')} h, kept {b.get('retention', '?')} days" + (
        f", next {b['next_run_at']}" if b.get("next_run_at") else ""
    )


def _replicas(s: Row | Resource) -> str:
    out = []
    for r in s.raw.get("read_replicas") or []:
        if isinstance(r, dict):
            out.append(f"{r.get('id', '?')} {r.get('status', '?')} · {endpoints_text(r) or 'no endpoint'}")
    return "\n".join(out) or "none"


def _settings(s: Row | Resource) -> str:
    return (
        ", ".join(f"{x.get('name')}={x.get('value')}" for x in s.raw.get("settings") or [] if isinstance(x, dict))
        or "all defaults"
    )


def _maintenance(s: Row | Resource) -> str:
    from ..kit.times import second_of

    ms = [m for m in s.raw.get("maintenances") or [] if isinstance(m, dict)]
    return (
        "\n".join(
            f"{m.get('reason', '?')} · {m.get('status', '?')} · "
            f"{second_of(m.get('starts_at', ''))} → {second_of(m.get('stops_at', ''))}"
            for m in ms
        )
        or "none"
    )


def _status_detail(s: Row | Resource) -> Text:
    status = str(s.raw.get("status", ""))
    t = TONES.text(status)
    if status == "disk_full":
        t.append("  the local volume is nearly full: free space, or upgrade to a larger or block volume", style="red")
    return t


def _engine(s: Row | Resource) -> str:
    """The engine's version, and those it may be upgraded to."""
    upgradable = s.raw.get("upgradable_version")
    names = ", ".join(str(v.get("name")) for v in upgradable or [] if isinstance(v, dict))
    return str(s.raw.get("engine", "")) + (f" (upgradable to {names})" if upgradable else "")


def _node_type(s: Row | Resource) -> str:
    ha = " · high availability (synchronous standby)" if s.raw.get("is_ha_cluster") else " · standalone"
    return f"{s.raw.get('node_type', '')}{ha}"


def _volume_detail(s: Row | Resource) -> str:
    return volume(s.raw) + "  (usage: Metrics tab, Disk)"


def _endpoint_lines(s: Row | Resource) -> str:
    return endpoints_text(s.raw).replace(", ", "\n") or "none"


INSTANCE_FIELDS = (
    ID,
    Field("name", "Name", "name", width=16),
    Field("status", "Status", "state", width=14, tones=TONES, detail=_status_detail),
    Field("engine", "Engine", width=13, detail=_engine),
    # A node type's name is its id.
    Field("node_type", "Node type", "ref", ref="rdb.node_types", named="node_type", width=13, key="node", detail=False),
    Field("node_type", "Node type", "ref", ref="rdb.node_types", named="node_type", show=_node_type),
    Field("is_ha_cluster", "HA", "flag", width=3, key="ha", words=("HA", "—"), detail=False),
    Field("volume_text", "Volume", width=11, key="volume", detail=_volume_detail),  # the column's made by `summarize`
    Field("endpoint_text", "Endpoint", width=21, key="endpoint", detail=False),  # made by `summarize`: the first
    Field("endpoints.ip", "Endpoints", "ip", show=_endpoint_lines),
    Field("backup_schedule", "Backups", show=_schedule),
    Field("backup_schedule.disabled", "Backups disabled", "flag", key="backups_off", detail=False),  # (the advisor's)
    Field("read_replicas.id", "Read replicas", "ref", ref="rdb.read_replicas", show=_replicas),
    Field("settings", "Settings", show=_settings),
    Field("maintenances", "Maintenance", show=_maintenance),
    Field("tags", "Tags", "tags", width=14),
    Field("region", "Region", "place", width=6, empty=""),
    Field("created_at", "Created", "time", width=10, key="created", empty=""),
)


METRICS = Metrics(
    path="{id}/metrics",
    start="start_date",
    end="end_date",
    metrics=(
        Metric("cpu_usage_percent", "CPU"),
        Metric("mem_usage_percent", "Memory"),
        Metric("disk_usage_percent", "Disk"),
        Metric("total_connections", "Connections", ""),
    ),
)

INSTANCES = rdb_kind(
    id="rdb.instances",
    singular="database instance",
    transitional=TRANSITIONAL,
    fields=INSTANCE_FIELDS,
    columns=("name", "status", "engine", "node", "ha", "volume", "endpoint", "region", "created", "tags"),
    rows=Rows(summarize=lambda data: {"volume_text": volume(data), "endpoint_text": first_endpoint(data)}),
    actions=(
        _posted_when_ready("restart", "Restart", "{id}/restart"),
        ActionSpec(
            "privileges",
            "Privileges (users × databases)…",
            _usable,
            flow=Lazy(DATA + "privileges_flow"),
            why_not=_why_busy,
            mutating=False,
        ),  # a read: in read-only mode the grid opens read-only
        ActionSpec(
            "acls",
            "ACL rules (replace the set)…",
            shape=acl_editor(Call("GET", "{id}/acls", mutating=False), "{id}/acls", "{name}"),
        ),
        ActionSpec(
            "settings",
            "Settings (replace the set)…",
            _usable,
            shape=settings_editor("settings", "{id}/settings", "{name}"),
            why_not=_why_busy,
        ),
        ActionSpec(
            "endpoints",
            "Endpoints: add, delete, migrate…",
            _usable,
            flow=Lazy(FORMS + "endpoints_flow"),
            why_not=_why_busy,
        ),
        ActionSpec(
            "replica",
            "Create a read replica…",
            lambda r: r.state == "ready",
            flow=Lazy(REPLICAS + "create_replica_flow"),
            why_not=_why_not_ready,
        ),
        ActionSpec("backup", "Back up a database…", _usable, flow=Lazy(COPIES + "backup_flow"), why_not=_why_busy),
        ActionSpec(
            "snapshot",
            "Snapshot the volume…",
            lambda r: r.state == "ready",
            shape=FormCall(
                "Snapshot the block volume of {name}",
                Lazy(COPIES + "SnapshotForm"),
                Call("POST", "{id}/snapshots"),
                body=Lazy(COPIES + "snapshot_body"),
                done="A snapshot of {name} is being made — see Snapshots",
                initial=lambda r: {"name": f"{r.name}-snapshot"},
                submit_label="Snapshot",
            ),
            why_not=lambda r: _block(r) or _why_not_ready(r),
        ),
        ActionSpec(
            "upgrade",
            "Upgrade (node type, HA, volume, version)…",
            lambda r: r.state in USABLE,
            why_not=_why_busy,
            shape=UPGRADE,
        ),
        ActionSpec(
            "clone", "Clone…", lambda r: r.state == "ready", flow=Lazy(FORMS + "clone_flow"), why_not=_why_not_ready
        ),
        ActionSpec(
            "maintenance",
            "Apply the pending maintenance",
            lambda r: bool(r.items("maintenances")),
            confirm=True,
            call=Call("POST", "{id}/apply-maintenance", {}),
            why_not=_why_busy,
        ),
        ActionSpec(  # sizes only when read-only
            "log_files", "Log files: sizes, purge…", flow=Lazy(DATA + "log_files_flow"), mutating=False
        ),
        ActionSpec(
            "certificate",
            "Download the TLS certificate…",
            shape=SaveAnswer(Call("GET", "{id}/certificate", mutating=False), "Save the TLS certificate of {name}"),
        ),
        _posted_when_ready("renew", "Renew the TLS certificate", "{id}/renew-certificate"),
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
    writing=data_lost(
        "Its databases, users and read replicas are deleted with it; backups stay until they expire", name_param="name"
    ),
)
