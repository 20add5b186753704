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
    return next(s for s in (await http.get(f"{Z}/servers", params={"per_page": 100})).json()["servers"] if s["name"] == name)


# ---- list_servers ----------------------------------------------------------------------------------
async def test_servers_are_listed_with_every_filter_list_servers_sends(http):
    # list_servers: organization and project always (the profile's defaults), per_page
    everyone = await names(http, "/servers", "servers", organization=DEMO_ORGANIZATION_ID, project=DEMO_PROJECT_ID,
                           per_page=50)
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
    assert await names(http, "/security_groups", "security_groups", project_default="True") == ["Default security group"]
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
        "project": DEMO_PROJECT_ID, "commercial_type": "PRO2-XXS", "name": "from-the-client",
        "dynamic_ip_required": False, "routed_ip_enabled": True, "image": image["id"], "enable_ipv6": False,
        "protected": True, "public_ip": ip["id"], "public_ips": [ip["id"], ip6["id"]], "boot_type": "local",
        "tags": ["sdk"], "admin_password_encryption_ssh_key_id": KEY,
        "volumes": {
            "0": {"volume_type": "b_ssd", "boot": False, "size": 0},
            "1": {"volume_type": "b_ssd", "name": "data", "size": 20 * 10**9, "boot": False,
                  "project": DEMO_PROJECT_ID},
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
    bad = await http.post(f"{Z}/servers", json={
        **body, "public_ip": "nope", "public_ips": None, "admin_password_encryption_ssh_key_id": "k",
        "volumes": {"0": {"volume_type": "b_ssd", "size": 0, "organization": "acme"}},
    })
    assert args(bad) == {"public_ip": "constraint", "admin_password_encryption_ssh_key_id": "format",
                         "volumes.0.organization": "format"}


# ---- update_server: public_ips, private_nics, volumes ------------------------------------------------
async def test_a_server_takes_the_public_ips_and_private_nics_update_server_sends(http):
    gateway = await server_named(http, "api-gateway")
    path = f"{Z}/servers/{gateway['id']}"
    first = (await http.post(f"{Z}/ips", json={"project": DEMO_PROJECT_ID})).json()["ip"]
    second = (await http.post(f"{Z}/ips", json={"project": DEMO_PROJECT_ID, "type": "routed_ipv6"})).json()["ip"]
    nic_ids = [n["id"] for n in gateway["private_nics"]]
    # marshal_UpdateServerRequest: public_ips (reserved IP ids), private_nics (the server's NIC ids); volumes as
    # VolumeServerTemplate sends them (boot false and size 0 are the dataclass's defaults)
    volumes = {k: {"id": v["id"], "volume_type": v["volume_type"], "boot": False, "size": 0}
               for k, v in gateway["volumes"].items()}
    r = await http.patch(path, json={"public_ips": [first["id"], second["id"]], "private_nics": nic_ids,
                                     "volumes": volumes})
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
