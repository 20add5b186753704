"""The sandbox's load balancers against spec 3 §2.3, §3, §4.3, §8 and spec/4 "Load balancer"."""

from __future__ import annotations

import pytest

from helpers import args

pytestmark = pytest.mark.anyio
R = "/lb/v1/regions/fr-par"
CHECK = {
    "port": 80,
    "check_delay": 3000,
    "check_timeout": 1000,
    "check_max_retries": 3,
    "http_config": {"uri": "/health", "code": 200},
}


def backend(**extra):
    return {
        "name": "b",
        "forward_protocol": "http",
        "forward_port": 80,
        "server_ip": ["10.0.0.1", "2001:db8::1"],
        "health_check": CHECK,
        **extra,
    }


async def lb_named(http, name, base=R):
    return next(lb for lb in (await http.get(f"{base}/lbs")).json()["lbs"] if lb["name"] == name)


async def test_a_load_balancer_comes_up_with_the_clock_and_is_ha_only_when_both_instances_are_ready(
    http, sandbox, clock
):
    r = await http.post(f"{R}/lbs", json={"project_id": sandbox.project_id, "name": "new", "type": "lb-s"})
    lb = r.json()
    assert (
        r.status_code == 200
        and lb["status"] == "to_create"
        and [i["status"] for i in lb["instances"]] == ["pending", "pending"]
    )
    assert len(lb["ip"]) == 1 and lb["ip"][0]["lb_id"] == lb["id"] and lb["type"] == "LB-S"
    clock.advance(1)
    assert (await http.get(f"{R}/lbs/{lb['id']}")).json()["status"] == "creating"
    clock.advance(2)
    ready = (await http.get(f"{R}/lbs/{lb['id']}")).json()
    assert ready["status"] == "ready" and {i["status"] for i in ready["instances"]} == {"ready"}
    db = await lb_named(http, "db-proxy")
    assert [i["status"] for i in db["instances"]] == ["ready", "error"]  # seeded: not highly available


async def test_create_and_put_refuse_what_the_spec_refuses(http, sandbox):
    base = {"project_id": sandbox.project_id, "name": "x", "type": "LB-S"}
    assert args(await http.post(f"{R}/lbs", json={**base, "organization_id": sandbox.organization_id})) == {
        "project_id": "constraint"
    }
    assert args(await http.post(f"{R}/lbs", json={**base, "type": "LB-GP-XL"})) == {
        "type": "constraint"
    }  # out of stock
    assert args(await http.post(f"{R}/lbs", json={**base, "ssl_compatibility_level": "tls13"})) == {
        "ssl_compatibility_level": "constraint"
    }
    web = await lb_named(http, "web-lb")
    assert args(await http.post(f"{R}/lbs", json={**base, "ip_id": web["ip"][0]["id"]})) == {
        "ip_id": "constraint"
    }  # one IP, one load balancer
    assert args(await http.put(f"{R}/lbs/{web['id']}", json={"name": "web"})) == {"description": "required"}
    r = await http.put(
        f"{R}/lbs/{web['id']}",
        json={"name": "web", "description": "", "ssl_compatibility_level": "ssl_compatibility_level_modern"},
    )
    assert r.json()["name"] == "web" and r.json()["ssl_compatibility_level"] == "ssl_compatibility_level_modern"


async def test_deleting_keeps_the_ip_for_reuse_or_releases_it(http, sandbox, clock):
    web = await lb_named(http, "web-lb")
    ip = web["ip"][0]
    assert (await http.delete(f"{R}/lbs/{web['id']}", params={"release_ip": "false"})).status_code == 204
    assert (await http.get(f"{R}/lbs/{web['id']}")).json()["status"] == "to_delete"
    clock.advance(4)
    assert (await http.get(f"{R}/lbs/{web['id']}")).status_code == 404
    kept = (await http.get(f"{R}/ips/{ip['id']}")).json()
    assert kept["lb_id"] is None and kept["ip_address"] == ip["ip_address"]
    again = (
        await http.post(
            f"{R}/lbs", json={"project_id": sandbox.project_id, "name": "again", "type": "LB-S", "ip_id": ip["id"]}
        )
    ).json()
    assert again["ip"][0]["ip_address"] == ip["ip_address"]
    clock.advance(3)
    await http.delete(f"{R}/lbs/{again['id']}", params={"release_ip": "true"})
    clock.advance(4)
    assert (await http.get(f"{R}/ips/{ip['id']}")).status_code == 404


