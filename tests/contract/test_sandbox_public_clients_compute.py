"""The sandbox answers what the platform's public client libraries send for compute (silicon,
bare metal, Instance), unchanged (each test names the client function it mirrors), and refuses a
field only where the platform would."""

from __future__ import annotations

import pytest

from helpers import args
from tui.sandbox import DEMO_PROJECT_ID

pytestmark = pytest.mark.anyio

SILICON = "/vendorx-silicon/v1alpha1/zones/fr-par-1"
BM2 = "/baremetal/v2/zones/fr-par-1"


# ---- Silicon servers, as ApplesiliconV1Alpha1API sends it ------------------------------------------
async def test_silicon_create_takes_every_field_the_clients_send(http):
    os_id = (await http.get(f"{SILICON}/os")).json()["os"][0]["id"]
    # marshal_CreateServerRequest: type, enable_vpc, public_bandwidth_bps, name, project_id, os_id, commitment_type
    body = {
        "type": "M2-M",
        "enable_vpc": True,
        "public_bandwidth_bps": 1_000_000_000,
        "name": "ci-runner",
        "project_id": DEMO_PROJECT_ID,
        "os_id": os_id,
        "commitment_type": "duration_24h",
        "enable_kext": False,
    }
    r = await http.post(f"{SILICON}/servers", json=body)
    assert r.status_code == 200, r.text
    made = r.json()
    assert (
        made["public_bandwidth_bps"] == 1_000_000_000
        and made["vpc_status"] == "vpc_enabled"
        and made["os"]["id"] == os_id
    )
    # marshal_UpdateServerRequest
    r = await http.patch(
        f"{SILICON}/servers/{made['id']}",
        json={"name": "ci-runner-2", "enable_vpc": False, "commitment_type": {"commitment_type": "renewed_monthly"}},
    )
    assert r.status_code == 200 and r.json()["vpc_status"] == "vpc_disabled"
    bad = await http.post(
        f"{SILICON}/servers", json={**body, "enable_vpc": "yes", "public_bandwidth_bps": -1, "os_id": "nope"}
    )
    assert args(bad) == {"enable_vpc": "type", "public_bandwidth_bps": "type", "os_id": "constraint"}


async def test_silicon_reinstall_takes_what_reinstall_server_sends(http):
    ready = next(x for x in (await http.get(f"{SILICON}/servers")).json()["servers"] if x["status"] == "ready")
    os_id = next(
        o["id"] for o in (await http.get(f"{SILICON}/os")).json()["os"] if ready["type"] in o["compatible_server_types"]
    )
    path = f"{SILICON}/servers/{ready['id']}/reinstall"
    assert args(await http.post(path, json={"enable_kext": "yes"})) == {"enable_kext": "type"}
    # marshal_ReinstallServerRequest: `enable_kext` always (a required argument), `os_id` when given
    r = await http.post(path, json={"enable_kext": True, "os_id": os_id})
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "reinstalling" and r.json()["kext_enabled"] is True and r.json()["os"]["id"] == os_id


async def test_silicon_os_and_server_type_are_read_one_by_one(http):
    one = (await http.get(f"{SILICON}/os")).json()["os"][0]
    assert (await http.get(f"{SILICON}/os/{one['id']}")).json() == one  # get_os
    assert (await http.get(f"{SILICON}/os/00000000-0000-4000-8000-000000000000")).status_code == 404
    assert (await http.get(f"{SILICON}/server-type/M2-M")).json()["name"] == "M2-M"  # get_server_type


async def test_silicon_servers_take_the_runner_configurations_the_newest_client_sends(http):
    # marshal_CreateServerRequest: runner_configuration (RunnerConfiguration), applied_runner_configurations
    runner = {"name": "ci", "url": "https://github.com/acme", "token": "ghp-secret", "provider": "github"}
    applied = {"runner_configuration_ids": ["9b1f2c3d-0000-4000-8000-00000000000a"]}
    body = {
        "type": "M2-M",
        "name": "ci-mac",
        "project_id": DEMO_PROJECT_ID,
        "runner_configuration": runner,
        "applied_runner_configurations": applied,
    }
    r = await http.post(f"{SILICON}/servers", json=body)
    assert r.status_code == 200, r.text
    made = r.json()
    assert made["runner_configuration"] == runner
    assert made["applied_runner_configuration_ids"] == applied["runner_configuration_ids"]
    # marshal_UpdateServerRequest: applied_runner_configurations
    r = await http.patch(
        f"{SILICON}/servers/{made['id']}", json={"applied_runner_configurations": {"runner_configuration_ids": []}}
    )
    assert r.status_code == 200 and r.json()["applied_runner_configuration_ids"] == [], r.text
    bad = await http.post(
        f"{SILICON}/servers",
        json={
            **body,
            "runner_configuration": {**runner, "provider": "svn"},
            "applied_runner_configurations": {"runner_configuration_ids": ["x"]},
        },
    )
    assert args(bad) == {
        "runner_configuration.provider": "constraint",
        "applied_runner_configurations.runner_configuration_ids": "type",
    }


