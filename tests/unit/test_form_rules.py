"""Every form rule, checked on its pydantic model with the context its form is opened with.

The context comes from the form's own options function against the sandbox over ASGI (the node
types, offers, stock, the networks a server is already in…), so a rule and the catalogue it reads
are checked together without a screen. Each case: a valid form, then one field changed to what
the rule refuses, and the message the form shows under that field. One Pilot test
(`tests/ui/test_ui_servers.py::test_invalid_input_is_refused_with_the_field_named_and_nothing_sent`)
proves a form shows such a message and sends nothing.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

import httpx
import pytest
from pydantic import BaseModel, ValidationError

from tui.api.client import ApiClient
from tui.products.base import Context, Row
from tui.products.location import ParentRef
from tui.products.manifest import by_id
from tui.products.service import ResourceService
from tui.sandbox import DEMO_PROJECT_ID, DEMO_SECRET_KEY, ManualClock, Sandbox
from tui.ui.widgets.model_form import errors_by_field, form_values

pytestmark = pytest.mark.anyio

PW = "Str0ng-pass!"
PN = "3f2d1c0b-aaaa-4bbb-8ccc-123456789abc"
GB = 1_000_000_000


@dataclass
class World:
    """The sandbox and a way to reach it as a product's form options do."""

    sandbox: Sandbox
    client: ApiClient

    def service(self, kind: str, parent: tuple[str, str, str] | None = None) -> ResourceService:
        """`kind`: a manifest entry's id, or module:NAME under tui.products for a child kind."""
        if ":" in kind:
            module, name = kind.split(":")
            found = getattr(importlib.import_module("tui.products." + module), name)
        else:
            found = by_id(kind).load()
        return ResourceService(
            self.client, found, ParentRef(*parent) if parent else None, context=lambda sc: Context(DEMO_PROJECT_ID, sc)
        )

    async def row(self, kind_id: str, scope: str, name: str) -> Row:
        return next(r for r in await self.service(kind_id).list_rows(scope) if r.name == name)

    async def options(
        self,
        fn: Callable[..., Awaitable[tuple[Any, dict[str, Any]]]],
        kind_id: str,
        scope: str,
        parent: tuple[str, str] | None = None,
    ) -> dict[str, Any]:
        """The context `fn` gives the form, for a child kind under the row (kind, name) `parent`."""
        ref = None
        if parent:
            p = await self.row(parent[0], scope, parent[1])
            ref = (p.id, p.name, scope)
        return (await fn(self.service(kind_id, ref), scope))[1]


@pytest.fixture
async def world():
    sandbox = Sandbox(clock=ManualClock())
    client = ApiClient("http://sb", DEMO_SECRET_KEY, transport=httpx.ASGITransport(sandbox.app))
    yield World(sandbox, client)
    await client.aclose()


def errors(model: type[BaseModel], typed: dict[str, Any], context: dict[str, Any] | None) -> dict[str, str]:
    """The messages a form shows for what was typed (text as typed, ticks as booleans)."""
    try:
        model.model_validate(form_values(model, typed), context=context or None)
    except ValidationError as exc:
        return errors_by_field(exc, model)
    return {}


# ---- the contexts, each from the options function its form is opened with ---------------------------------
async def rdb_catalogue(w: World) -> dict[str, Any]:
    from tui.products.rdb.instance_forms import catalogue

    return await w.options(catalogue, "rdb.instances", "fr-par")


async def rdb_acls(w: World) -> dict[str, Any]:
    from tui.products.rdb.data_forms import acl_options

    return await w.options(acl_options, "rdb.children:ACLS", "fr-par", parent=("rdb.instances", "orders-db"))


async def rdb_settings(w: World) -> dict[str, Any]:
    from tui.products.rdb.data_forms import setting_options

    return await w.options(setting_options, "rdb.children:SETTINGS", "fr-par", parent=("rdb.instances", "orders-db"))


async def rdb_one_setting(w: World) -> dict[str, Any]:  # the "change the value" form of one setting
    return {"spec": (await rdb_settings(w))["specs"]["autovacuum"]}


async def rdb_backups(w: World) -> dict[str, Any]:
    from tui.products.rdb.copy_forms import backup_options

    return await w.options(backup_options, "rdb.backups", "fr-par")


async def rdb_grow(w: World) -> dict[str, Any]:  # the upgrade flow: the catalogue and the instance as it is
    return {
        **await rdb_catalogue(w),
        "current": Row({"node_type": "DB-DEV-S", "volume": {"type": "bssd", "size": 50 * GB}}),
    }


async def kv_catalogue(w: World) -> dict[str, Any]:
    from tui.products.kvcache.forms import create_options

    return await w.options(create_options, "kvcache.clusters", "fr-par-1")


async def kv_settings(w: World) -> dict[str, Any]:  # the settings editor: the version's available settings
    version = (await kv_catalogue(w))["versions"]["7.2.4"]
    return {"specs": {s["name"]: s for s in version["available_settings"]}}


async def servers(w: World) -> dict[str, Any]:
    from tui.products.instance.server_forms import server_form_options

    return await w.options(server_form_options, "instance.servers", "fr-par-1")


async def extra_volume(w: World) -> dict[str, Any]:  # the volumes step after the create form, for a PRO2-XS
    return {"ctype": (await servers(w))["types"]["PRO2-XS"], "snapshots": {}, "volumes": {}}


async def volumes(w: World) -> dict[str, Any]:
    from tui.products.instance.volume_forms import volume_options

    return await w.options(volume_options, "instance.volumes", "fr-par-1")


async def nics(w: World) -> dict[str, Any]:
    from tui.products.instance.server_flows import nic_options

    return await w.options(nic_options, "instance.nics:PRIVATE_NICS", "fr-par-1", parent=("instance.servers", "web-01"))


