"""The sandbox answers what the platform's public Python client sends to Instance (`/instance/v1`,
InstanceV1API), unchanged (each test names the client call it mirrors), and refuses a field only
where the platform would. Booleans in a query arrive as `True`/`False` (the client hands Python
values to its HTTP library); lists arrive comma-separated."""

from __future__ import annotations

import pytest

from helpers import args
from tui.sandbox import DEMO_PROJECT_ID
from tui.sandbox.constants import DEMO_ORGANIZATION_ID

pytestmark = pytest.mark.anyio

Z = "/instance/v1/zones/fr-par-1"
OTHER = "11111111-1111-4111-8111-111111111111"


async def names(http, path: str, key: str, **params) -> list[str]:
    r = await http.get(f"{Z}{path}", params=params)
    assert r.status_code == 200, r.text
    return sorted(o["name"] for o in r.json()[key])


async def server_named(http, name: str) -> dict:
    servers = (await http.get(f"{Z}/servers", params={"per_page": 100})).json()["servers"]
    return next(s for s in servers if s["name"] == name)


# ---- list_servers ----------------------------------------------------------------------------------
async def test_servers_are_listed_with_every_filter_list_servers_sends(http):
    # list_servers: organization and project always (the profile's defaults), per_page
    everyone = await names(
        http, "/servers", "servers", organization=DEMO_ORGANIZATION_ID, project=DEMO_PROJECT_ID, per_page=50
    )
    assert "web-01" in everyone and "bastion" in everyone
    assert await names(http, "/servers", "servers", organization=OTHER) == []
    # state as the client's ServerState spells it
    assert await names(http, "/servers", "servers", state="stopped_in_place") == ["staging-web"]
    # without_ip as a Python bool
    without = await names(http, "/servers", "servers", without_ip="True")
    assert "worker-batch-2" in without and "web-01" not in without
    assert "web-01" in await names(http, "/servers", "servers", without_ip="False")
    web = await server_named(http, "web-02")
    assert await names(http, "/servers", "servers", with_ip=web["public_ip"]["address"]) == ["web-02"]
    # private_network / private_networks (comma-separated) / private_nic_mac_address
    gateway = await server_named(http, "api-gateway")
    pns = sorted({n["private_network_id"] for n in gateway["private_nics"]})
    each = [await names(http, "/servers", "servers", private_network=pn) for pn in pns]
    assert all("api-gateway" in on and "web-01" not in on for on in each) and len(pns) == 2
    assert await names(http, "/servers", "servers", private_networks=",".join(pns)) == sorted(set(each[0] + each[1]))
    mac = gateway["private_nics"][0]["mac_address"]
    assert await names(http, "/servers", "servers", private_nic_mac_address=mac) == ["api-gateway"]
    # servers: ids, comma-separated
    assert await names(http, "/servers", "servers", servers=f"{web['id']},{gateway['id']}") == ["api-gateway", "web-02"]
    assert args(await http.get(f"{Z}/servers", params={"without_ip": "perhaps"})) == {"without_ip": "format"}


# ---- the other listings: list_images, list_snapshots, list_volumes, list_ips, list_security_groups,
# list_placement_groups, list_private_ni_cs --------------------------------------------------------
async def test_every_listing_takes_the_filters_its_list_call_sends(http):
    mine = {"organization": DEMO_ORGANIZATION_ID, "project": DEMO_PROJECT_ID, "per_page": 50}
    theirs = {"organization": OTHER}
    # list_images: public as a Python bool, tags comma-separated
    assert await names(http, "/images", "images", **mine, public="False") == ["gateway-golden"]
    assert "gateway-golden" not in await names(http, "/images", "images", public="True")
    assert await names(http, "/images", "images", tags="golden") == ["gateway-golden"]
    assert await names(http, "/images", "images", **theirs) == []
    # list_snapshots
    assert await names(http, "/snapshots", "snapshots", **mine, tags="golden") == ["gateway-golden-root"]
    assert await names(http, "/snapshots", "snapshots", **theirs) == []
    # list_volumes
    assert await names(http, "/volumes", "volumes", **mine, tags="archive", volume_type="b_ssd") == ["archive-2025"]
    assert await names(http, "/volumes", "volumes", project=OTHER) == []
    # list_ips: `name` is a part of the address
    ips = (await http.get(f"{Z}/ips", params={**mine, "name": "163.172.10.1", "tags": "prod"})).json()["ips"]
    assert [ip["address"] for ip in ips] == ["163.172.10.11"]
    assert (await http.get(f"{Z}/ips", params=theirs)).json()["ips"] == []
    # list_security_groups: project_default as a Python bool
    assert await names(http, "/security_groups", "security_groups", **mine, project_default="False") == ["web-public"]
    assert await names(http, "/security_groups", "security_groups", tags="web") == ["web-public"]
    defaults = await names(http, "/security_groups", "security_groups", project_default="True")
    assert defaults == ["Default security group"]
    # list_placement_groups
    assert await names(http, "/placement_groups", "placement_groups", **mine, tags="web") == ["web-spread"]
    assert await names(http, "/placement_groups", "placement_groups", name="nothing-like-it") == []
    # list_private_ni_cs: tags
    gateway = await server_named(http, "api-gateway")
    nic = gateway["private_nics"][0]
    path = f"{Z}/servers/{gateway['id']}/private_nics"
    assert (await http.patch(f"{path}/{nic['id']}", json={"tags": ["admin"]})).status_code == 200
    tagged = (await http.get(path, params={"tags": "admin", "per_page": 50})).json()["private_nics"]
    assert [n["id"] for n in tagged] == [nic["id"]]


