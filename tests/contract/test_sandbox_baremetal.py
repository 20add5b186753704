"""The sandbox's bare-metal API against spec 1 §2.7, §3, §4.3, §8 and spec/4 "Bare metal v1alpha1"."""

from __future__ import annotations

import pytest

from helpers import args

pytestmark = pytest.mark.anyio
B = "/baremetal/v1alpha1/zones/fr-par-2"
KEY = "3f2c8a8e-1d4b-4c2e-9b7a-5e6f7a8b9c0d"


async def offer_named(http, name, zone="fr-par-2"):
    offers = (await http.get(f"/baremetal/v1alpha1/zones/{zone}/offers")).json()["offers"]
    return next(o for o in offers if o["name"] == name)


async def server_named(http, name):
    return next(
        s for s in (await http.get(f"{B}/servers", params={"page_size": 100})).json()["servers"] if s["name"] == name
    )


async def test_lists_page_with_page_size_and_total_count_and_filter(http):
    page = (await http.get(f"{B}/servers", params={"page": 1, "page_size": 2})).json()
    assert page["total_count"] == 5 and len(page["servers"]) == 2
    ready = (await http.get(f"{B}/servers", params=[("status", "ready"), ("status", "stopped")])).json()
    assert {s["status"] for s in ready["servers"]} == {"ready", "stopped"} and ready["total_count"] == 4
    assert [s["name"] for s in (await http.get(f"{B}/servers", params={"name": "db-"})).json()["servers"]] == [
        "db-primary",
        "db-standby",
    ]
    r = await http.get("/baremetal/v1alpha1/zones/pl-waw-1/servers")
    assert r.status_code == 400 and "zone" in args(r)


async def test_an_order_is_checked_then_delivered_with_time(http, sandbox, clock):
    offer = await offer_named(http, "EM-A115X-SSD")
    bad = await http.post(
        f"{B}/servers",
        json={"offer_id": offer["id"], "description": "x" * 256, "organization_id": sandbox.organization_id},
    )
    assert bad.status_code == 400 and args(bad) == {"name": "required", "description": "constraint"}
    empty = await offer_named(http, "EM-T210E-NVME")
    r = await http.post(
        f"{B}/servers", json={"offer_id": empty["id"], "name": "x", "organization_id": sandbox.organization_id}
    )
    assert args(r) == {"offer_id": "constraint"}
    created = (
        await http.post(
            f"{B}/servers",
            json={"offer_id": offer["id"], "name": "new-box", "organization_id": sandbox.organization_id},
        )
    ).json()
    assert created["status"] == "undelivered" and created["install"] is None
    r = await http.post(f"{B}/servers/{created['id']}/start", json={})
    assert r.status_code == 400 and r.json() == {"type": "invalid_request_error", "message": "Server is not delivered"}
    clock.advance(31)
    assert (await http.get(f"{B}/servers/{created['id']}")).json()["status"] == "ready"


async def test_install_moves_to_install_installing_completed_and_checks_its_fields(http, clock):
    box = await server_named(http, "build-farm")
    oses = (await http.get(f"{B}/os", params={"offer_id": box["offer_id"]})).json()["os"]
    assert "Windows Server" not in {o["name"] for o in oses}  # only what the offer takes
    r = await http.post(
        f"{B}/servers/{box['id']}/install",
        json={"os_id": oses[0]["id"], "hostname": "bad host", "ssh_key_ids": ["nope"]},
    )
    assert args(r) == {"hostname": "format", "ssh_key_ids": "format"}
    r = await http.post(f"{B}/servers/{box['id']}/install", json={"os_id": oses[0]["id"], "hostname": "build-farm"})
    assert args(r) == {"ssh_key_ids": "required"}
    done = await http.post(
        f"{B}/servers/{box['id']}/install",
        json={"os_id": oses[0]["id"], "hostname": "build-farm", "ssh_key_ids": [KEY]},
    )
    assert done.json()["install"]["status"] == "to_install"
    clock.advance(4)
    assert (await http.get(f"{B}/servers/{box['id']}")).json()["install"]["status"] == "installing"
    clock.advance(20)
    assert (await http.get(f"{B}/servers/{box['id']}")).json()["install"]["status"] == "completed"
    events = (await http.get(f"{B}/servers/{box['id']}/events", params={"order_by": "created_at_desc"})).json()
    assert events["event"][0]["action"] == "installed" and events["total_count"] == len(events["event"])


