"""The sandbox's Instance network and grouping against spec 1 §2.4–2.6, §4.2, §8 and spec/4:
flexible IPs, security groups and rules, placement groups, private NICs, user data, compatible types."""

import pytest

from helpers import args
from tui.sandbox import DEMO_PROJECT_ID

pytestmark = pytest.mark.anyio
Z = "/instance/v1/zones/fr-par-1"


async def server_named(http, name: str) -> dict:
    servers = (await http.get(f"{Z}/servers", params={"name": name})).json()["servers"]
    return next(s for s in servers if s["name"] == name)


async def act(http, clock, sid: str, action: str, wait: float = 5) -> None:
    assert (await http.post(f"{Z}/servers/{sid}/action", json={"action": action})).status_code == 202
    clock.advance(wait)


# ---- flexible IPs -------------------------------------------------------------------------------
async def test_attaching_an_ip_replaces_the_servers_public_ip(http, clock):
    r = await http.post(f"{Z}/ips", json={"type": "routed_ipv4"})
    assert r.status_code == 400 and args(r) == {"project": "required"}
    ip = (await http.post(f"{Z}/ips", json={"project": DEMO_PROJECT_ID, "tags": ["lb"]})).json()["ip"]
    assert ip["state"] == "detached" and ip["server"] is None and ip["type"] == "routed_ipv4"
    server = await server_named(http, "web-02")
    old = server["public_ip"]["address"]
    r = await http.patch(f"{Z}/ips/{ip['id']}", json={"server": server["id"]})
    assert (
        r.status_code == 200 and r.json()["ip"]["server"]["id"] == server["id"] and r.json()["ip"]["state"] == "pending"
    )
    clock.advance(2)
    assert (await http.get(f"{Z}/ips/{ip['address']}")).json()["ip"]["state"] == "attached"  # by address too
    now = await server_named(http, "web-02")
    assert [p["address"] for p in now["public_ips"]] == [ip["address"]] and old not in str(now["public_ips"])
    r = await http.patch(f"{Z}/ips/{ip['id']}", json={"reverse": "not a host"})
    assert r.status_code == 400 and args(r) == {"reverse": "format"}
    r = await http.patch(f"{Z}/ips/{ip['id']}", json={"reverse": "web-02.example.com", "server": None})
    assert r.json()["ip"]["reverse"] == "web-02.example.com" and r.json()["ip"]["state"] == "detached"
    assert (await server_named(http, "web-02"))["public_ip"] is None
    assert (await http.delete(f"{Z}/ips/{ip['id']}")).status_code == 204
    assert (await http.get(f"{Z}/ips/{ip['id']}")).status_code == 404


# ---- security groups ----------------------------------------------------------------------------
async def test_security_group_defaults_rules_and_membership(http):
    r = await http.post(
        f"{Z}/security_groups", json={"name": "db", "project": DEMO_PROJECT_ID, "inbound_default_policy": "deny"}
    )
    assert r.status_code == 400 and args(r) == {"inbound_default_policy": "constraint"}
    sg = (
        await http.post(f"{Z}/security_groups", json={"name": "db", "project": DEMO_PROJECT_ID, "stateful": False})
    ).json()["security_group"]
    assert (
        sg["stateful"] is False
        and sg["inbound_default_policy"] == "accept"
        and sg["outbound_default_policy"] == "accept"
    )
    rules = f"{Z}/security_groups/{sg['id']}/rules"
    bad = [
        (
            {
                "protocol": "ICMP",
                "direction": "inbound",
                "action": "accept",
                "ip_range": "0.0.0.0/0",
                "dest_port_from": 22,
            },
            {"dest_port_from": "constraint"},
        ),
        (
            {"protocol": "TCP", "direction": "inbound", "action": "accept", "ip_range": "10.0.0.0/33"},
            {"ip_range": "format"},
        ),
        (
            {"protocol": "TCP", "direction": "sideways", "action": "accept", "ip_range": "10.0.0.0/8"},
            {"direction": "constraint"},
        ),
        (
            {
                "protocol": "TCP",
                "direction": "inbound",
                "action": "accept",
                "ip_range": "10.0.0.0/8",
                "dest_port_from": 90,
                "dest_port_to": 80,
            },
            {"dest_port_to": "constraint"},
        ),
    ]
    for body, expected in bad:
        r = await http.post(rules, json=body)
        assert r.status_code == 400 and args(r) == expected, body
    first = (
        await http.post(
            rules,
            json={
                "protocol": "TCP",
                "direction": "inbound",
                "action": "accept",
                "ip_range": "10.0.0.0/8",
                "dest_port_from": 5432,
            },
        )
    ).json()["rule"]
    assert first["position"] == 1 and first["editable"] is True
    put = await http.put(
        rules,
        json={
            "rules": [
                {
                    "protocol": "UDP",
                    "direction": "inbound",
                    "action": "accept",
                    "ip_range": "10.1.0.0/16",
                    "dest_port_from": 53,
                },
                {
                    "protocol": "TCP",
                    "direction": "outbound",
                    "action": "drop",
                    "ip_range": "0.0.0.0/0",
                    "dest_port_from": 1,
                    "dest_port_to": 1024,
                },
            ]
        },
    )
    assert put.status_code == 200 and [r["position"] for r in put.json()["rules"]] == [1, 2]
    listed = (await http.get(rules)).json()["rules"]
    assert [r["protocol"] for r in listed] == ["UDP", "TCP"], "PUT replaced the whole list"
    defaults = (await http.get(f"{Z}/security_groups/default/rules")).json()["rules"]
    assert defaults and all(not r["editable"] for r in defaults)
    server = await server_named(http, "bastion")
    r = await http.patch(f"{Z}/servers/{server['id']}", json={"security_group": {"id": sg["id"]}})
    assert r.json()["server"]["security_group"] == {"id": sg["id"], "name": "db"}
    r = await http.delete(f"{Z}/security_groups/{sg['id']}")
    assert r.status_code == 412 and "bastion" in r.json()["help_message"]
    default = next(
        g for g in (await http.get(f"{Z}/security_groups")).json()["security_groups"] if g["project_default"]
    )
    assert (await http.delete(f"{Z}/security_groups/{default['id']}")).status_code == 400