async def offers(w: World) -> dict[str, Any]:
    from tui.products.baremetal.forms import order_options

    return await w.options(order_options, "baremetal.servers", "fr-par-1")


async def bm_networks(w: World) -> dict[str, Any]:
    from tui.products.baremetal.network_forms import add_options

    return await w.options(
        add_options, "baremetal.networks:PRIVATE_NETWORKS", "fr-par-1", parent=("baremetal.servers", "edge-par")
    )


async def silicon_types(w: World) -> dict[str, Any]:
    from tui.products.silicon.forms import create_options

    return await w.options(create_options, "silicon.servers", "fr-par-1")


async def fip_counts(w: World) -> dict[str, Any]:
    from tui.products.flexible_ip.flows import create_options

    return await w.options(create_options, "flexible_ip.fips", "fr-par-1")


async def lb_create(w: World) -> dict[str, Any]:
    from tui.products.lb.forms import create_options

    return await w.options(create_options, "lb.lbs", "fr-par")


async def lb_frontends(w: World) -> dict[str, Any]:  # web-lb's backends and the ports its frontends take
    from tui.products.lb.forms import frontend_options

    return await w.options(frontend_options, "lb.backends:FRONTENDS", "fr-par", parent=("lb.lbs", "web-lb"))


async def lb_backend_id(w: World) -> dict[str, Any]:
    return {"backend_id": next(iter((await lb_frontends(w))["backends"]))}


def literal(ctx: dict[str, Any]) -> Callable[[World], Awaitable[dict[str, Any]]]:
    async def make(w: World) -> dict[str, Any]:
        return ctx

    return make


@dataclass
class Rule:
    model: str  # module:Class under tui.products
    good: dict[str, Any]
    bad: dict[str, Any] | Callable[[World], Awaitable[dict[str, Any]]]  # the change the rule refuses
    field: str
    says: str
    context: Callable[[World], Awaitable[dict[str, Any]]] | None = None
    given: Callable[[World], Awaitable[dict[str, Any]]] | None = None  # values read from the world, in both forms

    def load(self) -> type[BaseModel]:
        module, name = self.model.split(":")
        return getattr(importlib.import_module("tui.products." + module), name)


RDB_NEW = {
    "name": "orders",
    "engine": "PostgreSQL-15",
    "node_type": "DB-DEV-S",
    "volume_type": "bssd",
    "volume_size": "10",
    "user_name": "admin",
    "password": PW,
}
KV_NEW = {
    "name": "sessions",
    "version": "7.2.4",
    "node_type": "RED1-S",
    "cluster_size": "3",
    "user_name": "app",
    "password": PW,
    "network": "private",
    "private_network_id": PN,
    "service_ips": "10.20.0.10/24, 10.20.0.11/24, 10.20.0.12/24",
}
SERVER_NEW = {"name": "web-02", "commercial_type": "PRO2-XS", "image": "", "volume_type": "sbs_volume"}
LB_NEW = {"name": "shop-lb", "type": "LB-S"}
HTTP_CHECK = {"check": {"kind": "http", "uri": "/health", "method": "GET", "code": 200}}
BACKEND_NEW = {
    "name": "site",
    "forward_protocol": "http",
    "forward_port": "80",
    "server_ip": "10.0.0.1, 2001:db8::2",
    "health_check": HTTP_CHECK,
}
FRONTEND_NEW = {"name": "alt", "inbound_port": "8080"}