# ---- Bare metal, as BaremetalV1API and PrivateNetworkApi send it -----------------------------------
async def test_bare_metal_private_networks_are_listed_at_the_zone_level(http):
    sid = next(
        s["id"]
        for s in (await http.get("/baremetal/v1alpha1/zones/fr-par-1/servers")).json()["servers"]
        if s["status"] == "ready"
    )
    pn = "5a0c8a4e-1f0e-4d5b-9a43-8f8f0f0f0f02"
    # PrivateNetworkApi.add_server_private_network (with the IPAM IPs the clients may pass)
    assert (
        await http.post(f"{BM2}/servers/{sid}/private-networks", json={"private_network_id": pn, "ipam_ip_ids": []})
    ).status_code == 200
    # PrivateNetworkApi.list_server_private_networks: GET /server-private-networks?server_id=…
    listed = (
        await http.get(
            f"{BM2}/server-private-networks",
            params={"server_id": sid, "order_by": "created_at_asc", "page": 1, "page_size": 50},
        )
    ).json()
    assert [a["private_network_id"] for a in listed["server_private_networks"]][-1] == pn and listed["total_count"] >= 1
    assert all(a["server_id"] == sid for a in listed["server_private_networks"])
    other = (await http.get(f"{BM2}/server-private-networks", params={"private_network_id": pn})).json()
    assert [a["server_id"] for a in other["server_private_networks"]] == [sid]


BM = "/baremetal/v1alpha1/zones/fr-par-1"
KEY = "3f1c2b4a-0000-4000-8000-0000000000aa"


async def test_bare_metal_takes_every_field_baremetal_api_sends(http, clock):
    offer = next(o for o in (await http.get(f"{BM}/offers")).json()["offers"] if o["stock"] != "empty")
    assert (await http.get(f"{BM}/offers/{offer['id']}")).json() == offer  # get_offer
    os_ = (await http.get(f"{BM}/os", params={"offer_id": offer["id"]})).json()["os"][0]
    assert (await http.get(f"{BM}/os/{os_['id']}")).json() == os_  # get_os
    # marshal_CreateServerRequest: protected, install (CreateServerRequestInstall), option_ids, user_data
    install = {
        "os_id": os_["id"],
        "hostname": "db1",
        "ssh_key_ids": [KEY],
        "user": "ops",
        "password": "Pa55-word!",
        "service_user": "svc",
        "service_password": "Pa55-word!",
    }
    body = {
        "offer_id": offer["id"],
        "name": "db1",
        "description": "",
        "protected": True,
        "tags": [],
        "install": install,
        "option_ids": [],
        "user_data": "#cloud-config",
        "project_id": DEMO_PROJECT_ID,
    }
    r = await http.post(f"{BM}/servers", json=body)
    assert r.status_code == 200, r.text
    made = r.json()
    assert made["protected"] is True and made["install"]["status"] == "to_install" and made["install"]["user"] == "ops"
    assert "password" not in made["install"] and "service_password" not in made["install"]
    bad = await http.post(f"{BM}/servers", json={**body, "install": {**install, "os_id": "nope", "colour": 1}})
    assert args(bad) == {"install.os_id": "constraint", "install.colour": "unknown"}
    assert (await http.delete(f"{BM}/servers/{made['id']}")).status_code == 400  # protected
    clock.advance(3600)
    assert (await http.get(f"{BM}/servers/{made['id']}")).json()["install"]["status"] == "completed"
    # marshal_UpdateServerRequest: protected, user_data
    r = await http.patch(f"{BM}/servers/{made['id']}", json={"protected": False, "user_data": "#!/bin/sh"})
    assert r.status_code == 200 and r.json()["protected"] is False and r.json()["user_data"] == "#!/bin/sh", r.text
    # marshal_RebootServerRequest: boot_type, ssh_key_ids; marshal_InstallServerRequest with its users and user_data
    r = await http.post(f"{BM}/servers/{made['id']}/reboot", json={"boot_type": "rescue", "ssh_key_ids": [KEY]})
    assert r.status_code == 200, r.text
    clock.advance(3600)
    r = await http.post(f"{BM}/servers/{made['id']}/install", json={**install, "user_data": "#cloud-config"})
    assert r.status_code == 200 and r.json()["install"]["service_user"] == "svc", r.text
    assert (await http.delete(f"{BM}/servers/{made['id']}")).status_code == 200


# ---- Instance (`/instance/v1`), as InstanceV1API sends it -------------------------------------------
INSTANCE = "/instance/v1/zones/fr-par-1"


async def test_an_instance_is_updated_as_update_server_sends_it(http):
    sid = (await http.get(f"{INSTANCE}/servers")).json()["servers"][0]["id"]
    # marshal_UpdateServerRequest: routed_ip_enabled, admin_password_encryption_ssh_key_id
    path = f"{INSTANCE}/servers/{sid}"
    r = await http.patch(path, json={"routed_ip_enabled": True, "admin_password_encryption_ssh_key_id": KEY})
    assert r.status_code == 200, r.text
    got = r.json()["server"]
    assert got["routed_ip_enabled"] is True and got["admin_password_encryption_ssh_key_id"] == KEY
    bad = await http.patch(path, json={"routed_ip_enabled": "yes", "admin_password_encryption_ssh_key_id": "k"})
    assert args(bad) == {"routed_ip_enabled": "format", "admin_password_encryption_ssh_key_id": "format"}