# ---- create_server ----------------------------------------------------------------------------------
KEY = "3f1c2b4a-0000-4000-8000-0000000000aa"


async def test_a_server_is_created_with_every_field_create_server_sends(http):
    ip = (await http.post(f"{Z}/ips", json={"project": DEMO_PROJECT_ID})).json()["ip"]
    ip6 = (await http.post(f"{Z}/ips", json={"project": DEMO_PROJECT_ID, "type": "routed_ipv6"})).json()["ip"]
    image = (await http.get(f"{Z}/images", params={"name": "Ubuntu 24.04"})).json()["images"][0]
    # marshal_CreateServerRequest: `protected` always; volumes as VolumeServerTemplate sends them, with the
    # dataclass defaults (boot false, size 0) and the owner the caller may set; both public_ip and public_ips
    body = {
        "project": DEMO_PROJECT_ID,
        "commercial_type": "PRO2-XXS",
        "name": "from-the-client",
        "dynamic_ip_required": False,
        "routed_ip_enabled": True,
        "image": image["id"],
        "enable_ipv6": False,
        "protected": True,
        "public_ip": ip["id"],
        "public_ips": [ip["id"], ip6["id"]],
        "boot_type": "local",
        "tags": ["sdk"],
        "admin_password_encryption_ssh_key_id": KEY,
        "volumes": {
            "0": {"volume_type": "b_ssd", "boot": False, "size": 0},
            "1": {
                "volume_type": "b_ssd",
                "name": "data",
                "size": 20 * 10**9,
                "boot": False,
                "project": DEMO_PROJECT_ID,
            },
        },
    }
    r = await http.post(f"{Z}/servers", json=body)
    assert r.status_code == 201, r.text
    made = r.json()["server"]
    assert made["protected"] is True and made["admin_password_encryption_ssh_key_id"] == KEY
    assert sorted(p["address"] for p in made["public_ips"]) == sorted([ip["address"], ip6["address"]])
    assert made["volumes"]["0"]["size"] == image["root_volume"]["size"] and made["volumes"]["0"]["boot"] is True
    assert made["volumes"]["1"]["name"] == "data" and made["volumes"]["1"]["boot"] is False
    assert (await http.get(f"{Z}/ips/{ip6['id']}")).json()["ip"]["server"]["id"] == made["id"]
    assert (await http.delete(f"{Z}/servers/{made['id']}")).status_code == 400  # protected, as asked
    # what the platform refuses still is
    taken = await http.post(f"{Z}/servers", json={**body, "volumes": None, "public_ip": None, "public_ips": [ip["id"]]})
    assert args(taken) == {"public_ips.0": "constraint"}  # attached to the server just made
    bad = await http.post(
        f"{Z}/servers",
        json={
            **body,
            "public_ip": "nope",
            "public_ips": None,
            "admin_password_encryption_ssh_key_id": "k",
            "volumes": {"0": {"volume_type": "b_ssd", "size": 0, "organization": "acme"}},
        },
    )
    assert args(bad) == {
        "public_ip": "constraint",
        "admin_password_encryption_ssh_key_id": "format",
        "volumes.0.organization": "format",
    }


