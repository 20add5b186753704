"""The sandbox's Instance storage against spec 1 §2.3, §4.2, §8 and spec/4: volumes, attach/detach,
snapshots, images, block migration, backups — codes, bodies, rules and timed states."""

import pytest

from helpers import args
from tui.sandbox import DEMO_PROJECT_ID

pytestmark = pytest.mark.anyio
Z = "/instance/v1/zones/fr-par-1"
GB = 1_000_000_000


async def new_volume(http, name="data-1", volume_type="b_ssd", size=20 * GB, **kw) -> dict:
    r = await http.post(
        f"{Z}/volumes", json={"name": name, "project": DEMO_PROJECT_ID, "volume_type": volume_type, "size": size, **kw}
    )
    assert r.status_code == 201, r.text
    return r.json()["volume"]


async def server_named(http, name: str) -> dict:
    servers = (await http.get(f"{Z}/servers", params={"name": name})).json()["servers"]
    return next(s for s in servers if s["name"] == name)


async def test_volume_types_carry_their_constraints(http):
    types = (await http.get(f"{Z}/products/volumes")).json()["volumes"]
    assert set(types) == {"l_ssd", "b_ssd", "sbs_volume"}
    assert types["b_ssd"]["constraints"] == {"min": 1 * GB, "max": 10_000 * GB}


@pytest.mark.parametrize(
    "body, expected",
    [
        ({"volume_type": "b_ssd", "size": 10 * GB}, {"name": "required"}),
        ({"name": "bad/name", "volume_type": "b_ssd", "size": 10 * GB}, {"name": "format"}),
        ({"name": "v", "size": 10 * GB}, {"volume_type": "required"}),
        ({"name": "v", "volume_type": "nvme", "size": 10 * GB}, {"volume_type": "constraint"}),
        ({"name": "v", "volume_type": "b_ssd"}, {"size": "required"}),
        ({"name": "v", "volume_type": "b_ssd", "size": 20_000 * GB}, {"size": "constraint"}),
        ({"name": "v", "volume_type": "l_ssd", "size": 900 * GB}, {"size": "constraint"}),
    ],
)
async def test_volume_create_validation_names_the_field(http, body, expected):
    r = await http.post(f"{Z}/volumes", json={"project": DEMO_PROJECT_ID, **body})
    assert r.status_code == 400 and r.json()["type"] == "invalid_arguments"
    assert args(r) == expected


async def test_volume_life_cycle_and_quota(http, clock):
    vol = await new_volume(http)
    assert vol["state"] == "available" and vol["server"] is None and vol["size"] == 20 * GB
    listed = (await http.get(f"{Z}/volumes", params={"volume_type": "b_ssd"})).json()["volumes"]
    assert vol["id"] in {v["id"] for v in listed}
    r = await http.patch(f"{Z}/volumes/{vol['id']}", json={"size": 10 * GB})
    assert r.status_code == 400 and "grow" in r.json()["message"]
    r = await http.patch(f"{Z}/volumes/{vol['id']}", json={"size": 30 * GB, "name": "data-big"})
    assert r.status_code == 200 and r.json()["volume"]["state"] == "resizing"
    clock.advance(5)
    got = (await http.get(f"{Z}/volumes/{vol['id']}")).json()["volume"]
    assert got["state"] == "available" and got["size"] == 30 * GB and got["name"] == "data-big"
    r = await http.post(
        f"{Z}/volumes", json={"name": "huge", "project": DEMO_PROJECT_ID, "volume_type": "b_ssd", "size": 10_000 * GB}
    )
    assert r.status_code == 201
    r = await http.post(
        f"{Z}/volumes", json={"name": "huger", "project": DEMO_PROJECT_ID, "volume_type": "b_ssd", "size": 10_000 * GB}
    )
    assert r.status_code == 403 and "Quota exceeded" in r.json()["message"]
    assert (await http.delete(f"{Z}/volumes/{vol['id']}")).status_code == 204
    assert (await http.get(f"{Z}/volumes/{vol['id']}")).status_code == 404
    scratch = next(v for v in (await http.get(f"{Z}/volumes")).json()["volumes"] if v["name"] == "scratch")
    r = await http.patch(f"{Z}/volumes/{scratch['id']}", json={"size": 40 * GB})
    assert r.status_code == 400 and "l_ssd" in r.json()["message"]


