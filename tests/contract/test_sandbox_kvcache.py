"""The sandbox's key-value cache against spec 2 §2.1, §3.1, §4.1, §8 and spec/4 "Key-value cache"."""

from __future__ import annotations

import base64

import pytest

from helpers import args

pytestmark = pytest.mark.anyio
K = "/kvcache/v1/zones/fr-par-1"
PN = "5b2b0d1e-7c1a-4f8e-9d3b-1a2b3c4d5e6f"
PW = "Str0ng-pass!"


def body(sandbox, **extra):
    return {
        "project_id": sandbox.project_id,
        "name": "c1",
        "version": "7.0.5",
        "node_type": "RED1-S",
        "user_name": "u",
        "password": PW,
        **extra,
    }


async def by_name(http, name, zone="fr-par-1"):
    listed = (await http.get(f"/kvcache/v1/zones/{zone}/clusters", params={"page_size": 100})).json()["clusters"]
    return next(c for c in listed if c["name"] == name)


async def test_create_enforces_the_spec_rules(http, sandbox):
    r = await http.post(f"{K}/clusters", json={"name": "x"})
    assert args(r) == {
        "project_id": "required",
        "version": "required",
        "node_type": "required",
        "user_name": "required",
        "password": "required",
    }
    r = await http.post(f"{K}/clusters", json=body(sandbox, cluster_size=2))
    assert args(r) == {"cluster_size": "constraint"}
    r = await http.post(f"{K}/clusters", json=body(sandbox, password="short"))
    assert args(r) == {"password": "constraint"}
    r = await http.post(f"{K}/clusters", json=body(sandbox, node_type="RED1-L"))
    assert args(r) == {"node_type": "constraint"}  # out of stock
    ips = ["10.1.0.2/24", "10.1.0.3/24"]
    r = await http.post(
        f"{K}/clusters",
        json=body(sandbox, cluster_size=3, endpoints=[{"private_network": {"id": PN, "service_ips": ips}}]),
    )
    assert args(r) == {"endpoints.0.private_network.service_ips": "constraint"}  # one per node
    r = await http.post(
        f"{K}/clusters",
        json=body(
            sandbox, cluster_size=3, endpoints=[{"private_network": {"id": PN, "service_ips": [*ips, "8.8.8.8/24"]}}]
        ),
    )
    assert args(r) == {"endpoints.0.private_network.service_ips": "constraint"}  # RFC 1918 only
    r = await http.post(f"{K}/clusters", json=body(sandbox, cluster_settings=[{"name": "maxclients", "value": "0"}]))
    assert args(r) == {"cluster_settings.0.value": "constraint"}
    r = await http.post(f"{K}/clusters", json=body(sandbox, acl_rules=[{"ip_cidr": "300.0.0.0/8"}]))
    assert args(r) == {"acl_rules.0.ip_cidr": "format"}


