"""The sandbox's container registry against spec 3 §2.2, §4.2, §7, §8 and spec/4 "Container registry"."""

from __future__ import annotations

import pytest

from helpers import args

pytestmark = pytest.mark.anyio
R = "/registry/v1/regions/fr-par"


async def listed(http, path, key, **params):
    return (await http.get(f"{R}/{path}", params={"page_size": 100, **params})).json()[key]


async def test_a_namespace_name_is_unique_in_its_region_and_follows_the_image_name_rule(http, sandbox):
    r = await http.post(f"{R}/namespaces", json={"name": "web", "project_id": sandbox.project_id})
    assert r.status_code == 409 and r.json()["type"] == "already_exists"
    r = await http.post(
        "/registry/v1/regions/nl-ams/namespaces", json={"name": "web", "project_id": sandbox.project_id}
    )
    assert r.status_code == 200 and r.json()["endpoint"].endswith("/web") and r.json()["region"] == "nl-ams"
    r = await http.post(f"{R}/namespaces", json={"name": "Bad_Name", "project_id": sandbox.project_id})
    assert args(r) == {"name": "format"}
    r = await http.post(
        f"{R}/namespaces",
        json={"name": "ok", "project_id": sandbox.project_id, "organization_id": sandbox.organization_id},
    )
    assert args(r) == {"project_id": "constraint"}  # one owner, not both
    r = await http.post(f"{R}/namespaces", json={"name": "ok", "project_id": sandbox.project_id, "is_public": "yes"})
    assert args(r) == {"is_public": "format"}


async def test_a_namespace_counts_what_it_holds_and_is_edited_by_patch_or_put(http, sandbox):
    web = next(n for n in await listed(http, "namespaces", "namespaces") if n["name"] == "web")
    images = await listed(http, "images", "images", namespace_id=web["id"])
    assert web["image_count"] == len(images) == 3 and web["size"] == sum(i["size"] for i in images)
    r = await http.patch(f"{R}/namespaces/{web['id']}", json={"is_public": True})
    assert r.json()["is_public"] is True and r.json()["description"] == web["description"]
    r = await http.put(f"{R}/namespaces/{web['id']}", json={"description": "new"})
    assert r.json()["description"] == "new"
    assert args(await http.patch(f"{R}/namespaces/{web['id']}", json={"name": "renamed"})) == {"name": "unknown"}


async def test_image_visibility_is_one_of_three_and_listings_filter_and_order(http):
    images = await listed(http, "images", "images", order_by="name_desc")
    assert [i["name"] for i in images] == sorted((i["name"] for i in images), reverse=True)
    frontend = next(i for i in images if i["name"] == "frontend")
    assert frontend["visibility"] == "inherit" and frontend["tags"] == ["v1.4.1", "v1.4.2", "latest"]
    assert args(await http.patch(f"{R}/images/{frontend['id']}", json={"visibility": "everyone"})) == {
        "visibility": "constraint"
    }
    assert (await http.patch(f"{R}/images/{frontend['id']}", json={"visibility": "public"})).json()[
        "visibility"
    ] == "public"
    assert {i["name"] for i in await listed(http, "images", "images", visibility="public")} == {"worker", "frontend"}
    assert args(await http.get(f"{R}/images", params={"order_by": "size_asc"})) == {"order_by": "constraint"}


async def test_a_tag_sharing_its_digest_is_deleted_only_with_force_and_takes_the_others(http, clock):
    frontend = next(i for i in await listed(http, "images", "images", name="frontend"))
    tags = {t["name"]: t for t in await listed(http, f"images/{frontend['id']}/tags", "tags")}
    assert tags["latest"]["digest"] == tags["v1.4.2"]["digest"] != tags["v1.4.1"]["digest"]
    r = await http.delete(f"{R}/tags/{tags['latest']['id']}")
    assert r.status_code == 412 and "v1.4.2" in r.json()["help_message"]
    r = await http.delete(f"{R}/tags/{tags['latest']['id']}", params={"force": "true"})
    assert r.status_code == 200 and r.json()["status"] == "deleting"
    assert (await http.get(f"{R}/tags/{tags['v1.4.2']['id']}")).json()["status"] == "deleting"
    clock.advance(5)
    assert [t["name"] for t in await listed(http, f"images/{frontend['id']}/tags", "tags")] == ["v1.4.1"]
    assert (await http.delete(f"{R}/tags/{tags['v1.4.1']['id']}")).json()[
        "status"
    ] == "deleting"  # alone: no force needed


async def test_deleting_a_namespace_takes_its_images_and_tags_with_the_clock(http, clock):
    web = next(n for n in await listed(http, "namespaces", "namespaces") if n["name"] == "web")
    image = (await listed(http, "images", "images", namespace_id=web["id"]))[0]
    r = await http.delete(f"{R}/namespaces/{web['id']}")
    assert r.status_code == 200 and r.json()["status"] == "deleting"
    clock.advance(5)
    assert (await http.get(f"{R}/namespaces/{web['id']}")).status_code == 404
    assert (await http.get(f"{R}/images/{image['id']}")).status_code == 404
    assert await listed(http, "images", "images", namespace_id=web["id"]) == []


async def test_every_registry_list_pages_with_page_size_and_a_total(http):
    r = (await http.get(f"{R}/namespaces", params={"page_size": 1, "page": 2})).json()
    assert len(r["namespaces"]) == 1 and r["total_count"] >= 3
    assert (await http.get("/registry/v1/regions/fr-par-1/namespaces")).status_code == 400  # a zone is no region