# ---- update_server: public_ips, private_nics, volumes ------------------------------------------------
async def test_a_server_takes_the_public_ips_and_private_nics_update_server_sends(http):
    gateway = await server_named(http, "api-gateway")
    path = f"{Z}/servers/{gateway['id']}"
    first = (await http.post(f"{Z}/ips", json={"project": DEMO_PROJECT_ID})).json()["ip"]
    second = (await http.post(f"{Z}/ips", json={"project": DEMO_PROJECT_ID, "type": "routed_ipv6"})).json()["ip"]
    nic_ids = [n["id"] for n in gateway["private_nics"]]
    # marshal_UpdateServerRequest: public_ips (reserved IP ids), private_nics (the server's NIC ids); volumes as
    # VolumeServerTemplate sends them (boot false and size 0 are the dataclass's defaults)
    volumes = {
        k: {"id": v["id"], "volume_type": v["volume_type"], "boot": False, "size": 0}
        for k, v in gateway["volumes"].items()
    }
    r = await http.patch(
        path, json={"public_ips": [first["id"], second["id"]], "private_nics": nic_ids, "volumes": volumes}
    )
    assert r.status_code == 200, r.text
    got = r.json()["server"]
    assert sorted(p["id"] for p in got["public_ips"]) == sorted([first["id"], second["id"]])
    assert [n["id"] for n in got["private_nics"]] == nic_ids and got["volumes"]["0"]["boot"] is True
    # an empty list is the repeated field's default: nothing asked
    r = await http.patch(path, json={"public_ips": [], "private_nics": []})
    assert len(r.json()["server"]["public_ips"]) == 2
    r = await http.patch(path, json={"public_ips": [second["id"]]})
    assert [p["id"] for p in r.json()["server"]["public_ips"]] == [second["id"]]
    assert (await http.get(f"{Z}/ips/{first['id']}")).json()["ip"]["server"] is None
    web = await server_named(http, "web-01")
    bad = await http.patch(path, json={"public_ips": [web["public_ip"]["id"]], "private_nics": ["nope"]})
    assert args(bad) == {"public_ips.0": "constraint", "private_nics.0": "constraint"}


# ---- server_action ------------------------------------------------------------------------------------
async def test_a_server_acts_as_server_action_asks(http, clock):
    stopped = await server_named(http, "worker-batch-2")
    path = f"{Z}/servers/{stopped['id']}/action"
    # marshal_ServerActionRequest: no action is ServerActionRequest's default, poweron
    r = await http.post(path, json={})
    assert r.status_code == 202 and (await server_named(http, "worker-batch-2"))["state"] == "starting", r.text
    # backup of the volumes asked (keyed by volume id), one overriding its snapshot's volume_type; disable_ipv6 false
    gateway = await server_named(http, "api-gateway")
    data = gateway["volumes"]["1"]
    r = await http.post(
        f"{Z}/servers/{gateway['id']}/action",
        json={
            "action": "backup",
            "name": "gw-data",
            "volumes": {data["id"]: {"volume_type": "unified"}},
            "disable_ipv6": False,
        },
    )
    assert r.status_code == 202, r.text
    image = (await http.get(f"{Z}/images", params={"name": "gw-data"})).json()["images"][0]
    assert image["root_volume"]["volume_type"] == "unified" and image["extra_volumes"] == {}
    snap = (await http.get(f"{Z}/snapshots/{image['root_volume']['id']}")).json()["snapshot"]
    assert snap["base_volume"]["id"] == data["id"]
    # enable_routed_ip, with disable_ipv6
    made = (
        await http.post(
            f"{Z}/servers",
            json={
                "project": DEMO_PROJECT_ID,
                "commercial_type": "DEV1-S",
                "image": "ubuntu_noble",
                "name": "legacy-net",
                "protected": False,
                "routed_ip_enabled": False,
                "enable_ipv6": True,
            },
        )
    ).json()["server"]
    assert made["routed_ip_enabled"] is False
    r = await http.post(f"{Z}/servers/{made['id']}/action", json={"action": "enable_routed_ip", "disable_ipv6": True})
    assert r.status_code == 202, r.text
    after = (await http.get(f"{Z}/servers/{made['id']}")).json()["server"]
    assert after["routed_ip_enabled"] is True and after["enable_ipv6"] is False
    # what the platform refuses still is
    again = await http.post(f"{Z}/servers/{made['id']}/action", json={"action": "enable_routed_ip"})
    assert again.status_code == 400
    wrong = await http.post(f"{Z}/servers/{gateway['id']}/action", json={"action": "reboot", "disable_ipv6": True})
    assert args(wrong) == {"disable_ipv6": "constraint"}
    foreign = await http.post(
        f"{Z}/servers/{gateway['id']}/action", json={"action": "backup", "volumes": {stopped["volumes"]["0"]["id"]: {}}}
    )
    assert args(foreign) == {f"volumes.{stopped['volumes']['0']['id']}": "constraint"}