# ---- placement groups ---------------------------------------------------------------------------
async def test_placement_group_defaults_members_and_policy(http, clock):
    r = await http.post(
        f"{Z}/placement_groups", json={"name": "pack", "project": DEMO_PROJECT_ID, "policy_type": "nearby"}
    )
    assert r.status_code == 400 and args(r) == {"policy_type": "constraint"}
    pg = (await http.post(f"{Z}/placement_groups", json={"name": "pack", "project": DEMO_PROJECT_ID})).json()[
        "placement_group"
    ]
    assert (
        pg["policy_type"] == "max_availability" and pg["policy_mode"] == "optional" and pg["policy_respected"] is True
    )
    members = f"{Z}/placement_groups/{pg['id']}/servers"
    stopped = await server_named(http, "worker-batch-2")
    r = await http.put(members, json={"servers": [stopped["id"]]})
    assert r.status_code == 200 and r.json()["servers"] == [
        {"id": stopped["id"], "name": "worker-batch-2", "policy_respected": True}
    ]
    assert (await server_named(http, "worker-batch-2"))["placement_group"]["id"] == pg["id"]
    r = await http.delete(f"{Z}/placement_groups/{pg['id']}")
    assert r.status_code == 412
    r = await http.patch(
        f"{Z}/placement_groups/{pg['id']}", json={"policy_type": "low_latency", "policy_mode": "enforced"}
    )
    assert r.status_code == 200 and r.json()["placement_group"]["policy_mode"] == "enforced"
    assert (await http.put(members, json={"servers": []})).json()["servers"] == []
    assert (await http.delete(f"{Z}/placement_groups/{pg['id']}")).status_code == 204


async def test_a_crowded_optional_group_reports_its_policy_not_respected(http, sandbox):
    pg = (
        await http.post(
            f"{Z}/placement_groups", json={"name": "tight", "project": DEMO_PROJECT_ID, "policy_type": "low_latency"}
        )
    ).json()["placement_group"]
    ids = []
    for i in range(5):
        r = await http.post(
            f"{Z}/servers",
            json={"name": f"pg-{i}", "project": DEMO_PROJECT_ID, "commercial_type": "DEV1-S", "image": "ubuntu_noble"},
        )
        ids.append(r.json()["server"]["id"])
    r = await http.put(f"{Z}/placement_groups/{pg['id']}/servers", json={"servers": ids})
    assert r.status_code == 200 and not any(s["policy_respected"] for s in r.json()["servers"])
    r = await http.patch(f"{Z}/placement_groups/{pg['id']}", json={"policy_mode": "enforced"})
    assert r.status_code == 400 and "cannot hold 5" in r.json()["message"]