async def test_attach_and_detach_follow_the_volume_type_rules(http, clock):
    server = await server_named(http, "web-01")  # running, boot volume sbs_volume
    data = await new_volume(http)
    local = next(v for v in (await http.get(f"{Z}/volumes")).json()["volumes"] if v["name"] == "scratch")
    boot = server["volumes"]["0"]
    attach = {"0": {"id": boot["id"]}, "1": {"id": data["id"]}}
    r = await http.patch(f"{Z}/servers/{server['id']}", json={"volumes": attach})
    assert r.status_code == 200, r.text
    assert r.json()["server"]["volumes"]["1"]["id"] == data["id"]
    assert (await http.get(f"{Z}/volumes/{data['id']}")).json()["volume"]["server"]["id"] == server["id"]
    r = await http.patch(f"{Z}/servers/{server['id']}", json={"volumes": {**attach, "2": {"id": local["id"]}}})
    assert r.status_code == 400 and "powered off" in r.json()["message"]  # l_ssd only while off
    r = await http.patch(f"{Z}/servers/{server['id']}", json={"volumes": {"0": {"id": data["id"]}}})
    assert r.status_code == 400 and "boot volume" in r.json()["message"]
    r = await http.delete(f"{Z}/volumes/{data['id']}")
    assert r.status_code == 412 and r.json()["precondition"] == "resource_still_in_use"
    r = await http.patch(f"{Z}/servers/{server['id']}", json={"volumes": {"0": {"id": boot["id"]}}})
    assert r.status_code == 200 and list(r.json()["server"]["volumes"]) == ["0"]
    assert (await http.get(f"{Z}/volumes/{data['id']}")).json()["volume"]["server"] is None
    other = await server_named(http, "web-02")
    r = await http.patch(f"{Z}/servers/{other['id']}", json={"volumes": {"0": {"id": boot["id"]}}})
    assert r.status_code == 400 and args(r) == {"volumes.0.id": "constraint"}


async def test_create_with_two_volumes_then_delete_keeping_the_detached_one(http, clock):
    existing = await new_volume(http, name="keep-me")
    r = await http.post(
        f"{Z}/servers",
        json={
            "name": "two-vols",
            "project": DEMO_PROJECT_ID,
            "commercial_type": "PRO2-XS",
            "image": "ubuntu_noble",
            "volumes": {
                "0": {"volume_type": "sbs_volume", "size": 20 * GB},
                "1": {"name": "scratch-2", "volume_type": "b_ssd", "size": 5 * GB},
                "2": {"id": existing["id"]},
            },
        },
    )
    assert r.status_code == 201, r.text
    server = r.json()["server"]
    assert [v["volume_type"] for v in server["volumes"].values()] == ["sbs_volume", "b_ssd", "b_ssd"]
    assert server["volumes"]["0"]["boot"] is True
    r = await http.post(
        f"{Z}/servers",
        json={
            "name": "bad-vols",
            "project": DEMO_PROJECT_ID,
            "commercial_type": "PRO2-XS",
            "image": "ubuntu_noble",
            "volumes": {
                "0": {"volume_type": "sbs_volume", "size": 20 * GB},
                "1": {"name": "bad/name", "volume_type": "b_ssd", "size": 5 * GB},
            },
        },
    )
    assert r.status_code == 400 and args(r) == {"volumes.1.name": "format"}
    keep = {"0": {"id": server["volumes"]["0"]["id"]}, "1": {"id": server["volumes"]["1"]["id"]}}
    assert (await http.patch(f"{Z}/servers/{server['id']}", json={"volumes": keep})).status_code == 200
    assert (await http.delete(f"{Z}/servers/{server['id']}")).status_code == 204
    ids = {v["id"] for v in (await http.get(f"{Z}/volumes")).json()["volumes"]}
    assert existing["id"] in ids, "the detached volume is kept"
    assert server["volumes"]["0"]["id"] not in ids and server["volumes"]["1"]["id"] not in ids, (
        "attached ones go with the server"
    )


async def test_snapshots_take_their_volume_type_and_time(http, clock):
    vol = await new_volume(http)
    r = await http.post(f"{Z}/snapshots", json={"name": "snap-1", "volume_id": vol["id"], "project": DEMO_PROJECT_ID})
    assert r.status_code == 201
    snap, task = r.json()["snapshot"], r.json()["task"]
    assert snap["state"] == "snapshotting" and snap["volume_type"] == "b_ssd" and task["status"] == "pending"
    r = await http.post(f"{Z}/snapshots", json={"name": "snap-2", "volume_id": vol["id"], "project": DEMO_PROJECT_ID})
    assert r.status_code == 409 and r.json()["type"] == "transient_state"
    clock.advance(5)
    assert (await http.get(f"{Z}/snapshots/{snap['id']}")).json()["snapshot"]["state"] == "available"
    assert (await http.get(f"{Z}/volumes/{vol['id']}")).json()["volume"]["state"] == "available"
    r = await http.post(
        f"{Z}/volumes",
        json={"name": "from-snap", "project": DEMO_PROJECT_ID, "volume_type": "l_ssd", "base_snapshot": snap["id"]},
    )
    assert r.status_code == 400 and args(r) == {"volume_type": "constraint"}
    r = await http.post(
        f"{Z}/volumes",
        json={"name": "from-snap", "project": DEMO_PROJECT_ID, "volume_type": "b_ssd", "base_snapshot": snap["id"]},
    )
    assert (
        r.status_code == 201 and r.json()["volume"]["state"] == "fetching" and r.json()["volume"]["size"] == vol["size"]
    )
    boot = (await server_named(http, "web-01"))["volumes"]["0"]
    r = await http.post(
        f"{Z}/snapshots", json={"name": "snap-sbs", "volume_id": boot["id"], "project": DEMO_PROJECT_ID}
    )
    assert r.status_code == 400 and "Block Storage" in r.json()["message"]
    r = await http.post(f"{Z}/snapshots/{snap['id']}/export", json={"bucket": "backups"})
    assert r.status_code == 400 and args(r) == {"key": "required"}
    r = await http.post(f"{Z}/snapshots/{snap['id']}/export", json={"bucket": "backups", "key": "snap-1.qcow2"})
    assert (
        r.status_code == 202
        and (await http.get(f"{Z}/snapshots/{snap['id']}")).json()["snapshot"]["state"] == "exporting"
    )
    clock.advance(6)
    assert (await http.get(f"{Z}/snapshots/{snap['id']}")).json()["snapshot"]["state"] == "available"