RULES: dict[str, Rule] = {
    # ---- databases ---------------------------------------------------------------------------------
    "rdb create: block size in steps": Rule(
        "rdb.instance_forms:CreateForm",
        RDB_NEW,
        {"volume_size": "7"},
        "volume_size",
        "5 to 10000 GB, in steps of 5 GB",
        rdb_catalogue,
    ),
    "rdb create: local volume takes no size": Rule(
        "rdb.instance_forms:CreateForm",
        RDB_NEW,
        {"volume_type": "lssd"},
        "volume_size",
        "only a block volume (bssd) takes a size",
        rdb_catalogue,
    ),
    "rdb create: HA-only node type": Rule(
        "rdb.instance_forms:CreateForm",
        RDB_NEW,
        {"node_type": "DB-PRO2-M"},
        "is_ha_cluster",
        "runs only as a high-availability cluster",
        rdb_catalogue,
    ),
    "rdb create: node out of stock": Rule(
        "rdb.instance_forms:CreateForm",
        RDB_NEW,
        {"node_type": "DB-GP-L"},
        "node_type",
        "DB-GP-L is out of stock",
        rdb_catalogue,
    ),
    "rdb create: weak password": Rule(
        "rdb.instance_forms:CreateForm", RDB_NEW, {"password": "weakpass"}, "password", "upper-case", rdb_catalogue
    ),
    "rdb create: user name": Rule(
        "rdb.instance_forms:CreateForm",
        RDB_NEW,
        {"user_name": "9admin"},
        "user_name",
        "starting with a letter",
        rdb_catalogue,
    ),
    "rdb database: starts with a letter": Rule(
        "rdb.data_forms:DatabaseForm",
        {"name": "shop"},
        {"name": "9shop"},
        "name",
        "1 to 63 letters, digits, _ and -, starting with a letter or _",
    ),
    "rdb user: weak password": Rule(
        "rdb.data_forms:UserForm",
        {"name": "shopper", "password": PW},
        {"password": "shopper1"},
        "password",
        "upper-case",
    ),
    "rdb password: weak": Rule(
        "rdb.data_forms:PasswordForm", {"password": PW}, {"password": "password"}, "password", "upper-case"
    ),
    "rdb acl: not an address": Rule(
        "rdb.data_forms:AclForm",
        {"ip": "10.1.0.0/16"},
        {"ip": "300.1.2.3/32"},
        "ip",
        "an IP address or a network in CIDR notation",
        rdb_acls,
    ),
    "rdb acl: host bits set": Rule(
        "rdb.data_forms:AclForm",
        {"ip": "10.1.0.0/16"},
        {"ip": "10.1.2.3/16"},
        "ip",
        "did you mean 10.1.0.0/16",
        rdb_acls,
    ),
    "rdb acl: already allowed": Rule(
        "rdb.data_forms:AclForm",
        {"ip": "10.1.0.0/16"},
        {"ip": "203.0.113.7/32"},
        "ip",
        "203.0.113.7/32 is already allowed",
        rdb_acls,
    ),
    "rdb setting: init-only": Rule(
        "rdb.data_forms:SettingForm",
        {"name": "work_mem", "value": "64"},
        {"name": "lc_collate", "value": "C"},
        "name",
        "set only when the engine is initialised",
        rdb_settings,
    ),
    "rdb setting: boolean": Rule(
        "rdb.data_forms:SettingForm",
        {"name": "autovacuum", "value": "false"},
        {"value": "yes"},
        "value",
        "true or false",
        rdb_settings,
    ),
    "rdb setting: range": Rule(
        "rdb.data_forms:SettingForm",
        {"name": "work_mem", "value": "64"},
        {"value": "5000"},
        "value",
        "from 1 to 1024 MB",
        rdb_settings,
    ),
    "rdb setting value: boolean": Rule(
        "rdb.data_forms:ValueForm", {"value": "true"}, {"value": "maybe"}, "value", "true or false", rdb_one_setting
    ),
    "rdb replica: network is a UUID": Rule(
        "rdb.replica_forms:ReplicaForm",
        {"private_network_id": PN},
        {"private_network_id": "my-network"},
        "private_network_id",
        "UUID",
    ),
    "rdb replica: service IP needs a network": Rule(
        "rdb.replica_forms:ReplicaForm",
        {"direct_access": True},
        {"service_ip": "172.16.4.10/22"},
        "service_ip",
        "goes with a private network",
    ),
    "rdb replica: some endpoint": Rule(
        "rdb.replica_forms:ReplicaForm",
        {"direct_access": True},
        {"direct_access": False},
        "same_zone",
        "give the replica an endpoint",
    ),
    "rdb endpoint: private address": Rule(
        "rdb.instance_forms:PrivateEndpointForm",
        {"private_network_id": PN, "service_ip": "172.16.4.10/22"},
        {"service_ip": "8.8.8.8/24"},
        "service_ip",
        "RFC 1918",
    ),
    "rdb backup: database must exist": Rule(
        "rdb.copy_forms:BackupForm",
        {"database_name": "orders", "name": "adhoc"},
        {"database_name": "shop"},
        "database_name",
        "no database shop there",
        rdb_backups,
        given=lambda w: _instance_id(w, "orders-db"),
    ),
    "rdb backup: expiry in days": Rule(
        "rdb.copy_forms:BackupForm",
        {"database_name": "orders", "name": "adhoc"},
        {"expires_in_days": "0"},
        "expires_in_days",
        "",
        rdb_backups,
        given=lambda w: _instance_id(w, "orders-db"),
    ),
    "rdb from snapshot: HA-only node type": Rule(
        "rdb.copy_forms:FromSnapshotForm",
        {"instance_name": "launch-copy", "node_type": "DB-DEV-S"},
        {"node_type": "DB-PRO2-M"},
        "is_ha_cluster",
        "high-availability",
        rdb_catalogue,
    ),
    "rdb grow: never shrinks": Rule(
        "rdb.instance_forms:VolumeSizeForm",
        {"volume_size": "60"},
        {"volume_size": "40"},
        "volume_size",
        "larger than now (50 GB): a volume does not shrink",
        rdb_grow,
    ),
    "rdb grow: steps": Rule(
        "rdb.instance_forms:VolumeSizeForm",
        {"volume_size": "60"},
        {"volume_size": "62"},
        "volume_size",
        "in steps of 5 GB",
        rdb_grow,
    ),
    "rdb logs: hours": Rule("rdb.data_forms:LogsForm", {"hours": "2"}, {"hours": "0"}, "hours", "at least 1"),
    # ---- caches ---------------------------------------------------------------------------------------
    "cache create: cluster size": Rule(
        "kvcache.forms:CreateForm", KV_NEW, {"cluster_size": "2"}, "cluster_size", "3 to 6", kv_catalogue
    ),
    "cache create: private service IPs": Rule(
        "kvcache.forms:CreateForm",
        KV_NEW,
        {"service_ips": "8.8.8.8/24, 10.20.0.11/24, 10.20.0.12/24"},
        "service_ips",
        "RFC 1918",
        kv_catalogue,
    ),
    "cache create: one IP per node": Rule(
        "kvcache.forms:CreateForm",
        KV_NEW,
        {"service_ips": "10.20.0.10/24, 10.20.0.11/24"},
        "service_ips",
        "3 needed, 2 given",
        kv_catalogue,
    ),
    "cache edit: weak password": Rule(
        "kvcache.forms:EditForm",
        {"name": "sessions", "user_name": "app"},
        {"password": "short"},
        "password",
        "upper-case",
    ),
    "cache acl: host bits set": Rule(
        "kvcache.forms:AclRecord",
        {"ip_cidr": "192.168.7.0/24"},
        {"ip_cidr": "192.168.7.1/24"},
        "ip_cidr",
        "did you mean 192.168.7.0/24",
    ),
    "cache setting: range": Rule(
        "kvcache.forms:SettingRecord",
        {"name": "tcp-keepalive", "value": "300"},
        {"value": "9000"},
        "value",
        "from 0 to 7200",
        kv_settings,
    ),
    "cache nodes: 3 to 6": Rule(
        "kvcache.forms:SizeForm",
        {"cluster_size": "5"},
        {"cluster_size": "7"},
        "cluster_size",
        "3 to 6",
        literal({"current": 3}),
    ),
    "cache nodes: a change": Rule(
        "kvcache.forms:SizeForm",
        {"cluster_size": "5"},
        {"cluster_size": "3"},
        "cluster_size",
        "that is the size it has",
        literal({"current": 3}),
    ),
    # ---- instances --------------------------------------------------------------------------------------
    "server create: name": Rule(
        "instance.server_forms:ServerCreateForm",
        SERVER_NEW,
        {"name": "bad_name"},
        "name",
        "only letters, digits, dots, spaces and dashes",
        servers,
        given=lambda w: _image(w),
    ),
    "server create: no local storage on this type": Rule(
        "instance.server_forms:ServerCreateForm",
        SERVER_NEW,
        {"volume_type": "l_ssd", "volume_size_gb": "30"},
        "volume_type",
        "no local storage",
        servers,
        given=lambda w: _image(w),
    ),
    "extra volume: name": Rule(
        "instance.create_volumes:VolumeSpecForm",
        {"source": "empty", "volume_type": "sbs_volume", "name": "data", "size_gb": "20"},
        {"name": "bad_name"},
        "name",
        "only letters, digits, dots, spaces and dashes",
        extra_volume,
    ),
    "extra volume: size": Rule(
        "instance.create_volumes:VolumeSpecForm",
        {"source": "empty", "volume_type": "sbs_volume", "name": "data", "size_gb": "20"},
        {"size_gb": "20000"},
        "size_gb",
        "between 1 and 10000 GB",
        extra_volume,
    ),
    "rule: port range": Rule(
        "instance.network_forms:RuleForm",
        {"ip_range": "0.0.0.0/0", "protocol": "TCP", "dest_port_from": "22"},
        {"dest_port_from": "70000"},
        "dest_port_from",
        "between 1 and 65535",
    ),
    "volume create: empty needs a size": Rule(
        "instance.volume_forms:VolumeCreateForm",
        {"name": "data", "volume_type": "b_ssd", "size_gb": "20"},
        {"size_gb": ""},
        "size_gb",
        "required for an empty volume",
        volumes,
    ),
    "volume create: snapshot family": Rule(
        "instance.volume_forms:VolumeCreateForm",
        {"name": "data", "volume_type": "b_ssd", "size_gb": "20"},
        {"volume_type": "l_ssd"},
        "base_snapshot",
        "b_ssd snapshot makes b_ssd volumes only",
        volumes,
        given=lambda w: _snapshot(w, "gateway-golden-root"),
    ),
    "volume edit: only grows": Rule(
        "instance.volume_forms:VolumeEditForm",
        {"name": "data", "size_gb": "60"},
        {"size_gb": "40"},
        "size_gb",
        "a volume can only grow (now 50 GB)",
        literal({"current": Row({"size": 50 * GB, "volume_type": "b_ssd"})}),
    ),
    "snapshot export: bucket": Rule(
        "instance.snapshot_forms:ExportForm",
        {"bucket": "backups", "key": "root.qcow2"},
        {"bucket": "Bad_Bucket"},
        "bucket",
        "3 to 63 lower-case letters, digits, dots and dashes",
    ),
    "ip reverse: a domain name": Rule(
        "instance.network_forms:IpEditForm",
        {"reverse": "web.example.com"},
        {"reverse": "not a host"},
        "reverse",
        "fully qualified domain name",
    ),
    "nic: network is a UUID": Rule(
        "instance.server_flows:NicForm",
        {"private_network_id": PN},
        {"private_network_id": "my-network"},
        "private_network_id",
        "private network ID (UUID)",
        nics,
    ),
    "nic: one per network": Rule(
        "instance.server_flows:NicForm",
        {"private_network_id": PN},
        lambda w: _nic_network(w),
        "private_network_id",
        "one per network",
        nics,
    ),
    "name and tags: name": Rule(
        "instance.fields:NameTagsForm", {"name": "root-snap"}, {"name": "bad_name"}, "name", "only letters"
    ),
    # ---- bare metal, silicon, flexible IPs -------------------------------------------------------------------
    "bare metal order: out of stock": Rule(
        "baremetal.forms:OrderForm",
        {"name": "edge-2", "offer_id": "907bfe36-9786-48f8-a4de-82e6e82c7d7b"},
        {"offer_id": "a48b3dbe-157d-44a1-86f0-28ffa9ba5a27"},
        "offer_id",
        "out of stock",
        offers,
    ),
    "bare metal order: description": Rule(
        "baremetal.forms:OrderForm",
        {"name": "edge-2", "offer_id": "907bfe36-9786-48f8-a4de-82e6e82c7d7b"},
        {"description": "x" * 256},
        "description",
        "at most 255 characters",
        offers,
    ),
    "bare metal install: SSH keys": Rule(
        "baremetal.forms:InstallForm",
        {"os_id": "any", "hostname": "edge", "ssh_key_ids": PN},
        {"ssh_key_ids": "my-key"},
        "ssh_key_ids",
        "UUIDs",
    ),
    "bare metal install: an SSH key": Rule(
        "baremetal.forms:InstallForm",  # not "at least 1 items"
        {"os_id": "any", "hostname": "edge", "ssh_key_ids": PN},
        {"ssh_key_ids": ""},
        "ssh_key_ids",
        "at least one",
    ),
    "bare metal access: an address": Rule(
        "baremetal.forms:RemoteAccessForm", {"ip": "203.0.113.7"}, {"ip": "1.2.3"}, "ip", "IPv4 or IPv6"
    ),
    "bare metal network: a UUID": Rule(
        "baremetal.network_forms:AddForm",
        {"private_network_id": PN},
        {"private_network_id": "net"},
        "private_network_id",
        "UUID",
        bm_networks,
    ),
    "bare metal network: already in": Rule(
        "baremetal.network_forms:AddForm",
        {"private_network_id": PN},
        lambda w: _bm_network(w),
        "private_network_id",
        "already in this private network",
        bm_networks,
    ),
    "bare metal network: at most 8": Rule(
        "baremetal.network_forms:AddForm",
        {"private_network_id": PN},
        lambda w: _bm_network(w, 8),
        "private_network_id",
        "at most 8 private networks",
        bm_networks,
    ),
    "silicon create: stock": Rule(
        "silicon.forms:CreateForm",
        {"type": "M2-L", "name": "build-1"},
        {"type": "M1-M"},
        "type",
        "no stock",
        silicon_types,
    ),
    "silicon create: name": Rule(
        "silicon.forms:CreateForm",
        {"type": "M2-L", "name": "build-1"},
        {"name": "build 1!"},
        "name",
        "only letters",
        silicon_types,
    ),
    "flexible IP: description": Rule(
        "flexible_ip.flows:CreateForm",
        {"description": "vip"},
        {"description": "x" * 256},
        "description",
        "at most 255 characters",
        fip_counts,
    ),
    "flexible IP: reverse": Rule(
        "flexible_ip.flows:CreateForm",
        {"description": "vip"},
        {"reverse": "not a host!"},
        "reverse",
        "host name",
        fip_counts,
    ),
    # ---- load balancers --------------------------------------------------------------------------------------
    "lb create: out of stock": Rule(
        "lb.forms:CreateForm", LB_NEW, {"type": "LB-GP-XL"}, "type", "LB-GP-XL is out of stock", lb_create
    ),
    "lb create: a kept IP only": Rule(
        "lb.forms:CreateForm", LB_NEW, lambda w: _used_ip(w), "ip", "not kept for reuse", lb_create
    ),
    "lb backend: cookie sessions need a name": Rule(
        "lb.backend_forms:BackendForm",
        BACKEND_NEW,
        {"sticky_sessions": "cookie"},
        "sticky_sessions_cookie_name",
        "required with cookie sessions",
    ),
    "lb backend: a server is an address": Rule(
        "lb.backend_forms:BackendForm",
        BACKEND_NEW,
        {"server_ip": "10.0.0.1, 10.0.0.300"},
        "server_ip",
        "10.0.0.300 is not an IPv4 or IPv6 address",
    ),
    "lb backend: a server listed once": Rule(
        "lb.backend_forms:BackendForm",
        BACKEND_NEW,
        {"server_ip": "10.0.0.1, 10.0.0.1"},
        "server_ip",
        "10.0.0.1 is listed twice",
    ),
    "lb backend: forward port": Rule(
        "lb.backend_forms:BackendForm", BACKEND_NEW, {"forward_port": "70000"}, "forward_port", "at most 65535"
    ),
    "lb health check: URI is a path": Rule(
        "lb.backend_forms:BackendForm",
        BACKEND_NEW,
        {"health_check": {"check": {"kind": "http", "uri": "health"}}},
        "health_check.check.http.uri",
        "a path starting with /",
    ),
    "lb health check: code is an HTTP status": Rule(
        "lb.backend_forms:BackendForm",
        BACKEND_NEW,
        {"health_check": {"check": {"kind": "https", "uri": "/", "code": 700}}},
        "health_check.check.https.code",
        "at most 599",
    ),
    "lb health check: a database check logs in": Rule(
        "lb.backend_forms:BackendForm",
        BACKEND_NEW,
        {"health_check": {"check": {"kind": "pgsql", "user": ""}}},
        "health_check.check.pgsql.user",
        "required",
    ),
    "lb health check: retries": Rule(
        "lb.backend_forms:BackendForm",
        BACKEND_NEW,
        {"health_check": {**HTTP_CHECK, "check_max_retries": -1}},
        "health_check.check_max_retries",
        "at least 0",
    ),
    "lb frontend: a port per frontend": Rule(
        "lb.forms:FrontendForm",
        FRONTEND_NEW,
        {"inbound_port": "443"},
        "inbound_port",
        "frontend api-tls of this load balancer listens on 443 already",
        lb_frontends,
        given=lb_backend_id,
    ),
    "lb frontend: port range": Rule(
        "lb.forms:FrontendForm",
        FRONTEND_NEW,
        {"inbound_port": "0"},
        "inbound_port",
        "at least 1",
        lb_frontends,
        given=lb_backend_id,
    ),
    "lb frontend: protocol": Rule(
        "lb.forms:FrontendCreateForm",
        FRONTEND_NEW,
        {"inbound_protocol": "udp"},
        "inbound_protocol",
        "tcp",
        lb_frontends,
        given=lb_backend_id,
    ),
    "lb frontend: certificates are UUIDs": Rule(
        "lb.forms:FrontendForm",
        FRONTEND_NEW,
        {"certificate_ids": "my-cert"},
        "certificate_ids",
        "UUIDs",
        lb_frontends,
        given=lb_backend_id,
    ),
    "flexible IP: 64 per server": Rule(
        "flexible_ip.flows:CreateForm",
        {"description": "vip"},
        lambda w: _full_server(w),
        "server_id",
        "at most 64",
        fip_counts,
    ),
}


