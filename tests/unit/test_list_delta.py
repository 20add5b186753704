"""A list's change since it was read (`products/kit/list_delta.py`), against the sandbox with no app: the
rows changed, made and deleted elsewhere found, each with the few requests it needs."""

from __future__ import annotations

import httpx
import pytest

from tui.api.client import ApiClient, RetryPolicy
from tui.products.kit.base import Context
from tui.products.kit.list_delta import delta, polled
from tui.products.manifest import by_id
from tui.products.kit.service import ResourceService
from tui.sandbox import DEMO_PROJECT_ID, DEMO_SECRET_KEY, ManualClock, Sandbox

pytestmark = pytest.mark.anyio
Z = "/instance/v1/zones/fr-par-1/servers"


@pytest.fixture
async def listed():
    sandbox = Sandbox(clock=ManualClock(), seed="empty", scale=3000)
    retry = RetryPolicy(deadline=0.2, base=0.01, cap=0.05)
    client = ApiClient("http://sb", DEMO_SECRET_KEY, transport=httpx.ASGITransport(sandbox.app), retry=retry)
    service = ResourceService(client, by_id("instance.servers").load(), context=lambda sc: Context(DEMO_PROJECT_ID, sc))
    held = [row async for chunk in service.iter_list("fr-par-1") for row in chunk.items]
    assert len(held) == 3000
    yield sandbox, client, service, held
    await client.aclose()


async def test_nothing_changed_is_one_request_of_one_row(listed):
    sandbox, client, service, held = listed
    start = len(sandbox.requests)
    found = await delta(service, "fr-par-1", held)
    assert found is not None and not found.fresh and not found.gone and found.totals == {"fr-par-1": 3000}
    assert len(sandbox.requests) - start == 1


async def test_rows_changed_made_and_deleted_elsewhere_are_found_without_a_relist(listed, monkeypatch):
    from tui.sandbox import catalog

    monkeypatch.setitem(catalog.QUOTA_BYTES, "l_ssd", 10**18)  # 3,000 servers' local volumes are over the demo's
    sandbox, client, service, held = listed
    sandbox.clock.advance(60)
    changed, deleted = held[100].id, held[2345].id
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(sandbox.app), base_url="http://sb", headers={"X-Auth-Token": DEMO_SECRET_KEY}
    ) as http:
        await http.patch(f"{Z}/{changed}", json={"tags": ["changed"]})
        body = {
            "name": "made-elsewhere",
            "project": DEMO_PROJECT_ID,
            "commercial_type": "PRO2-XS",
            "image": "ubuntu_noble",
        }
        answer = await http.post(Z, json=body)
        assert answer.status_code == 201, answer.text
        made = answer.json()["server"]["id"]
        sandbox.instance.servers["fr-par-1"][deleted]["state"] = "stopped"
        assert (await http.delete(f"{Z}/{deleted}")).status_code == 204
    start = len(sandbox.requests)
    found = await delta(service, "fr-par-1", held)
    assert found is not None
    assert {r.id for r in found.fresh} == {changed, made} and found.gone == [deleted]
    assert found.totals == {"fr-par-1": 3000}  # one made, one gone
    assert len(sandbox.requests) - start <= 20  # not 30 pages of 100


async def test_more_listed_than_held_is_a_relist(listed):
    sandbox, client, service, held = listed
    assert await delta(service, "fr-par-1", held[:1500] + held[1501:]) is None  # one the probe cannot place


async def test_rows_polled_by_id_come_back_as_they_are_gone_or_failed(listed):
    sandbox, client, service, held = listed
    moved, deleted, failing = held[7], held[8], held[9]
    sandbox.instance.servers["fr-par-1"][moved.id]["tags"] = ["moved"]
    del sandbox.instance.servers["fr-par-1"][deleted.id]
    sandbox.inject(503, f"/servers/{failing.id}")
    found = await polled(service, "fr-par-1", [moved, deleted, failing])
    assert [r.id for r in found.fresh] == [moved.id] and found.fresh[0].items("tags") == ["moved"]
    assert found.gone == {"fr-par-1": [deleted.id]} and [e.status for e in found.errors] == [503]