async def test_a_cluster_provisions_then_migrates_one_field_at_a_time(http, sandbox, clock):
    ips = ["10.1.0.2/24", "10.1.0.3/24", "10.1.0.4/24"]
    c = (
        await http.post(
            f"{K}/clusters",
            json=body(
                sandbox,
                cluster_size=3,
                tls_enabled=True,
                endpoints=[{"private_network": {"id": PN, "service_ips": ips}}],
            ),
        )
    ).json()
    assert c["status"] == "provisioning" and c["endpoints"][0]["private_network"]["service_ips"] == ips
    clock.advance(20)
    assert (await http.get(f"{K}/clusters/{c['id']}")).json()["status"] == "initializing"
    clock.advance(10)
    assert (await http.get(f"{K}/clusters/{c['id']}")).json()["status"] == "ready"
    r = await http.post(f"{K}/clusters/{c['id']}/migrate", json={"cluster_size": 5, "node_type": "RED1-M"})
    assert args(r) == {"body": "constraint"}
    moving = (await http.post(f"{K}/clusters/{c['id']}/migrate", json={"cluster_size": 5})).json()
    assert moving["status"] == "configuring" and moving["cluster_size"] == 3
    r = await http.post(f"{K}/clusters/{c['id']}/migrate", json={"node_type": "RED1-M"})
    assert r.status_code == 409 and r.json()["current_state"] == "configuring"
    clock.advance(15)
    done = (await http.get(f"{K}/clusters/{c['id']}")).json()
    assert (
        done["status"] == "ready"
        and done["cluster_size"] == 5
        and len(done["endpoints"][0]["private_network"]["service_ips"]) == 5
    )
    r = await http.post(f"{K}/clusters/{c['id']}/migrate", json={"version": "6.2.7"})
    assert args(r) == {"version": "constraint"}  # not in upgradable_versions
    cert = (await http.get(f"{K}/clusters/{c['id']}/certificate")).json()
    assert cert["name"] == "SSL_c1.pem" and base64.b64decode(cert["content"]).startswith(b"-----BEGIN CERTIFICATE-----")
    renewed = (await http.post(f"{K}/clusters/{c['id']}/renew-certificate")).json()
    assert renewed["id"] == c["id"]
    assert (await http.get(f"{K}/clusters/{c['id']}/certificate")).json()["content"] != cert["content"]


async def test_standalone_does_not_scale_out_and_delete_settles_to_404(http, sandbox, clock):
    web = await by_name(http, "cache-web")
    r = await http.post(f"{K}/clusters/{web['id']}/migrate", json={"cluster_size": 3})
    assert args(r) == {"cluster_size": "constraint"}
    gone = (await http.delete(f"{K}/clusters/{web['id']}")).json()
    assert gone["status"] == "deleting"
    clock.advance(5)
    assert (await http.get(f"{K}/clusters/{web['id']}")).status_code == 404


async def test_acls_settings_metrics_and_the_catalogue(http, sandbox):
    s = await by_name(http, "sessions")
    r = await http.put(
        f"{K}/clusters/{s['id']}/acls", json={"acl_rules": [{"ip_cidr": "192.168.0.0/16", "description": "office"}]}
    )
    assert r.json()["total_count"] == 1 and r.json()["acl_rules"][0]["ip_cidr"] == "192.168.0.0/16"
    r = await http.put(f"{K}/clusters/{s['id']}/settings", json={"settings": [{"name": "nope", "value": "1"}]})
    assert args(r) == {"settings.0.name": "constraint"}
    r = await http.put(
        f"{K}/clusters/{s['id']}/settings", json={"settings": [{"name": "tcp-keepalive", "value": "60"}]}
    )
    assert r.json()["settings"] == [{"name": "tcp-keepalive", "value": "60"}]
    ts = (await http.get(f"{K}/clusters/{s['id']}/metrics", params={"metric_name": "cpu_usage_percent"})).json()[
        "timeseries"
    ]
    assert len(ts) == 3 and all(t["name"] == "cpu_usage_percent" and t["points"] for t in ts)  # one per node
    assert isinstance(ts[0]["points"][0][0], str) and isinstance(ts[0]["points"][0][1], float)
    r = await http.get(
        f"{K}/clusters/{s['id']}/metrics", params={"start_at": "2026-01-02T00:00:00Z", "end_at": "2026-01-01T00:00:00Z"}
    )
    assert args(r) == {"start_at": "constraint"}
    default = [v["version"] for v in (await http.get(f"{K}/cluster-versions")).json()["versions"]]
    every = (
        await http.get(f"{K}/cluster-versions", params={"include_beta": "true", "include_deprecated": "true"})
    ).json()["versions"]
    assert default == ["7.0.5"] and {v["version"] for v in every} == {"6.2.7", "7.0.5", "7.2.4"}
    types = (await http.get(f"{K}/node-types")).json()
    assert "RED1-2XS" not in {t["name"] for t in types["node_types"]} and types["total_count"] == len(
        types["node_types"]
    )
    r = await http.get("/kvcache/v1/zones/fr-par-3/clusters")
    assert args(r) == {"zone": "constraint"}  # the six zones of spec 2 §2.1 only