async def _used_ip(w: World) -> dict[str, Any]:
    """The IP kept for reuse is taken by a new load balancer: the form opened before offers it still."""
    kept = next(iter((await lb_create(w))["kept"]))
    w.sandbox.lb.create("fr-par", {"name": "taker", "type": "LB-S"}, ip=w.sandbox.lb.ips.items["fr-par"][kept])
    return {"ip": kept}


async def _instance_id(w: World, name: str) -> dict[str, Any]:
    return {"instance_id": (await w.row("rdb.instances", "fr-par", name)).id}


async def _image(w: World) -> dict[str, Any]:
    images = (await servers(w))["images"]
    return {"image": next(i for i, im in images.items() if im.get("arch") == "x86_64")}


async def _snapshot(w: World, name: str) -> dict[str, Any]:
    snaps = (await volumes(w))["snapshots"]
    return {"base_snapshot": next(sid for sid, s in snaps.items() if s.get("name") == name), "size_gb": ""}


async def _nic_network(w: World) -> dict[str, Any]:  # web-01 joins PN
    server = await w.row("instance.servers", "fr-par-1", "web-01")
    await w.client.request(
        "POST", f"/instance/v1/zones/fr-par-1/servers/{server.id}/private_nics", json={"private_network_id": PN}
    )
    assert PN in (await nics(w))["taken"]
    return {}