async def test_a_backend_takes_exactly_one_health_check_and_valid_server_ips(http, clock):
    web = await lb_named(http, "web-lb")
    path = f"{R}/lbs/{web['id']}/backends"
    assert args(await http.post(path, json=backend(server_ip=["10.0.0.300"]))) == {"server_ip.0": "format"}
    two = {**CHECK, "tcp_config": {}}
    assert args(await http.post(path, json=backend(health_check=two))) == {"health_check": "constraint"}
    assert args(await http.post(path, json=backend(health_check={**CHECK, "http_config": {"uri": "health"}}))) == {
        "health_check.http_config.uri": "format"
    }
    pg = {"port": 5432, "pgsql_config": {}}
    assert args(await http.post(path, json=backend(health_check=pg))) == {"health_check.pgsql_config.user": "required"}
    assert args(await http.post(path, json=backend(forward_port_algorithm="random"))) == {
        "forward_port_algorithm": "constraint"
    }
    made = (
        await http.post(path, json=backend(health_check={**CHECK, "check_delay": "2.5s"}))
    ).json()  # newer clients send durations as strings
    assert made["pool"] == ["10.0.0.1", "2001:db8::1"] and made["health_check"]["check_delay"] == 2500
    assert made["health_check"]["http_config"]["method"] == "GET"
    r = await http.put(f"{R}/backends/{made['id']}/servers", json={"server_ip": ["10.0.0.9"]})
    assert r.json()["pool"] == ["10.0.0.9"]
    r = await http.put(f"{R}/backends/{made['id']}/healthcheck", json={"port": 81, "tcp_config": {}})
    assert r.json()["port"] == 81 and "tcp_config" in r.json() and "http_config" not in r.json()
    r = await http.put(
        f"{R}/backends/{made['id']}",
        json={"name": "b2", "forward_protocol": "tcp", "forward_port": 8080, "timeout_server": "10s"},
    )
    assert r.json()["name"] == "b2" and r.json()["timeout_server"] == 10_000 and r.json()["pool"] == ["10.0.0.9"]
    lb = (await http.get(f"{R}/lbs/{web['id']}")).json()
    assert lb["backend_count"] == 3


async def test_frontends_listen_on_distinct_ports_and_a_used_backend_cannot_go(http):
    web = await lb_named(http, "web-lb")
    backends = (await http.get(f"{R}/lbs/{web['id']}/backends")).json()["backends"]
    site = next(b for b in backends if b["name"] == "web-servers")
    path = f"{R}/lbs/{web['id']}/frontends"
    assert args(await http.post(path, json={"name": "dup", "inbound_port": 80, "backend_id": site["id"]})) == {
        "inbound_port": "constraint"
    }
    assert args(await http.post(path, json={"name": "x", "inbound_port": 70000, "backend_id": site["id"]})) == {
        "inbound_port": "constraint"
    }
    made = (
        await http.post(
            path, json={"name": "alt", "inbound_port": 8080, "backend_id": site["id"], "timeout_client": 5000}
        )
    ).json()
    assert made["backend"]["id"] == site["id"] and made["lb"]["id"] == web["id"] and made["certificate_ids"] == []
    r = await http.delete(f"{R}/backends/{site['id']}")
    assert r.status_code == 412 and "http" in r.json()["help_message"]
    assert (await http.delete(f"{R}/frontends/{made['id']}")).status_code == 204


async def test_newer_clients_reach_the_same_load_balancers_by_zone(http):
    by_region = await lb_named(http, "web-lb")
    by_zone = await lb_named(http, "web-lb", "/lb/v1/zones/fr-par-1")
    assert by_zone["id"] == by_region["id"]
    assert (await http.get("/lb/v1/zones/fr-par-1/lb-types")).json()["total_count"] == 4
    assert (await http.get("/lb/v1/zones/xx-yyy-1/lbs")).status_code == 400


async def test_a_frontend_is_created_with_its_inbound_protocol(http):
    web = await lb_named(http, "web-lb")
    site = next(
        b for b in (await http.get(f"{R}/lbs/{web['id']}/backends")).json()["backends"] if b["name"] == "web-servers"
    )
    path, body = f"{R}/lbs/{web['id']}/frontends", {"name": "alt", "inbound_port": 8080, "backend_id": site["id"]}
    made = await http.post(path, json={**body, "inbound_protocol": "http"})  # spec 3 §2.3: a creation field
    assert made.status_code == 200, made.text
    assert made.json()["inbound_protocol"] == "http"
    assert (await http.get(f"{R}/frontends/{made.json()['id']}")).json()["inbound_protocol"] == "http"
    assert args(await http.post(path, json={**body, "inbound_port": 8081, "inbound_protocol": "udp"})) == {
        "inbound_protocol": "constraint"
    }


async def test_backends_and_frontends_are_deleted_under_their_load_balancer(http):
    web, db = await lb_named(http, "web-lb"), await lb_named(http, "db-proxy")
    site = next(
        b for b in (await http.get(f"{R}/lbs/{web['id']}/backends")).json()["backends"] if b["name"] == "web-servers"
    )
    front = (
        await http.post(
            f"{R}/lbs/{web['id']}/frontends", json={"name": "alt", "inbound_port": 8080, "backend_id": site["id"]}
        )
    ).json()
    spare = (await http.post(f"{R}/lbs/{web['id']}/backends", json=backend(name="spare"))).json()
    # spec 3 §4.3: DELETE /lbs/{lb_id}/frontends/{frontend_id} and /lbs/{lb_id}/backends/{backend_id}; not another's
    assert (await http.delete(f"{R}/lbs/{db['id']}/frontends/{front['id']}")).status_code == 404
    assert (await http.delete(f"{R}/lbs/{web['id']}/frontends/{front['id']}")).status_code == 204
    assert (await http.get(f"{R}/frontends/{front['id']}")).status_code == 404
    assert (await http.delete(f"{R}/lbs/{db['id']}/backends/{spare['id']}")).status_code == 404
    assert (await http.delete(f"{R}/lbs/{web['id']}/backends/{spare['id']}")).status_code == 204
    assert (
        await http.delete(f"{R}/lbs/{web['id']}/backends/{site['id']}")
    ).status_code == 412  # a frontend still uses it
