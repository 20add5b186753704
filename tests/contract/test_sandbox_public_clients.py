"""The sandbox answers what the platform's public client libraries send, unchanged (each test
names the client function it mirrors), and refuses a field only where the platform would."""

from __future__ import annotations

import pytest

from tui.sandbox import DEMO_PROJECT_ID
from tui.sandbox.constants import DEMO_ORGANIZATION_ID

pytestmark = pytest.mark.anyio

LB = "/lb/v1/zones/fr-par-1"


# ---- DNS (`/domain/v2beta1`), as DomainV2Beta1API and DomainV2Beta1RegistrarAPI send it ----------
DNS = "/domain/v2beta1"


async def test_dns_zones_and_records_are_listed_with_the_clients_parameters(http):
    # list_dns_zones: `domain` is always sent (empty for every zone), with the profile's project and organisation
    base = {
        "page": 1,
        "page_size": 20,
        "project_id": DEMO_PROJECT_ID,
        "organization_id": DEMO_ORGANIZATION_ID,
        "order_by": "domain_asc",
    }
    every = (await http.get(f"{DNS}/dns-zones", params={**base, "domain": ""})).json()
    assert every["total_count"] == len(every["dns_zones"]) > 3
    one = (await http.get(f"{DNS}/dns-zones", params={**base, "domain": "example.com"})).json()
    assert {z["domain"] for z in one["dns_zones"]} == {"example.com"} and {
        "ns",
        "ns_default",
        "ns_master",
        "linked_products",
    } <= set(one["dns_zones"][0])
    # list_dns_zone_records: `name` is always sent; the Python client's RecordType is lower case ("a")
    recs = (
        await http.get(
            f"{DNS}/dns-zones/example.com/records",
            params={
                "name": "",
                "order_by": "name_asc",
                "page": 1,
                "page_size": 20,
                "project_id": DEMO_PROJECT_ID,
                "type": "a",
            },
        )
    ).json()
    assert recs["total_count"] >= 1 and {r["type"] for r in recs["records"]} == {"A"}
    # list_dns_zone_versions
    listed = (await http.get(f"{DNS}/dns-zones/example.com/versions", params={"page": 1, "page_size": 20})).json()
    assert listed["total_count"] == len(listed["versions"]) and set(listed["versions"][0]) == {"id", "created_at"}
    # list_domains (its booleans as the client's query renders them)
    external = (
        await http.get(
            f"{DNS}/domains",
            params={
                "is_external": "True",
                "order_by": "domain_asc",
                "page": 1,
                "page_size": 20,
                "project_id": DEMO_PROJECT_ID,
                "organization_id": DEMO_ORGANIZATION_ID,
            },
        )
    ).json()
    assert external["domains"] and all(d["is_external"] for d in external["domains"])


async def test_dns_records_are_changed_as_marshal_update_dns_zone_records_sends_them(http):
    # marshal_Record sends `id` (empty for a new record), `priority` and `type` always; marshal_RecordChange one key
    # per change
    new = {"data": "192.0.2.40", "name": "api2", "priority": 0, "ttl": 3600, "type": "a", "id": ""}
    body = {
        "changes": [
            {"add": {"records": [new]}},
            {
                "set": {
                    "id_fields": {"name": "api2", "type": "a", "data": "192.0.2.40"},
                    "records": [{**new, "data": "192.0.2.41", "comment": "moved"}],
                }
            },
        ],
        "disallow_new_zone_creation": False,
        "return_all_records": False,
        "serial": 0,
    }
    r = await http.patch(f"{DNS}/dns-zones/shop.example.com/records", json=body)
    assert r.status_code == 200, r.text
    assert [(x["name"], x["type"], x["data"], x["comment"]) for x in r.json()["records"]] == [
        ("api2", "A", "192.0.2.41", "moved")
    ]


async def test_an_external_domain_is_registered_as_register_external_domain_sends_it(http):
    # DomainV2Beta1RegistrarAPI.register_external_domain: POST /external-domains {domain, project_id}
    r = await http.post(f"{DNS}/external-domains", json={"domain": "client.example", "project_id": DEMO_PROJECT_ID})
    assert r.status_code == 200, r.text
    assert set(r.json()) == {"domain", "organization_id", "project_id", "validation_token", "created_at"}
    summary = (await http.get(f"{DNS}/domains", params={"domain": "client.example"})).json()["domains"][0]
    assert summary["external_domain_registration_status"] == {"validation_token": r.json()["validation_token"]}


# ---- Load balancers (`/lb/v1`), as ZonedApi sends it ----------------------------------------------
async def test_lb_backends_and_frontends_take_every_field_the_clients_send(http):
    web = next(lb for lb in (await http.get(f"{LB}/lbs")).json()["lbs"] if lb["name"] == "web-lb")
    check = {
        "port": 80,
        "check_max_retries": 2,
        "check_send_proxy": False,
        "check_delay": "3s",
        "check_timeout": "1s",
        "transient_check_delay": "0.5s",
        "http_config": {"uri": "/health", "method": "GET", "code": 200, "host_header": "shop.example.com"},
    }
    # marshal_ZonedApiCreateBackendRequest (durations as strings with their unit, `host` for the Host header / SNI)
    body = {
        "name": "site-2",
        "forward_protocol": "http",
        "forward_port": 8080,
        "forward_port_algorithm": "roundrobin",
        "sticky_sessions": "none",
        "sticky_sessions_cookie_name": "",
        "health_check": check,
        "server_ip": ["10.0.9.1"],
        "send_proxy_v2": False,
        "timeout_server": "30s",
        "timeout_connect": "5s",
        "timeout_tunnel": "15m",
        "on_marked_down_action": "on_marked_down_action_none",
        "proxy_protocol": "proxy_protocol_none",
        "failover_host": "",
        "ssl_bridging": False,
        "ignore_ssl_server_verify": False,
        "redispatch_attempt_count": 0,
        "max_retries": 3,
        "max_connections": 0,
        "timeout_queue": "0s",
        "host": "shop.example.com",
    }
    r = await http.post(f"{LB}/lbs/{web['id']}/backends", json=body)
    assert r.status_code == 200, r.text
    # marshal_ZonedApiCreateFrontendRequest
    front = {
        "name": "alt",
        "inbound_port": 8080,
        "backend_id": r.json()["id"],
        "timeout_client": "30s",
        "certificate_ids": [],
        "enable_http3": False,
        "connection_rate_limit": 0,
        "enable_access_logs": False,
    }
    f = await http.post(f"{LB}/lbs/{web['id']}/frontends", json=front)
    assert f.status_code == 200, f.text
    # ZonedApi.delete_frontend / delete_backend call /frontends/{id}, /backends/{id}; spec 3 §4.3 nests them under the
    # load balancer
    assert (await http.delete(f"{LB}/frontends/{f.json()['id']}")).status_code == 204
    assert (await http.delete(f"{LB}/lbs/{web['id']}/backends/{r.json()['id']}")).status_code == 204