async def _bm_network(w: World, count: int = 0) -> dict[str, Any]:
    """The server joins PN (count=0) or other networks until it is in `count`."""
    server = await w.row("baremetal.servers", "fr-par-1", "edge-par")
    path = f"/baremetal/v2/zones/fr-par-1/servers/{server.id}/private-networks"
    have = len((await bm_networks(w))["taken"])
    for i in range(have, count) if count else [None]:
        pn = PN if i is None else f"00000000-0000-4000-8000-{i:012d}"
        await w.client.request("POST", path, json={"private_network_id": pn})
    assert len((await bm_networks(w))["taken"]) == (count or have + 1)
    return {}


async def _full_server(w: World) -> dict[str, Any]:
    server = await w.row("instance.servers", "fr-par-1", "web-01")
    for _ in range(64):
        w.sandbox.fip.create("fr-par-1", {"project_id": DEMO_PROJECT_ID, "server_id": server.id})
    return {"server_id": server.id}


async def registry_names(w: World) -> dict[str, Any]:
    from tui.products.container_registry.forms import namespace_options

    return await w.options(namespace_options, "registry.namespaces", "fr-par")


async def monitoring_tokens(w: World) -> dict[str, Any]:
    """An activated monitoring holding a token named prometheus-prod."""
    from tui.products.monitoring.forms import token_options

    await w.client.send_json("POST", "/monitoring/v1beta1/activate", {"project_id": DEMO_PROJECT_ID})
    w.sandbox.clock.advance(60)
    await w.client.send_json(
        "POST",
        "/monitoring/v1beta1/tokens",
        {"project_id": DEMO_PROJECT_ID, "name": "prometheus-prod", "scopes": {"write_metrics": True}},
    )
    return await w.options(token_options, "monitoring.kinds:TOKENS", "global")


