"""The sandbox's flexible IPs for bare metal against spec 1 §2.8, §4.4, §8 and spec/4 "Flexible IPs"."""

from __future__ import annotations

import pytest

from helpers import args

pytestmark = pytest.mark.anyio
F = "/flexible-ip/v1alpha1/zones/fr-par-2"


async def servers(http):
    return {
        s["name"]: s["id"]
        for s in (await http.get("/baremetal/v1alpha1/zones/fr-par-2/servers", params={"page_size": 100})).json()[
            "servers"
        ]
    }


async def fips(http, **params):
    return (await http.get(f"{F}/fips", params={"page_size": 100, **params})).json()


async def test_create_checks_then_settles_and_ipv6_is_a_64(http, sandbox, clock):
    r = await http.post(f"{F}/fips", json={"description": "x" * 256})
    assert args(r) == {"project_id": "required", "description": "constraint"}
    v6 = (await http.post(f"{F}/fips", json={"project_id": sandbox.project_id, "is_ipv6": True})).json()
    assert v6["status"] == "updating" and v6["ip_address"].endswith("::/64")
    clock.advance(4)
    assert (await http.get(f"{F}/fips/{v6['id']}")).json()["status"] == "ready"
    listed = await fips(http)
    assert listed["total_count"] == 5 and len(listed["flexible_ips"]) == 5


async def test_attach_and_detach_take_lists_and_a_mac_group_moves_together(http, clock):
    ids = await servers(http)
    on_primary = (await fips(http, server_ids=ids["db-primary"]))["flexible_ips"]
    assert (
        len(on_primary) == 2
        and on_primary[0]["mac_address"]["mac_address"] == on_primary[1]["mac_address"]["mac_address"]
    )
    one = [on_primary[0]["id"]]
    r = await http.post(f"{F}/fips/attach", json={"fips_ids": one, "server_id": ids["build-farm"]})
    assert args(r) == {"fips_ids": "constraint"} and "MAC group" in r.json()["details"][0]["help_message"]
    both = [f["id"] for f in on_primary]
    moved = (await http.post(f"{F}/fips/attach", json={"fips_ids": both, "server_id": ids["build-farm"]})).json()
    assert moved["total_count"] == 2 and {f["status"] for f in moved["flexible_ips"]} == {"updating"}
    clock.advance(4)
    assert {f["status"] for f in (await fips(http, server_ids=ids["build-farm"]))["flexible_ips"]} == {"attached"}
    # detaching one member alone takes its virtual MAC away
    alone = (await http.post(f"{F}/fips/detach", json={"fips_ids": [both[0]]})).json()["flexible_ips"][0]
    assert alone["status"] == "detaching" and alone["mac_address"] is None
    clock.advance(4)
    assert (await http.get(f"{F}/fips/{both[0]}")).json()["status"] == "ready"


async def test_virtual_mac_generate_duplicate_move_delete(http, sandbox, clock):
    ids = await servers(http)
    standby = (await fips(http, server_ids=ids["db-standby"]))["flexible_ips"][0]
    r = await http.post(f"{F}/fips/{standby['id']}/mac", json={"mac_type": "hyperv"})
    assert args(r) == {"mac_type": "constraint"}
    made = (await http.post(f"{F}/fips/{standby['id']}/mac", json={"mac_type": "kvm"})).json()
    assert made["mac_address"]["mac_type"] == "kvm"
    other = (
        await http.post(f"{F}/fips", json={"project_id": sandbox.project_id, "server_id": ids["db-standby"]})
    ).json()
    spare = next(f for f in (await fips(http))["flexible_ips"] if f["description"] == "spare")
    r = await http.post(f"{F}/fips/{spare['id']}/mac/duplicate", json={"duplicate_from_fip_id": standby["id"]})
    assert args(r) == {"duplicate_from_fip_id": "constraint"}  # not on the same server
    clock.advance(4)
    dup = (
        await http.post(f"{F}/fips/{other['id']}/mac/duplicate", json={"duplicate_from_fip_id": standby["id"]})
    ).json()
    assert dup["mac_address"]["mac_address"] == made["mac_address"]["mac_address"]
    moved = (await http.post(f"{F}/fips/{standby['id']}/mac/move", json={"dst_fip_id": spare["id"]})).json()
    assert moved["id"] == spare["id"] and moved["mac_address"]["mac_address"] == made["mac_address"]["mac_address"]
    assert (await http.delete(f"{F}/fips/{spare['id']}/mac")).status_code == 204
    assert (await http.get(f"{F}/fips/{spare['id']}")).json()["mac_address"] is None


async def test_sixty_four_per_server(http, sandbox):
    ids = await servers(http)
    for _ in range(63):
        assert (
            await http.post(f"{F}/fips", json={"project_id": sandbox.project_id, "server_id": ids["build-farm"]})
        ).status_code == 200
    r = await http.post(f"{F}/fips", json={"project_id": sandbox.project_id, "server_id": ids["build-farm"]})
    assert r.status_code == 200  # the 64th
    r = await http.post(f"{F}/fips", json={"project_id": sandbox.project_id, "server_id": ids["build-farm"]})
    assert args(r) == {"server_id": "constraint"}
