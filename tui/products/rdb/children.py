"""What lives inside a database instance, each a child kind opened from it (same table, paging and
refresh as any list): databases, users, ACL rules, settings, read replicas and prepared logs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text

from ..kit.base import ActionSpec, Call, Lazy, ListParams, Parent, data_lost
from ..kit.declared import ID, Field
from ..kit.kind_options import Deleting, Item, Order, Reading, Rows, Writing
from ..kit.set_editor import ROWS
from ..kit.shapes import FormCall, ShowValue
from ..kit.states import When
from .common import TONES, acl_editor, endpoints_text, rdb_kind, settings_editor

if TYPE_CHECKING:
    from ..kit.base import Row
    from ..kit.models import Resource

DATA = "tui.products.rdb.data_forms:"
REPLICA_FORMS = "tui.products.rdb.replica_forms:"


def _managed(row: Row) -> Text:
    return Text("managed") if row.get("managed") else Text("unmanaged (SQL)", style="yellow")


# What a database's `managed` and a user's `is_admin` mean, said in its detail.
MANAGED = ("yes: permissions are set here (Privileges)", "no: created in SQL, its owner manages permissions")
ADMIN = ("yes: CREATEROLE and CREATEDB (not SUPERUSER, not REPLICATION)", "no")


def _managed_line(obj: Row | Resource) -> str:
    return MANAGED[0] if obj.raw.get("managed") is True else MANAGED[1]


def _admin(row: Row) -> Text:
    return Text("admin", style="bold") if row.get("is_admin") else Text("—")


DATABASES = rdb_kind(
    id="rdb.databases",
    singular="database",
    parent=Parent(
        "rdb.instances", list_path="instances/{parent}/databases", item_path="instances/{parent}/databases/{id}"
    ),
    reading=Reading(item=Item(fetch=False)),
    fields=(
        Field("name", "Name", ("name", "id"), width=20, head="Database"),
        # Its owner is a user of the instance, named by its name (a user's id).
        Field("owner", "Owner", "ref", ref="rdb.users", named="owner", width=16, empty=""),
        Field("managed", "Managed", "flag", width=16, head="Permissions", show=_managed, detail=_managed_line),
        Field("size", "Size", "size", width=9),
    ),
    columns=("name", "managed", "owner", "size"),
    create=Lazy(DATA + "DATABASE_CREATE"),
    delete=Call("DELETE", "{id}"),
    writing=data_lost("Its tables and data are lost; backups of it stay until they expire"),
)

USERS = rdb_kind(
    id="rdb.users",
    singular="user",
    parent=Parent("rdb.instances", list_path="instances/{parent}/users", item_path="instances/{parent}/users/{id}"),
    reading=Reading(item=Item(fetch=False)),
    fields=(
        Field("name", "Name", ("name", "id"), width=24, head="User"),
        Field("is_admin", "Admin", "flag", width=6, key="admin", show=_admin, detail=False),
        Field("is_admin", "Admin", "flag", words=ADMIN),
    ),
    columns=("name", "admin"),
    actions=(
        ActionSpec(
            "toggle_admin",
            "Toggle admin",
            confirm=Lazy(DATA + "admin_message"),
            call=Call("PATCH", "{id}", lambda r: {"is_admin": not r.get("is_admin")}),
        ),
        ActionSpec(
            "password",
            "Change the password…",
            shape=FormCall(
                "New password for {name}",
                Lazy(DATA + "PasswordForm"),
                Call("PATCH", "{id}"),
                done="{name}: password changed",
                submit_label="Change",
            ),
        ),
    ),
    create=Lazy(DATA + "USER_CREATE"),
    edit=Lazy(DATA + "USER_EDIT"),
    delete=Call("DELETE", "{id}"),
    writing=Writing(
        deleting=Deleting(
            warning=lambda r: (
                "Its privileges go with it; restoring a backup that needs this user will fail"
                + (
                    ".\nAn admin user: if it is the instance's default user (the one it was created with), "
                    "the applications and tools that log in with it lose access"
                    if r.get("is_admin")
                    else ""
                )
            )
        )
    ),
)

ACLS = rdb_kind(
    id="rdb.acls",
    singular="ACL rule",
    list_key="rules",
    parent=Parent("rdb.instances", list_path="instances/{parent}/acls"),
    reading=Reading(item=Item(fetch=False)),
    fields=(
        Field("ip", "IP", ("name", "ip", "id"), width=20, head="IP / network", empty=""),  # a network: its id
        Field("description", "Description", width=24, empty=""),
        Field("port", "Port", width=5),
        Field("action", "Action", width=6),
        Field("direction", "Direction", width=9),
    ),
    columns=("ip", "description", "port", "action", "direction"),
    actions=(
        ActionSpec(
            "replace",
            "Replace the whole set…",
            shape=acl_editor(ROWS, "instances/{parent}/acls", "{parent}"),
        ),
    ),
    create=Lazy(DATA + "ACL_CREATE"),
    writing=Writing(deleting=Deleting(warning=lambda r: "Clients from these addresses can no longer connect")),
    delete=Call("DELETE", "instances/{parent}/acls", lambda r: {"acl_rule_ips": [r.id]}),
)

SETTINGS = rdb_kind(
    id="rdb.settings",
    singular="setting",
    list_key=None,
    parent=Parent("rdb.instances", list_path="instances/{parent}", field="settings"),  # held by the instance
    reading=Reading(item=Item(fetch=False)),
    fields=(
        Field("name", "Name", ("name", "id"), width=28, head="Setting"),
        Field("value", "Value", width=30, empty=""),
    ),
    columns=("name", "value"),
    actions=(
        ActionSpec(
            "change",
            "Change the value…",
            shape=FormCall(
                lambda row, context: context["title"],
                Lazy(DATA + "ValueForm"),
                Call("POST", "instances/{parent}/settings"),
                done="{id} set",
                initial=lambda r: {"value": r.text("value")},
                body=Lazy(DATA + "value_body"),
                options=Lazy(DATA + "value_options"),
                submit_label="Set",
                then="reload",
            ),
        ),
        ActionSpec(
            "replace",
            "Replace the whole set…",
            shape=settings_editor(ROWS, "instances/{parent}/settings", "{parent}"),
        ),
    ),
    create=Lazy(DATA + "SETTING_CREATE"),
    writing=Writing(deleting=Deleting(warning=lambda r: "It goes back to the engine's default")),
    delete=Call("DELETE", "instances/{parent}/settings", lambda r: {"setting_names": [r.id]}),
)


def _replica_endpoints(r: Row) -> str:
    return endpoints_text(r.data) or "no endpoint"


def _replica_endpoint_lines(r: Row | Resource) -> str:
    return endpoints_text(r.raw).replace(", ", "\n") or "none (add one: a)"


def _replicates(r: object) -> str:
    return "asynchronously, read-only; instance ACLs apply to its direct endpoint"


REPLICA_READY = When("ready", what="the replica")
_replica_ready, _why_not_ready = REPLICA_READY.ok, REPLICA_READY.why


REPLICAS = rdb_kind(
    id="rdb.read_replicas",
    singular="read replica",
    collection="read-replicas",
    list_key=None,
    parent=Parent(
        "rdb.instances", list_path="instances/{parent}", item_path="read-replicas/{id}", field="read_replicas"
    ),
    transitional=frozenset({"provisioning", "initializing", "configuring", "promoting", "deleting"}),
    fields=(
        Field("id", "ID", ("id", "name"), width=36, head="Read replica"),  # a replica has no name of its own
        Field("status", "Status", "state", width=14, tones=TONES),
        Field("endpoints.ip", "Endpoints", "ip", width=36, key="endpoints", show=_replica_endpoints, detail=False),
        Field("endpoints.ip", "Endpoints", "ip", show=_replica_endpoint_lines),
        Field("same_zone", "Same zone", "flag", width=9, key="zone", words=("yes", "no")),
        Field("region", "Region", "place", empty=""),
        Field("", "Replicates", show=_replicates),
        Field("instance_id", "Instance", "ref", ref="rdb.instances", detail=False),  # its parent
    ),
    columns=("id", "status", "endpoints", "zone"),
    actions=(
        ActionSpec(
            "endpoint",
            "Add an endpoint…",
            _replica_ready,
            why_not=_why_not_ready,
            shape=FormCall(
                "Endpoint for read replica {name}",
                Lazy(REPLICA_FORMS + "ReplicaEndpointForm"),
                Call("POST", "{id}/endpoints"),
                done="{name}: endpoint added",
                body=Lazy(REPLICA_FORMS + "replica_endpoint_body"),
                options=Lazy(REPLICA_FORMS + "replica_endpoint_options"),
                submit_label="Add",
            ),
        ),
        ActionSpec(
            "promote",
            "Promote to a standalone instance",
            _replica_ready,
            call=Call("POST", "{id}/promote", {}),
            why_not=_why_not_ready,
            confirm="It stops replicating and becomes a standalone instance that accepts writes, with its endpoints; "
            "the replica is gone (see Database instances). This cannot be undone.",
        ),
        ActionSpec(
            "reset",
            "Reset (re-sync from the instance)",
            _replica_ready,
            confirm=True,
            call=Call("POST", "{id}/reset", {}),
            why_not=_why_not_ready,
        ),
    ),
    create=Lazy(REPLICA_FORMS + "REPLICA_CREATE"),
    writing=Writing(deleting=Deleting(warning=lambda r: "Clients reading from it lose their connection")),
    delete=Call("DELETE", "{id}"),
)


def _endpoint_kind(e: Row | Resource) -> str:
    data = e.raw  # (a listed row, or the object a detail reads)
    if data.get("private_network"):
        return "private network"
    return "load balancer" if "load_balancer" in data else "direct access" if "direct_access" in data else "?"


def _address(e: Row | Resource) -> str:
    """ip:port, or hostname:port."""
    return _address_of(e.raw)


def _address_of(data: dict[str, Any]) -> str:
    return f"{data.get('ip') or data.get('hostname') or '?'}:{data.get('port') or '?'}"


def _named_by_address(data: dict[str, Any]) -> dict[str, Any]:
    """An endpoint is named by its address, as the list shows it (its delete asks it typed, not its id)."""
    return {"name": _address_of(data)}


ENDPOINTS = rdb_kind(
    id="rdb.endpoints",
    singular="endpoint",
    list_key=None,
    parent=Parent("rdb.instances", list_path="instances/{parent}", item_path="endpoints/{id}", field="endpoints"),
    fields=(
        Field("id", "ID", "id", empty=""),
        Field("ip", "Address", ("name", "ip"), width=22, key="address", show=_address),
        Field("", "Kind", width=15, show=_endpoint_kind),
        # No kind of the console lists private networks: an id, not a reference.
        Field("private_network.private_network_id", "Private network", "id", width=36, key="network", empty="—"),
    ),
    columns=("address", "kind", "network"),
    rows=Rows(summarize=_named_by_address),
    delete=Call("DELETE", "endpoints/{id}"),
    writing=Writing(deleting=Deleting(warning=lambda r: "Clients connecting through it lose their connection")),
)


def _to_the_second(r: Row) -> str:
    return r.text("created_at")[:19]


def _download(r: Row) -> str:
    return "ready: a copies the URL" if r.get("download_url") else "—"


LOGS = rdb_kind(
    id="rdb.logs",
    singular="log",
    list_key="instance_logs",
    parent=Parent("rdb.instances", list_path="instances/{parent}/logs", item_path="logs/{id}"),
    reading=Reading(list_params=ListParams(fixed={"order_by": "created_at_desc"}), order=Order(by=("created", True))),
    transitional=frozenset({"creating"}),
    fields=(
        ID,
        Field("node_name", "Node", "name", width=24, key="node", empty=""),  # a log is one node's
        Field("status", "Status", "state", width=11, tones=TONES),
        Field("created_at", "Prepared", "time", width=19, key="created", show=_to_the_second, detail=False),
        Field("download_url", "Download", width=24, key="url", show=_download, detail=False),
        Field("download_url", "Download URL", empty="not ready yet"),
        Field("expires_at", "Expires", "time", width=10, key="expires", empty=""),
    ),
    columns=("node", "status", "created", "expires", "url"),
    actions=(
        ActionSpec(
            "url",
            "Download URL (copy)…",
            lambda r: bool(r.get("download_url")),
            shape=ShowValue("Logs of {node_name} (y copies the URL; expires {expires_at:.16})", "{download_url}"),
        ),
    ),
    create=Lazy(DATA + "LOGS_PREPARE"),  # c: prepare logs for a time range (one per node)
)