async def monitoring_contacts(w: World) -> dict[str, Any]:
    """An activated monitoring sending its alerts to ops@example.com."""
    from tui.products.monitoring.forms import contact_options

    await w.client.send_json("POST", "/monitoring/v1beta1/activate", {"project_id": DEMO_PROJECT_ID})
    w.sandbox.clock.advance(60)
    await w.client.send_json(
        "POST",
        "/monitoring/v1beta1/contact-points",
        {"project_id": DEMO_PROJECT_ID, "contact_point": {"email": {"to": "ops@example.com"}}},
    )
    return await w.options(contact_options, "monitoring.kinds:CONTACT_POINTS", "global")


async def dns_zone_example(w: World) -> dict[str, Any]:  # the name-server editor of example.com
    from tui.products.dns.forms import nameserver_options

    zone = next(r for r in await w.service("dns.zones").list_rows("global") if r.id == "example.com")
    return (await nameserver_options(None, zone))[1]


async def staged_records(w: World) -> dict[str, Any]:  # a staging form's context: the zone's other records as staged
    return {
        "rows": [
            {"name": "beside", "type": "A", "data": "192.0.2.1"},
            {"name": "alias", "type": "CNAME", "data": "example.com."},
        ]
    }


A_RECORD = {"name": "www", "type": "A", "data": "192.0.2.10"}
WEIGHTED = {"kind": "weighted", "weights": "192.0.2.1=3"}  # a variant's fields, as the form collects them
VIEWS = {"kind": "view", "views": "10.0.0.0/8=10.1.2.3"}
HTTP = {"kind": "http_service", "ips": ["192.0.2.1"], "url": "https://example.com/health", "must_contain": "OK"}
GEO = {"kind": "geo_ip", "matches": "FR,DE=192.0.2.1", "default": "192.0.2.9"}
RECORD = "dns.records:RecordForm"
RULES.update(
    {  # the network-facing products: DNS records by type, domains, zones, the registry
        "dns record: A is IPv4": Rule(RECORD, A_RECORD, {"data": "2001:db8::1"}, "data", "an IPv4 address"),
        "dns record: AAAA is IPv6": Rule(
            RECORD,
            {**A_RECORD, "type": "AAAA", "data": "2001:db8::1"},
            {"data": "192.0.2.1"},
            "data",
            "an IPv6 address",
        ),
        "dns record: MX needs a priority": Rule(
            RECORD,
            {"name": "@", "type": "MX", "data": "mx.example.com.", "priority": "10"},
            {"priority": ""},
            "priority",
            "needs a priority",
        ),
        "dns record: SRV data shape": Rule(
            RECORD,
            {"name": "_sip._tcp", "type": "SRV", "data": "5 5060 sip.example.com.", "priority": "10"},
            {"data": "5060 sip.example.com."},
            "data",
            "weight port target",
        ),
        "dns record: CNAME target a name": Rule(
            RECORD,
            {"name": "www", "type": "CNAME", "data": "example.com."},
            {"data": "not a name!"},
            "data",
            "host name",
        ),
        "dns record: no CNAME at the root": Rule(
            RECORD, {"name": "www", "type": "CNAME", "data": "example.com."}, {"name": "@"}, "type", "use ALIAS"
        ),
        "dns record: a CNAME stands alone (issue 32 item 19)": Rule(
            RECORD,
            {"name": "other", "type": "CNAME", "data": "example.com."},
            {"name": "beside"},
            "type",
            "beside already holds A",
            staged_records,
        ),
        "dns record: nothing beside a CNAME": Rule(
            RECORD, A_RECORD, {"name": "alias"}, "type", "alias holds a CNAME", staged_records
        ),
        "dns record: TXT quotes pair up (issue 32 item 20)": Rule(
            RECORD,
            {"name": "@", "type": "TXT", "data": '"v=spf1 mx" "~all"'},
            {"data": '"v=spf1 mx ~all'},
            "data",
            "quotes come in pairs",
        ),
        "dns record: CAA shape": Rule(
            RECORD,
            {"name": "@", "type": "CAA", "data": '0 issue "letsencrypt.org"'},
            {"data": "issue letsencrypt.org"},
            "data",
            "flags tag",
        ),
        "dns record: TLSA shape": Rule(
            RECORD,
            {"name": "_443._tcp", "type": "TLSA", "data": "3 1 1 0a1b2c"},
            {"data": "3 1 1 xyz"},
            "data",
            "usage selector",
        ),
        "dns record: TTL bounds": Rule(RECORD, A_RECORD, {"ttl": "30"}, "ttl", "at least 60"),
        "dns record: a label's characters": Rule(RECORD, A_RECORD, {"name": "bad name"}, "name", "letters, digits"),
        "dns record: the apex is @ on purpose": Rule(RECORD, A_RECORD, {"name": ""}, "name", "required"),
        "dns record: weighted IPs": Rule(
            RECORD,
            {**A_RECORD, "dynamic": WEIGHTED},
            {"dynamic": {**WEIGHTED, "weights": "192.0.2.1=300"}},
            "dynamic.weighted.weights",
            "0 to 255",
        ),
        "dns record: weighted is A or AAAA": Rule(
            RECORD, {**A_RECORD, "dynamic": WEIGHTED}, {"type": "TXT", "data": "hello"}, "dynamic", "of type A or AAAA"
        ),
        "dns record: dynamic answers of the record's family": Rule(
            RECORD,
            {**A_RECORD, "dynamic": {"kind": "weighted", "weights": "192.0.2.80=5"}},
            {"dynamic": {"kind": "weighted", "weights": "192.0.2.80=5\n2001:db8::80=1"}},
            "dynamic",
            "an A record answers IPv4 addresses: 2001:db8::80 is not",
        ),
        "dns record: views by subnet in CIDR": Rule(
            RECORD,
            {**A_RECORD, "dynamic": VIEWS},
            {"dynamic": {**VIEWS, "views": "10.0.0.1/8=10.1.2.3"}},
            "dynamic.view.views",
            "CIDR",
        ),
        "dns record: HTTP check URL": Rule(
            RECORD,
            {**A_RECORD, "dynamic": HTTP},
            {"dynamic": {**HTTP, "url": "example.com/health"}},
            "dynamic.http_service.url",
            "http:// or https://",
        ),
        "dns record: geo-IP places": Rule(
            RECORD,
            {**A_RECORD, "dynamic": GEO},
            {"dynamic": {**GEO, "matches": "France=192.0.2.1"}},
            "dynamic.geo_ip.matches",
            "two-letter ISO code",
        ),
        "dns record: geo-IP needs everyone else": Rule(
            RECORD,
            {**A_RECORD, "dynamic": GEO},
            {"dynamic": {**GEO, "default": ""}},
            "dynamic.geo_ip.default",
            "required",
        ),
        "dns domain: two labels": Rule(
            "dns.forms:RegisterForm",
            {"domain": "example.shop"},
            {"domain": "localhost"},
            "domain",
            "at least two labels",
        ),
        "dns domain: host labels": Rule(
            "dns.forms:RegisterForm",
            {"domain": "my-shop.example"},
            {"domain": "bad_x.com"},
            "domain",
            "'_' is for records",
        ),
        "dns domain: a top-level label of letters": Rule(
            "dns.forms:RegisterForm", {"domain": "bücher.example"}, {"domain": "example.123"}, "domain", "last label"
        ),
        "dns zone: sub-domain label": Rule(
            "dns.forms:ZoneForm",
            {"domain": "example.com", "subdomain": "shop"},
            {"subdomain": "-shop"},
            "subdomain",
            "not starting or ending with '-'",
        ),
        "dns name server: glue IPs": Rule(
            "dns.forms:NameServer",
            {"name": "ns1.example.com", "ip": "192.0.2.53"},
            {"ip": "192.0.2"},
            "ip",
            "IPv4 or IPv6",
        ),
        "dns name server: inside the zone needs glue": Rule(
            "dns.forms:NameServer",
            {"name": "ns1.example.net", "ip": ""},
            {"name": "ns1.example.com"},
            "ip",
            "give its glue IPs",
            dns_zone_example,
        ),
        "registry namespace: name rule": Rule(
            "container_registry.forms:NamespaceForm",
            {"name": "team-images"},
            {"name": "Team_Images"},
            "name",
            "lower-case letters",
        ),
        "monitoring token: unique in the instance": Rule(
            "monitoring.forms:TokenForm",
            {"name": "loki-prod"},
            {"name": "prometheus-prod"},
            "name",
            "already a token's name",
            monitoring_tokens,
        ),
        "monitoring token: a preset sets the scopes": Rule(
            "monitoring.forms:TokenForm",
            {"name": "t", "preset": "logs_pusher", "scopes": ["write_logs"]},
            {"scopes": ["write_logs", "query_logs"]},
            "scopes",
            "choose custom",
        ),
        "monitoring token: custom scopes ticked": Rule(
            "monitoring.forms:TokenForm",
            {"name": "t", "preset": "custom", "scopes": ["query_metrics"]},
            {"scopes": []},
            "scopes",
            "tick at least one scope",
        ),
        "monitoring contact point: not twice, whatever its case": Rule(
            "monitoring.forms:ContactForm",
            {"to": "oncall@example.com"},
            {"to": "OPS@example.com"},
            "to",
            "already a contact point",
            monitoring_contacts,
        ),
        "monitoring contact point: an e-mail": Rule(
            "monitoring.forms:ContactForm", {"to": "ops@example.com"}, {"to": "ops.example.com"}, "to", "e-mail address"
        ),
        "monitoring dashboard user: login": Rule(
            "monitoring.forms:UserForm", {"login": "alice"}, {"login": "alice smith"}, "login", "letters, digits"
        ),
        "inference model: archive URL": Rule(
            "inference.forms:ModelForm",
            {"name": "m", "path": "https://example.com/m.zip"},
            {"path": "ftp://example.com/m.zip"},
            "path",
            "http or https URL",
        ),
        "inference model: a framework offered": Rule(
            "inference.forms:ModelForm",
            {"name": "m", "path": "https://example.com/m.zip", "framework": "onnx:latest"},
            {"framework": "onnx:2.0.0"},
            "framework",
            "backends and versions offered",
        ),
        "inference model: input_type a numeric type": Rule(
            "inference.forms:ModelForm",
            {"name": "m", "path": "https://example.com/m.zip", "config": "input_type=int8"},
            {"config": "input_type=text"},
            "config",
            "numeric type name",
        ),
        "registry namespace: unique in its region": Rule(
            "container_registry.forms:NamespaceForm",
            {"name": "team-images"},
            {"name": "web"},
            "name",
            "already a namespace in fr-par",
            registry_names,
        ),
    }
)


