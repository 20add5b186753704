"""The sandbox answers what the platform's public client libraries send, unchanged (each test
names the client function it mirrors), and refuses a field only where the platform would."""

from __future__ import annotations

import pytest

from helpers import args
from tui.sandbox import DEMO_PROJECT_ID

pytestmark = pytest.mark.anyio

SILICON = "/vendorx-silicon/v1alpha1/zones/fr-par-1"
BM2 = "/baremetal/v2/zones/fr-par-1"


async def test_silicon_create_takes_every_field_the_clients_send(http):
    os_id = (await http.get(f"{SILICON}/os")).json()["os"][0]["id"]
    # marshal_CreateServerRequest: type, enable_vpc, public_bandwidth_bps, name, project_id, os_id, commitment_type
    body = {"type": "M2-M", "enable_vpc": True, "public_bandwidth_bps": 1_000_000_000, "name": "ci-runner", "project_id": DEMO_PROJECT_ID,
            "os_id": os_id, "commitment_type": "duration_24h", "enable_kext": False}
    r = await http.post(f"{SILICON}/servers", json=body)
    assert r.status_code == 200, r.text
    made = r.json()
    assert made["public_bandwidth_bps"] == 1_000_000_000 and made["vpc_status"] == "vpc_enabled" and made["os"]["id"] == os_id
    # marshal_UpdateServerRequest
    r = await http.patch(f"{SILICON}/servers/{made['id']}", json={"name": "ci-runner-2", "enable_vpc": False,
                                                                    "commitment_type": {"commitment_type": "renewed_monthly"}})
    assert r.status_code == 200 and r.json()["vpc_status"] == "vpc_disabled"
    bad = await http.post(f"{SILICON}/servers", json={**body, "enable_vpc": "yes", "public_bandwidth_bps": -1, "os_id": "nope"})
    assert args(bad) == {"enable_vpc": "type", "public_bandwidth_bps": "type", "os_id": "constraint"}


async def test_silicon_os_and_server_type_are_read_one_by_one(http):
    one = (await http.get(f"{SILICON}/os")).json()["os"][0]
    assert (await http.get(f"{SILICON}/os/{one['id']}")).json() == one  # get_os
    assert (await http.get(f"{SILICON}/os/00000000-0000-4000-8000-000000000000")).status_code == 404
    assert (await http.get(f"{SILICON}/server-type/M2-M")).json()["name"] == "M2-M"  # get_server_type


async def test_bare_metal_private_networks_are_listed_at_the_zone_level(http):
    sid = next(s["id"] for s in (await http.get("/baremetal/v1alpha1/zones/fr-par-1/servers")).json()["servers"] if s["status"] == "ready")
    pn = "5a0c8a4e-1f0e-4d5b-9a43-8f8f0f0f0f02"
    # PrivateNetworkApi.add_server_private_network (with the IPAM IPs the clients may pass)
    assert (await http.post(f"{BM2}/servers/{sid}/private-networks", json={"private_network_id": pn, "ipam_ip_ids": []})).status_code == 200
    # PrivateNetworkApi.list_server_private_networks: GET /server-private-networks?server_id=…
    listed = (await http.get(f"{BM2}/server-private-networks", params={"server_id": sid, "order_by": "created_at_asc", "page": 1, "page_size": 50})).json()
    assert [a["private_network_id"] for a in listed["server_private_networks"]][-1] == pn and listed["total_count"] >= 1
    assert all(a["server_id"] == sid for a in listed["server_private_networks"])
    other = (await http.get(f"{BM2}/server-private-networks", params={"private_network_id": pn})).json()
    assert [a["server_id"] for a in other["server_private_networks"]] == [sid]


async def test_a_backup_restores_only_within_its_engine_family(http):
    base = "/rdb/v1/regions/fr-par"
    instances = (await http.get(f"{base}/instances")).json()["instances"]
    mysql = next(i for i in instances if i["engine"].startswith("MySQL"))
    backup = next(b for b in (await http.get(f"{base}/backups")).json()["database_backups"]
                  if b["status"] == "ready" and b["instance_id"] != mysql["id"]
                  and next(i for i in instances if i["id"] == b["instance_id"])["engine"].startswith("PostgreSQL"))
    r = await http.post(f"{base}/backups/{backup['id']}/restore", json={"instance_id": mysql["id"], "database_name": "x"})
    assert args(r) == {"instance_id": "constraint"} and "restores only to a PostgreSQL instance" in r.text