async def test_power_and_rescue_reboot_follow_the_seen_sequence(http, clock):
    box = await server_named(http, "db-standby")
    r = await http.post(f"{B}/servers/{box['id']}/reboot", json={"boot_type": "rescue"})
    assert r.json()["status"] == "stopping"
    clock.advance(5)
    assert (await http.get(f"{B}/servers/{box['id']}")).json()["status"] == "starting"
    clock.advance(5)
    now = (await http.get(f"{B}/servers/{box['id']}")).json()
    assert now["status"] == "ready" and now["boot_type"] == "rescue"
    assert (await http.post(f"{B}/servers/{box['id']}/start", json={})).status_code == 400  # already running
    assert (await http.post(f"{B}/servers/{box['id']}/stop", json={})).json()["status"] == "stopping"
    clock.advance(5)
    assert (await http.get(f"{B}/servers/{box['id']}")).json()["status"] == "stopped"


async def test_remote_access_and_reverse_dns(http, clock):
    box = await server_named(http, "db-primary")
    r = await http.post(f"{B}/servers/{box['id']}/remote-access", json={"ip": "not an ip"})
    assert args(r) == {"ip": "format"}
    access = (await http.post(f"{B}/servers/{box['id']}/remote-access", json={"ip": "203.0.113.7"})).json()
    assert set(access) == {"url", "login", "password", "expires_at", "ip"}
    assert (await http.get(f"{B}/servers/{box['id']}/remote-access")).json()["password"] == access["password"]
    assert (await http.delete(f"{B}/servers/{box['id']}/remote-access")).status_code == 204
    assert (await http.get(f"{B}/servers/{box['id']}/remote-access")).status_code == 404
    ip = box["ips"][0]
    patched = (await http.patch(f"{B}/servers/{box['id']}/ips/{ip['id']}", json={"reverse": "db.example.com"})).json()
    assert patched["reverse"] == "db.example.com" and patched["reverse_status"] == "pending"
    clock.advance(5)
    again = (await http.get(f"{B}/servers/{box['id']}")).json()["ips"][0]
    assert again["reverse_status"] == "active"


async def test_delete_goes_through_deleting(http, clock):
    box = await server_named(http, "spare-01")
    assert (await http.delete(f"{B}/servers/{box['id']}")).json()["status"] == "deleting"
    clock.advance(6)
    assert (await http.get(f"{B}/servers/{box['id']}")).status_code == 404


async def test_private_networks_add_list_replace_remove_and_the_limit(http, clock):
    edge = next(
        s
        for s in (await http.get("/baremetal/v1alpha1/zones/fr-par-1/servers")).json()["servers"]
        if s["name"] == "edge-par"
    )
    pns = f"/baremetal/v2/zones/fr-par-1/servers/{edge['id']}/private-networks"
    listed = (await http.get(pns)).json()
    assert listed["total_count"] == 2 and {a["status"] for a in listed["server_private_networks"]} == {"attached"}
    r = await http.post(pns, json={"private_network_id": "nope"})
    assert args(r) == {"private_network_id": "format"}
    added = (await http.post(pns, json={"private_network_id": "7d4d2f30-9e3c-4b0a-9f5d-3c4d5e6f7081"})).json()
    assert added["status"] == "attaching" and isinstance(added["vlan"], int)
    clock.advance(6)
    assert {a["status"] for a in (await http.get(pns)).json()["server_private_networks"]} == {"attached"}
    nine = [f"00000000-0000-4000-8000-00000000000{i}" for i in range(9)]
    r = await http.put(pns, json={"private_network_ids": nine})
    assert args(r) == {"private_network_ids": "constraint"}
    kept = (await http.put(pns, json={"private_network_ids": nine[:2]})).json()["server_private_networks"]
    assert sorted(a["private_network_id"] for a in kept) == nine[:2]
    assert (await http.delete(f"{pns}/{nine[0]}")).status_code == 204
    clock.advance(6)
    assert [a["private_network_id"] for a in (await http.get(pns)).json()["server_private_networks"]] == [nine[1]]
    r = await http.get(f"/baremetal/v2/zones/fr-par-2/servers/{edge['id']}/private-networks")
    assert r.status_code == 400 and "zone" in args(r)
