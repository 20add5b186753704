"""Form rules checked on their pydantic models (tests/unit/test_form_rules*.py): the sandbox reached as a product's
form options reach it (`World`), the contexts each form is opened with, and one rule's check (`check`).

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
from pydantic import BaseModel, ValidationError

from tui.api.client import ApiClient
from tui.products.kit.base import Context, Row
from tui.products.kit.location import ParentRef
from tui.products.manifest import by_id
from tui.products.kit.service import ResourceService
from tui.sandbox import DEMO_PROJECT_ID, DEMO_SECRET_KEY, ManualClock, Sandbox
from tui.ui.widgets.model_form import errors_by_field, form_values


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


async def open_world() -> Any:
    """The sandbox on a manual clock and a client to it over ASGI (the `world` fixture)."""
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


async def used_ip(w: World) -> dict[str, Any]:
    """The IP kept for reuse is taken by a new load balancer: the form opened before offers it still."""
    kept = next(iter((await lb_create(w))["kept"]))
    w.sandbox.lb.create("fr-par", {"name": "taker", "type": "LB-S"}, ip=w.sandbox.lb.ips.items["fr-par"][kept])
    return {"ip": kept}


async def instance_id(w: World, name: str) -> dict[str, Any]:
    return {"instance_id": (await w.row("rdb.instances", "fr-par", name)).id}


async def image(w: World) -> dict[str, Any]:
    images = (await servers(w))["images"]
    return {"image": next(i for i, im in images.items() if im.get("arch") == "x86_64")}


async def snapshot(w: World, name: str) -> dict[str, Any]:
    snaps = (await volumes(w))["snapshots"]
    return {"base_snapshot": next(sid for sid, s in snaps.items() if s.get("name") == name), "size_gb": ""}


async def nic_network(w: World) -> dict[str, Any]:  # web-01 joins PN
    server = await w.row("instance.servers", "fr-par-1", "web-01")
    await w.client.request(
        "POST", f"/instance/v1/zones/fr-par-1/servers/{server.id}/private_nics", json={"private_network_id": PN}
    )
    assert PN in (await nics(w))["taken"]
    return {}


async def bm_network(w: World, count: int = 0) -> dict[str, Any]:
    """The server joins PN (count=0) or other networks until it is in `count`."""
    server = await w.row("baremetal.servers", "fr-par-1", "edge-par")
    path = f"/baremetal/v2/zones/fr-par-1/servers/{server.id}/private-networks"
    have = len((await bm_networks(w))["taken"])
    for i in range(have, count) if count else [None]:
        pn = PN if i is None else f"00000000-0000-4000-8000-{i:012d}"
        await w.client.request("POST", path, json={"private_network_id": pn})
    assert len((await bm_networks(w))["taken"]) == (count or have + 1)
    return {}


async def full_server(w: World) -> dict[str, Any]:
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


async def check(world: World, rule: Rule) -> None:
    """The valid form is accepted; the change the rule refuses is refused under its field, in its words."""
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