# ---- private NICs, user data, compatible types --------------------------------------------------
async def test_one_private_nic_per_network(http, clock):
    server = await server_named(http, "bastion")
    nics = f"{Z}/servers/{server['id']}/private_nics"
    r = await http.post(nics, json={"private_network_id": "not-a-uuid"})
    assert r.status_code == 400 and args(r) == {"private_network_id": "format"}
    pn = "0b8e3a8e-8f3e-4c8a-9a53-0a6c1a7c2b11"
    nic = (await http.post(nics, json={"private_network_id": pn})).json()["private_nic"]
    assert nic["state"] == "syncing" and nic["server_id"] == server["id"]
    again = await http.post(nics, json={"private_network_id": pn})
    assert again.status_code == 409 and again.json()["type"] == "already_exists"
    clock.advance(3)
    assert (await http.get(f"{nics}/{nic['id']}")).json()["private_nic"]["state"] == "available"
    assert [n["id"] for n in (await server_named(http, "bastion"))["private_nics"]] == [nic["id"]]
    patched = (await http.patch(f"{nics}/{nic['id']}", json={"tags": ["db"]})).json()
    assert patched["id"] == nic["id"] and patched["tags"] == ["db"], (
        "a PATCH answers the bare NIC, as the public clients read it"
    )
    assert (await http.delete(f"{nics}/{nic['id']}")).status_code == 204
    assert (await http.get(nics)).json()["private_nics"] == []


async def test_user_data_is_a_key_value_store_of_raw_text(http):
    server = await server_named(http, "web-01")
    base = f"{Z}/servers/{server['id']}/user_data"
    assert (await http.get(base)).json() == {"user_data": ["cloud-init"]}
    r = await http.patch(f"{base}/motd", content=b"hello\nworld\n", headers={"Content-Type": "text/plain"})
    assert r.status_code == 204
    got = await http.get(f"{base}/motd")
    assert (
        got.status_code == 200
        and got.content == b"hello\nworld\n"
        and got.headers["content-type"].startswith("text/plain")
    )
    assert (await http.get(base)).json() == {"user_data": ["cloud-init", "motd"]}
    assert (await http.patch(f"{base}/bad key", content=b"x")).status_code == 400
    assert (await http.delete(f"{base}/motd")).status_code == 204
    assert (await http.get(f"{base}/motd")).status_code == 404


async def test_compatible_types_and_changing_type_while_stopped(http, clock):
    server = await server_named(http, "worker-batch-2")  # GP1-XS, stopped, 150 GB l_ssd
    compatible = (await http.get(f"{Z}/servers/{server['id']}/compatible-types")).json()["compatible_types"]
    assert "GP1-S" in compatible and "COPARM1-2C-8G" not in compatible and "PRO2-XS" not in compatible
    r = await http.patch(f"{Z}/servers/{server['id']}", json={"commercial_type": "PRO2-XS"})
    assert r.status_code == 400 and "compatible" in r.json()["message"]
    r = await http.patch(f"{Z}/servers/{server['id']}", json={"commercial_type": "GP1-S"})
    assert r.status_code == 200 and r.json()["server"]["commercial_type"] == "GP1-S"
    running = await server_named(http, "web-01")
    r = await http.patch(f"{Z}/servers/{running['id']}", json={"commercial_type": "PRO2-S"})
    assert r.status_code == 400 and "powered off" in r.json()["message"]


async def test_icmp_and_any_rules_take_port_zero_as_no_port(http):
    sg = (await http.post(f"{Z}/security_groups", json={"name": "ports", "project": DEMO_PROJECT_ID})).json()[
        "security_group"
    ]
    rules = [
        {
            "protocol": "ICMP",
            "direction": "inbound",
            "action": "accept",
            "ip_range": "0.0.0.0/0",
            "dest_port_from": 0,
            "dest_port_to": 0,
        },
        {
            "protocol": "ANY",
            "direction": "outbound",
            "action": "drop",
            "ip_range": "10.0.0.0/8",
            "dest_port_from": 0,
            "dest_port_to": None,
        },
        {
            "protocol": "TCP",
            "direction": "inbound",
            "action": "accept",
            "ip_range": "0.0.0.0/0",
            "dest_port_from": 22,
            "dest_port_to": None,
        },
    ]
    r = await http.put(f"{Z}/security_groups/{sg['id']}/rules", json={"rules": rules})
    assert r.status_code == 200, r.text
    saved = r.json()["rules"]
    assert [(x["dest_port_from"], x["dest_port_to"]) for x in saved] == [(None, None), (None, None), (22, None)]
    bad = await http.put(f"{Z}/security_groups/{sg['id']}/rules", json={"rules": [{**rules[2], "dest_port_from": 0}]})
    assert bad.status_code == 400, "0 is no port only for ICMP and ANY"