@pytest.mark.parametrize("name", list(RULES))
async def test_form_rule(world, name):
    rule = RULES[name]
    model = rule.load()
    context = await rule.context(world) if rule.context else None
    good = {**rule.good, **(await rule.given(world) if rule.given else {})}
    assert errors(model, good, context) == {}, "the valid form is accepted"
    if callable(rule.bad):  # the world changes, then the form is opened again
        bad = {**good, **await rule.bad(world)}
        context = await rule.context(world) if rule.context else None
    else:
        bad = {**good, **rule.bad}
    found = errors(model, bad, context)
    assert rule.field in found, found
    assert rule.says in found[rule.field]


def _form_models() -> list[type[BaseModel]]:
    import inspect
    import pkgutil

    import tui.products as products

    found = []
    for info in pkgutil.walk_packages(products.__path__, "tui.products."):
        if ".models" in info.name or info.name.endswith((".manifest", ".catalogue")):
            continue
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if (
                issubclass(cls, BaseModel)
                and cls.__module__ == module.__name__
                and cls.model_config.get("extra") == "forbid"
            ):
                found.append(cls)
    return found


@pytest.mark.parametrize("model", _form_models(), ids=lambda m: f"{m.__module__.split('.', 2)[2]}.{m.__name__}")
def test_every_message_states_a_rule_not_pydantic_words(model):
    """Whatever is typed in any field of any form, the message under it is in the console's words
    ("at most 255 characters", "a whole number", "required"), never pydantic's sentence."""
    for typed in ("x" * 300, "-5", "99999999999", "not a value ✖", ""):
        found = errors(model, {name: typed for name in model.model_fields if not _is_bool(model, name)}, None)
        for field, message in found.items():
            assert not any(w in message for w in ("should", "Input", "String", "Value error", "pattern")), (
                field,
                typed,
                message,
            )


