"""Every form rule of the compute products (instances, bare metal, silicon, flexible IPs) and load balancers,
checked on its pydantic model (tests/form_rules.py)."""

from __future__ import annotations

import pytest

from form_rules import (
    Rule,
    BACKEND_NEW,
    FRONTEND_NEW,
    GB,
    HTTP_CHECK,
    LB_NEW,
    PN,
    SERVER_NEW,
    bm_network,
    full_server,
    image,
    nic_network,
    snapshot,
    used_ip,
    bm_networks,
    check,
    extra_volume,
    fip_counts,
    lb_backend_id,
    lb_create,
    lb_frontends,
    literal,
    nics,
    offers,
    servers,
    silicon_types,
    volumes,
)
from tui.products.kit.base import Row

pytestmark = pytest.mark.anyio


RULES: dict[str, Rule] = {
    # ---- instances --------------------------------------------------------------------------------------
    "server create: name": Rule(
        "instance.server_forms:ServerCreateForm",
        SERVER_NEW,
        {"name": "bad_name"},
        "name",
        "only letters, digits, dots, spaces and dashes",
        servers,
        given=lambda w: image(w),
    ),
    "server create: no local storage on this type": Rule(
        "instance.server_forms:ServerCreateForm",
        SERVER_NEW,
        {"volume_type": "l_ssd", "volume_size_gb": "30"},
        "volume_type",
        "no local storage",
        servers,
        given=lambda w: image(w),
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
        given=lambda w: snapshot(w, "gateway-golden-root"),
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
        lambda w: nic_network(w),
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
        lambda w: bm_network(w),
        "private_network_id",
        "already in this private network",
        bm_networks,
    ),
    "bare metal network: at most 8": Rule(
        "baremetal.network_forms:AddForm",
        {"private_network_id": PN},
        lambda w: bm_network(w, 8),
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
        "lb.forms:CreateForm", LB_NEW, lambda w: used_ip(w), "ip", "not kept for reuse", lb_create
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
    "lb frontend: a certificate given twice, whatever its case": Rule(
        "lb.forms:FrontendForm",
        FRONTEND_NEW,
        {"certificate_ids": f"{PN}, {PN.upper()}"},
        "certificate_ids",
        "is listed twice",
        lb_frontends,
        given=lb_backend_id,
    ),
    "flexible IP: 64 per server": Rule(
        "flexible_ip.flows:CreateForm",
        {"description": "vip"},
        lambda w: full_server(w),
        "server_id",
        "at most 64",
        fip_counts,
    ),
}


@pytest.mark.parametrize("name", list(RULES))
async def test_form_rule(world, name):
    await check(world, RULES[name])


def test_a_security_group_rule_of_one_port_is_that_port_so_it_compares_with_the_same_rule():
    from tui.products.instance.network_forms import RuleForm

    one = RuleForm(ip_range="0.0.0.0/0", protocol="TCP", dest_port_from=80, dest_port_to=80)
    assert (one.dest_port_from, one.dest_port_to) == (80, None)
    assert one.model_dump() == RuleForm(ip_range="0.0.0.0/0", protocol="TCP", dest_port_from=80).model_dump()