# ---- create_snapshot, and the owner every create call sends -------------------------------------------------
async def test_snapshots_are_made_as_create_snapshot_sends(http, clock):
    archive = next(v for v in (await http.get(f"{Z}/volumes", params={"name": "archive-2025"})).json()["volumes"])
    # marshal_CreateSnapshotRequest: a volume's copy as `unified`; the owner as `organization` when the
    # client's profile has no project
    r = await http.post(
        f"{Z}/snapshots",
        json={
            "name": "arch-u",
            "volume_id": archive["id"],
            "volume_type": "unified",
            "organization": DEMO_ORGANIZATION_ID,
            "tags": [],
        },
    )
    assert r.status_code == 201 and r.json()["snapshot"]["volume_type"] == "unified", r.text
    clock.advance(10)
    unified = r.json()["snapshot"]
    # a unified snapshot makes l_ssd and b_ssd volumes (create_volume)
    r = await http.post(
        f"{Z}/volumes",
        json={"name": "from-u", "volume_type": "b_ssd", "base_snapshot": unified["id"], "project": DEMO_PROJECT_ID},
    )
    assert r.status_code == 201, r.text
    # an import of a QCOW2 object: bucket, key, size (a multiple of 512)
    r = await http.post(
        f"{Z}/snapshots",
        json={
            "name": "imported",
            "bucket": "images",
            "key": "debian.qcow2",
            "size": 10 * 2**30,
            "volume_type": "b_ssd",
            "project": DEMO_PROJECT_ID,
        },
    )
    assert r.status_code == 201, r.text
    imported = r.json()["snapshot"]
    assert imported["state"] == "importing" and imported["size"] == 10 * 2**30 and imported["base_volume"] is None
    clock.advance(10)
    assert (await http.get(f"{Z}/snapshots/{imported['id']}")).json()["snapshot"]["state"] == "available"
    bad = await http.post(
        f"{Z}/snapshots",
        json={"name": "x", "bucket": "images", "size": 1000, "volume_id": archive["id"], "organization": "acme"},
    )
    assert args(bad) == {"key": "required", "size": "constraint", "volume_id": "constraint", "organization": "format"}
    assert (
        await http.post(
            f"{Z}/snapshots",
            json={"name": "x", "volume_id": archive["id"], "volume_type": "l_ssd", "project": DEMO_PROJECT_ID},
        )
    ).status_code == 400


async def test_every_create_call_takes_the_organization_as_its_owner(http):
    org = {"organization": DEMO_ORGANIZATION_ID}
    # create_ip, create_security_group, create_placement_group, create_volume without a project
    assert (await http.post(f"{Z}/ips", json={**org, "type": "routed_ipv4"})).status_code == 201
    assert (
        await http.post(f"{Z}/security_groups", json={**org, "name": "sg-org", "description": "", "stateful": True})
    ).status_code == 201
    assert (await http.post(f"{Z}/placement_groups", json={**org, "name": "pg-org"})).status_code == 201
    assert (
        await http.post(f"{Z}/volumes", json={**org, "name": "vol-org", "volume_type": "b_ssd", "size": 10 * 10**9})
    ).status_code == 201
    # another organization's is not ours to write
    assert (await http.post(f"{Z}/ips", json={"organization": OTHER})).status_code == 403


# ---- create_security_group_rule -------------------------------------------------------------------------
async def test_a_rule_at_position_zero_goes_last_as_the_platform_reads_the_default(http):
    groups = (await http.get(f"{Z}/security_groups")).json()["security_groups"]
    sg = next(g for g in groups if g["name"] == "web-public")
    path = f"{Z}/security_groups/{sg['id']}/rules"
    # marshal_CreateSecurityGroupRuleRequest: position and editable always (both required arguments)
    r = await http.post(
        path,
        json={
            "protocol": "TCP",
            "direction": "inbound",
            "action": "accept",
            "ip_range": "0.0.0.0/0",
            "position": 0,
            "editable": True,
            "dest_port_from": 8080,
        },
    )
    assert r.status_code == 201 and r.json()["rule"]["position"] == 4, r.text
    bad = await http.post(
        path,
        json={
            "protocol": "TCP",
            "direction": "inbound",
            "action": "accept",
            "ip_range": "0.0.0.0/0",
            "position": -1,
            "editable": True,
        },
    )
    assert args(bad) == {"position": "constraint"}


# ---- update_image ------------------------------------------------------------------------------------------
async def test_an_image_takes_the_extra_volumes_update_image_sends(http):
    image = (await http.get(f"{Z}/images", params={"name": "gateway-golden", "public": "False"})).json()["images"][0]
    snaps = (await http.get(f"{Z}/snapshots", params={"name": "archive-2025-initial"})).json()["snapshots"]
    snap = snaps[0]
    # marshal_UpdateImageRequest: extra_volumes as VolumeImageUpdateTemplate, {"id": snapshot id}
    extra = {"1": {"id": snap["id"]}}
    r = await http.patch(f"{Z}/images/{image['id']}", json={"name": "gateway-golden", "extra_volumes": extra})
    assert r.status_code == 200, r.text
    assert r.json()["image"]["extra_volumes"]["1"]["id"] == snap["id"]
    bad = await http.patch(f"{Z}/images/{image['id']}", json={"extra_volumes": {"1": {"id": "nope"}}})
    assert args(bad) == {"extra_volumes": "constraint"}
