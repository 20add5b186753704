"""The sandbox's paging and routing, shared by every product: a listing's later pages see what
changed since its first (they reuse its filtered, ordered objects only while nothing did), and a
request no route takes is answered as the platform does."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.anyio
R = "/registry/v1/regions/fr-par"


async def page_of(http, path, key, page, **params):
    body = (await http.get(f"{R}/{path}", params={"page": page, "page_size": 1, **params})).json()
    return body["total_count"], [o["id"] for o in body[key]]


async def test_a_write_between_pages_is_seen_by_the_next_page(http):
    total, first = await page_of(http, "images", "images", 1, visibility="inherit")
    assert total >= 2
    r = await http.patch(f"{R}/images/{first[0]}", json={"visibility": "private"})
    assert r.status_code == 200
    assert (await page_of(http, "images", "images", 2, visibility="inherit"))[0] == total - 1


async def test_a_step_applied_or_due_between_pages_is_seen_by_the_next_page(http, clock):
    clock.advance(3600)  # what the demo has under way settles (an image listing settles what is due)
    images = (await http.get(f"{R}/images", params={"name": "frontend"})).json()["images"]
    tags = f"images/{images[0]['id']}/tags"

    async def fresh_total() -> int:
        return (await page_of(http, tags, "tags", 1))[0]  # a first page always lists anew

    first = (await page_of(http, tags, "tags", 1))[1][0]  # a tag of its own digest: deleted alone
    assert (await http.delete(f"{R}/tags/{first}")).status_code == 200
    total = await fresh_total()
    assert total == 3 and (await page_of(http, tags, "tags", 2))[0] == 3  # deleting, still listed
    clock.advance(3600)
    assert (await http.get(f"{R}/tags/{first}")).status_code == 404  # a read applies the step …
    assert (await page_of(http, tags, "tags", 2))[0] == 2  # … and a later page sees it
    second = (await page_of(http, tags, "tags", 1))[1][0]
    assert (await http.delete(f"{R}/tags/{second}", params={"force": "true"})).status_code == 200
    total = await fresh_total()
    clock.advance(3600)  # its step due, not yet applied
    assert (await page_of(http, tags, "tags", 2))[0] == await fresh_total() < total


async def test_a_request_no_route_takes_is_answered_404_or_405(http):
    r = await http.get("/registry/v1/regions/fr-par/nothing-here")
    assert r.status_code == 404 and r.json()["message"] == "no such endpoint: /registry/v1/regions/fr-par/nothing-here"
    r = await http.get("/unknown-product/v1/things")
    assert r.status_code == 404 and r.json()["type"] == "not_found"
    assert (await http.put(f"{R}/images")).status_code == 405
