"""What lives inside a database instance, each a child kind opened from it (same table, paging and
refresh as any list): databases, users, ACL rules, settings, read replicas and prepared logs."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from ..base import ActionSpec, Call, Column, Lazy, ListParams, Parent
from ..format import date_of, human_bytes
from ..set_editor import ROWS
from ..shapes import FormCall, ShowValue
from ..states import When
from .instances import TONES, acl_editor, endpoints_text, rdb_kind, settings_editor
from ..kind_options import Reading, Writing

DATA = "tui.products.rdb.data_forms:"
REPLICAS = "tui.products.rdb.replica_forms:"


def _first(answer: dict[str, Any], key: str, match: Any = None) -> Any:
    """The object a create put in an answer that lists several (`{"rules": [...]}`)."""
    items = answer.get(key)
    if not isinstance(items, list):
        return None
    found = [i for i in items if isinstance(i, dict) and (match is None or match(i))]
    return found[0] if found else None


def _managed(row: Any) -> Text:
    return Text("managed") if row.get("managed") else Text("unmanaged (SQL)", style="yellow")


DATABASES = rdb_kind(
    id="rdb.databases",
    title="Databases",
    singular="database",
    collection="databases",
    list_key="databases",
    item_key=None,
    parent=Parent("rdb.instances", list_path="instances/{parent}/databases", item_path="instances/{parent}/databases/{id}"),
    id_field="name",
    reading=Reading(fetch_detail=False),
    columns=(
        Column("name", "Database", lambda r: r.name, width=20),
        Column("managed", "Permissions", _managed, width=16),
        Column("owner", "Owner", lambda r: r.text("owner"), width=16),
        Column("size", "Size", lambda r: human_bytes(r.get("size")), width=9, sort_key=lambda r: r.get("size") or 0),
    ),
    detail_fields=(
        ("Name", lambda d: d.name),
        ("Owner", lambda d: str(d.raw.get("owner", ""))),
        ("Managed", lambda d: "yes: permissions are set here (Privileges)" if d.raw.get("managed") else "no: created in SQL, its owner manages permissions"),
        ("Size", lambda d: human_bytes(d.raw.get("size"))),
    ),
    create=Lazy(DATA + "DATABASE_CREATE"),
    delete=Call("DELETE", "{id}"),
    writing=Writing(delete_needs_name=True, delete_warning=lambda r: "Its tables and data are lost; backups of it stay until they expire"),
)

USERS = rdb_kind(
    id="rdb.users",
    title="Users",
    singular="user",
    collection="users",
    list_key="users",
    item_key=None,
    parent=Parent("rdb.instances", list_path="instances/{parent}/users", item_path="instances/{parent}/users/{id}"),
    id_field="name",
    reading=Reading(fetch_detail=False),
    columns=(
        Column("name", "User", lambda r: r.name, width=24),
        Column("admin", "Admin", lambda r: Text("admin", style="bold") if r.get("is_admin") else Text("—"), width=6),
    ),
    detail_fields=(
        ("Name", lambda u: u.name),
        ("Admin", lambda u: "yes: CREATEROLE and CREATEDB (not SUPERUSER, not REPLICATION)" if u.raw.get("is_admin") else "no"),
    ),
    actions=(
        ActionSpec("toggle_admin", "Toggle admin", lambda r: True, confirm=Lazy(DATA + "admin_message"),
                   call=Call("PATCH", "{id}", lambda r: {"is_admin": not r.get("is_admin")})),
        ActionSpec("password", "Change the password…", lambda r: True, shape=FormCall(
            "New password for {name}", Lazy(DATA + "PasswordForm"), Call("PATCH", "{id}"), done="{name}: password changed", submit_label="Change")),
    ),
    create=Lazy(DATA + "USER_CREATE"),
    edit=Lazy(DATA + "USER_EDIT"),
    delete=Call("DELETE", "{id}"),
    writing=Writing(delete_warning=lambda r: "Its privileges go with it; restoring a backup that needs this user will fail" + (
        ".\nAn admin user: if it is the instance's default user (the one it was created with), the applications and tools that log in"
        " with it lose access" if r.get("is_admin") else "")),
)

ACLS = rdb_kind(
    id="rdb.acls",
    title="ACL rules",
    singular="ACL rule",
    collection="acls",
    list_key="rules",
    item_key=None,
    parent=Parent("rdb.instances", list_path="instances/{parent}/acls"),
    id_field="ip",
    reading=Reading(fetch_detail=False),
    columns=(
        Column("ip", "IP / network", lambda r: r.id, width=20),
        Column("description", "Description", lambda r: r.text("description"), width=24),
        Column("port", "Port", lambda r: r.text("port"), width=5),
        Column("action", "Action", lambda r: r.text("action"), width=6),
        Column("direction", "Direction", lambda r: r.text("direction"), width=9),
    ),
    detail_fields=(("IP", lambda a: str(a.raw.get("ip", ""))), ("Description", lambda a: str(a.raw.get("description", "")))),
    actions=(ActionSpec("replace", "Replace the whole set…", lambda r: True, shape=acl_editor(ROWS, "instances/{parent}/acls", "{parent}")),),
    create=Lazy(DATA + "ACL_CREATE"),
    writing=Writing(create_path="instances/{parent}/acls", created=lambda answer, payload: _first(answer, "rules"), identity=lambda payload: {"ip": payload["rules"][0]["ip"]}, delete_warning=lambda r: "Clients from these addresses can no longer connect"),
    delete=Call("DELETE", "instances/{parent}/acls", lambda r: {"acl_rule_ips": [r.id]}),
)

SETTINGS = rdb_kind(
    id="rdb.settings",
    title="Settings",
    singular="setting",
    collection="settings",
    list_key=None,
    item_key=None,
    parent=Parent("rdb.instances", list_path="instances/{parent}", field="settings"),  # held by the instance
    id_field="name",
    reading=Reading(fetch_detail=False),
    columns=(
        Column("name", "Setting", lambda r: r.name, width=28),
        Column("value", "Value", lambda r: r.text("value"), width=30),
    ),
    detail_fields=(("Name", lambda s: s.name), ("Value", lambda s: str(s.raw.get("value", "")))),
    actions=(
        ActionSpec("change", "Change the value…", lambda r: True, shape=FormCall(
            lambda row, context: context["title"], Lazy(DATA + "ValueForm"), Call("POST", "instances/{parent}/settings"),
            done="{id} set", initial=lambda r: {"value": r.text("value")}, body=Lazy(DATA + "value_body"),
            options=Lazy(DATA + "value_options"), submit_label="Set", then="reload")),
        ActionSpec("replace", "Replace the whole set…", lambda r: True, shape=settings_editor(ROWS, "instances/{parent}/settings", "{parent}")),
    ),
    create=Lazy(DATA + "SETTING_CREATE"),
    writing=Writing(create_path="instances/{parent}/settings", created=lambda answer, payload: _first(answer, "settings", lambda s: s.get("name") == payload["settings"][0]["name"]), identity=lambda payload: payload["settings"][0], delete_warning=lambda r: "It goes back to the engine's default"),
    delete=Call("DELETE", "instances/{parent}/settings", lambda r: {"setting_names": [r.id]}),
)


def _replica_endpoints(r: Any) -> str:
    return endpoints_text(r.data) or "no endpoint"


REPLICA_READY = When("ready", what="the replica")
_replica_ready, _why_not_ready = REPLICA_READY.ok, REPLICA_READY.why


REPLICAS = rdb_kind(
    id="rdb.read_replicas",
    title="Read replicas",
    singular="read replica",
    collection="read-replicas",
    list_key=None,
    item_key=None,
    parent=Parent("rdb.instances", list_path="instances/{parent}", item_path="read-replicas/{id}", field="read_replicas"),
    state_field="status",
    transitional=frozenset({"provisioning", "initializing", "configuring", "promoting", "deleting"}),
    columns=(
        Column("id", "Read replica", lambda r: r.id, width=36),
        Column("status", "Status", lambda r: TONES.text(r.state), width=14),
        Column("endpoints", "Endpoints", _replica_endpoints, width=36),
        Column("zone", "Same zone", lambda r: "yes" if r.get("same_zone") else "no", width=9),
    ),
    detail_fields=(
        ("ID", lambda r: r.id),
        ("Status", lambda r: TONES.text(str(r.raw.get("status", "")))),
        ("Endpoints", lambda r: endpoints_text(r.raw).replace(", ", "\n") or "none (add one: a)"),
        ("Same zone", lambda r: "yes" if r.raw.get("same_zone") else "no"),
        ("Region", lambda r: str(r.raw.get("region", ""))),
        ("Replicates", lambda r: "asynchronously, read-only; instance ACLs apply to its direct endpoint"),
    ),
    actions=(
        ActionSpec("endpoint", "Add an endpoint…", _replica_ready, why_not=_why_not_ready, shape=FormCall(
            "Endpoint for read replica {name}", Lazy(REPLICAS + "ReplicaEndpointForm"), Call("POST", "{id}/endpoints"), done="{name}: endpoint added",
            body=Lazy(REPLICAS + "replica_endpoint_body"), options=Lazy(REPLICAS + "replica_endpoint_options"), submit_label="Add")),
        ActionSpec("promote", "Promote to a standalone instance", _replica_ready, call=Call("POST", "{id}/promote", {}), why_not=_why_not_ready,
                   confirm="It stops replicating and becomes a standalone instance that accepts writes, with its endpoints; "
                           "the replica is gone (see Database instances). This cannot be undone."),
        ActionSpec("reset", "Reset (re-sync from the instance)", _replica_ready, confirm=True, call=Call("POST", "{id}/reset", {}), why_not=_why_not_ready),
    ),
    create=Lazy(REPLICAS + "REPLICA_CREATE"),
    writing=Writing(create_path="read-replicas", delete_warning=lambda r: "Clients reading from it lose their connection"),
    delete=Call("DELETE", "{id}"),
)

def _endpoint_kind(e: Any) -> str:
    return "private network" if e.get("private_network") else "load balancer" if "load_balancer" in e.data else "direct access" if "direct_access" in e.data else "?"


ENDPOINTS = rdb_kind(
    id="rdb.endpoints",
    title="Endpoints",
    singular="endpoint",
    collection="endpoints",
    list_key=None,
    item_key=None,
    parent=Parent("rdb.instances", list_path="instances/{parent}", item_path="endpoints/{id}", field="endpoints"),  # held by the instance; GET by id
    columns=(
        Column("address", "Address", lambda r: f"{r.text('ip') or r.text('hostname') or '?'}:{r.text('port') or '?'}", width=22),
        Column("kind", "Kind", _endpoint_kind, width=15),
        Column("network", "Private network", lambda r: r.obj("private_network").get("private_network_id", "") if r.get("private_network") else "", width=36),
    ),
    detail_fields=(
        ("ID", lambda e: str(e.raw.get("id", ""))),
        ("Address", lambda e: f"{e.raw.get('ip') or e.raw.get('hostname') or '?'}:{e.raw.get('port', '?')}"),
        ("Name", lambda e: str(e.raw.get("name") or "")),
        ("Private network", lambda e: str((e.raw.get("private_network") or {}).get("private_network_id", "")) if isinstance(e.raw.get("private_network"), dict) else "—"),
    ),
    delete=Call("DELETE", "endpoints/{id}"),
    writing=Writing(delete_warning=lambda r: "Clients connecting through it lose their connection"),
)

LOGS = rdb_kind(
    id="rdb.logs",
    title="Logs",
    singular="log",
    collection="logs",
    list_key="instance_logs",
    item_key=None,
    parent=Parent("rdb.instances", list_path="instances/{parent}/logs", item_path="logs/{id}"),
    reading=Reading(list_params=ListParams(fixed={"order_by": "created_at_desc"}), sort=("created", True)),
    state_field="status",
    transitional=frozenset({"creating"}),
    columns=(
        Column("node", "Node", lambda r: r.text("node_name"), width=24),
        Column("status", "Status", lambda r: TONES.text(r.state), width=11),
        Column("created", "Prepared", lambda r: r.text("created_at")[:19], width=19),
        Column("expires", "Expires", lambda r: date_of(r.text("expires_at")), width=10),
        Column("url", "Download", lambda r: "ready: a copies the URL" if r.get("download_url") else "—", width=24),
    ),
    detail_fields=(
        ("ID", lambda x: x.id),
        ("Node", lambda x: str(x.raw.get("node_name", ""))),
        ("Status", lambda x: str(x.raw.get("status", ""))),
        ("Download URL", lambda x: str(x.raw.get("download_url") or "not ready yet")),
        ("Expires", lambda x: str(x.raw.get("expires_at", ""))),
    ),
    actions=(
        ActionSpec("url", "Download URL (copy)…", lambda r: bool(r.get("download_url")),
                   shape=ShowValue("Logs of {node_name} (y copies the URL; expires {expires_at:.16})", "{download_url}")),
    ),
    create=Lazy(DATA + "LOGS_PREPARE"),  # c: prepare logs for a time range (one per node)
    writing=Writing(create_path="instances/{parent}/prepare-logs", created=lambda answer, payload: _first(answer, "instance_logs")),
)