def _is_bool(model: type[BaseModel], name: str) -> bool:
    return model.model_fields[name].annotation is bool


def test_a_first_port_out_of_range_is_the_one_error_of_a_port_range():
    from pydantic import ValidationError

    from tui.products.instance.network_forms import RuleForm

    with pytest.raises(ValidationError) as caught:
        RuleForm.model_validate(
            {"ip_range": "0.0.0.0/0", "protocol": "TCP", "dest_port_from": 70000, "dest_port_to": 70010}
        )
    assert [e["loc"] for e in caught.value.errors()] == [
        ("dest_port_from",),
        ("dest_port_to",),
    ]  # each out of range, said once each
    with pytest.raises(ValidationError) as caught:
        RuleForm.model_validate(
            {"ip_range": "0.0.0.0/0", "protocol": "TCP", "dest_port_from": 70000, "dest_port_to": 80}
        )
    assert [(e["loc"], e["msg"]) for e in caught.value.errors()] == [
        (("dest_port_from",), "Value error, between 1 and 65535")
    ]


def test_a_new_frontend_sends_the_protocol_chosen_and_an_edit_leaves_it():
    from tui.products.lb.forms import FRONTEND_CREATE, FRONTEND_EDIT

    form = FRONTEND_CREATE.form_model.model_validate(
        {"name": "web", "inbound_port": 80, "backend_id": "b1", "inbound_protocol": "http"}
    )
    assert (
        FRONTEND_CREATE.to_payload(form, Context(DEMO_PROJECT_ID, "fr-par"))["inbound_protocol"] == "http"
    )  # spec 3 §2.3
    assert (
        "inbound_protocol" not in FRONTEND_EDIT.form_model.model_fields
    )  # a creation field: the update does not carry it