async def test_images_from_snapshots(http, clock):
    snap = next(
        s for s in (await http.get(f"{Z}/snapshots")).json()["snapshots"] if s["name"] == "archive-2025-initial"
    )
    r = await http.post(f"{Z}/images", json={"name": "golden", "project": DEMO_PROJECT_ID, "root_volume": snap["id"]})
    assert r.status_code == 400 and args(r) == {"arch": "required"}
    r = await http.post(
        f"{Z}/images", json={"name": "golden", "project": DEMO_PROJECT_ID, "root_volume": snap["id"], "arch": "x86_64"}
    )
    assert r.status_code == 201
    image = r.json()["image"]
    assert image["root_volume"]["id"] == snap["id"] and image["public"] is False
    r = await http.delete(f"{Z}/snapshots/{snap['id']}")
    assert r.status_code == 412 and "golden" in r.json()["help_message"]
    r = await http.patch(f"{Z}/images/{image['id']}", json={"name": "golden-2"})
    assert r.json()["image"]["name"] == "golden-2"
    assert (await http.delete(f"{Z}/images/{image['id']}")).status_code == 204
    assert (await http.delete(f"{Z}/snapshots/{snap['id']}")).status_code == 204
    marketplace = next(i for i in (await http.get(f"{Z}/images", params={"public": "true"})).json()["images"])
    assert (await http.delete(f"{Z}/images/{marketplace['id']}")).status_code == 403


async def test_block_migration_plan_then_apply(http, clock):
    local = next(v for v in (await http.get(f"{Z}/volumes")).json()["volumes"] if v["name"] == "scratch")
    r = await http.post(f"{Z}/block-migration/plan", json={"volume_id": local["id"]})
    assert r.status_code == 400 and "b_ssd" in r.json()["message"]
    archive = next(v for v in (await http.get(f"{Z}/volumes")).json()["volumes"] if v["name"] == "archive-2025")
    plan = (await http.post(f"{Z}/block-migration/plan", json={"volume_id": archive["id"]})).json()
    # The public clients read a plan as {"volume": …, "snapshots": […], "validation_key": …}.
    assert set(plan) == {"volume", "snapshots", "validation_key"}
    assert plan["volume"]["id"] == archive["id"] and len(plan["snapshots"]) == 1 and plan["validation_key"]
    r = await http.post(f"{Z}/block-migration/apply", json={"volume_id": archive["id"], "validation_key": "stale"})
    assert r.status_code == 400 and "plan again" in r.json()["message"]
    r = await http.post(
        f"{Z}/block-migration/apply", json={"volume_id": archive["id"], "validation_key": plan["validation_key"]}
    )
    assert r.status_code == 204
    vol = (await http.get(f"{Z}/volumes/{archive['id']}")).json()["volume"]
    assert vol["volume_type"] == "sbs_volume" and vol["state"] == "hotsyncing"
    assert (await http.get(f"{Z}/snapshots/{plan['snapshots'][0]['id']}")).json()["snapshot"][
        "volume_type"
    ] == "sbs_snapshot"


async def test_backup_action_makes_an_image_of_snapshots(http, clock):
    server = await server_named(http, "worker-batch-2")  # stopped, one l_ssd volume
    r = await http.post(f"{Z}/servers/{server['id']}/action", json={"action": "backup", "name": "wb2-backup"})
    assert r.status_code == 202
    image = next(i for i in (await http.get(f"{Z}/images", params={"name": "wb2-backup"})).json()["images"])
    assert image["state"] == "creating" and image["from_server"] == server["id"]
    assert image["root_volume"]["volume_type"] == "l_ssd"
    clock.advance(6)
    assert (await http.get(f"{Z}/images/{image['id']}")).json()["image"]["state"] == "available"
    r = await http.post(f"{Z}/servers/{server['id']}/action", json={"action": "backup", "name": "bad/name"})
    assert r.status_code == 400 and args(r) == {"name": "format"}
