"""A list's model (`products/kit/list_model.py`) against the sandbox, with no app: what a listing, a
refresh and a poll change, what a view is told, what moves, what is kept when a zone fails, and what the
next tick reads. (What a refresh asks of the API is `test_list_delta.py`'s.)"""

from __future__ import annotations

from typing import Any, Iterable

import httpx
import pytest

from tui.api.client import ApiClient, RetryPolicy
from tui.products.kit.base import ALL, Context
from tui.products.kit.list_model import Change, ListModel
from tui.products.manifest import by_id
from tui.products.kit.refresh_plan import RefreshPlanner
from tui.products.kit.service import ResourceService
from tui.sandbox import DEMO_PROJECT_ID, DEMO_SECRET_KEY, ManualClock, Sandbox

pytestmark = pytest.mark.anyio
ZONE = "fr-par-1"


class Shown:
    """A table as the model sees one (`RowSink`): what it was told, held as a table holds it."""

    def __init__(self) -> None:
        self.rows: dict[str, Any] = {}
        self.told = 0

    def upsert(self, rows: Iterable[Any], *, first: bool = False) -> None:
        rows = list(rows)
        new = [r.id for r in rows if r.id not in self.rows] if first else []
        self.rows.update((r.id, r) for r in rows)
        if new:
            self.rows = {**{k: self.rows[k] for k in new}, **self.rows}
        self.told += 1

    def remove_rows(self, keys: Iterable[str]) -> None:
        for key in keys:
            self.rows.pop(key, None)
        self.told += 1

    def replace(self, rows: Iterable[Any]) -> None:
        self.rows = {r.id: r for r in rows}
        self.told += 1

    def clear(self) -> None:
        self.rows = {}
        self.told += 1


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def world():
    sandbox = Sandbox(clock=ManualClock(), seed="empty", scale=250)
    retry = RetryPolicy(deadline=0.2, base=0.01, cap=0.05)
    client = ApiClient("http://sb", DEMO_SECRET_KEY, transport=httpx.ASGITransport(sandbox.app), retry=retry)
    kind = by_id("instance.servers").load()
    service = ResourceService(client, kind, context=lambda sc: Context(DEMO_PROJECT_ID, sc))
    clock = Clock()
    model = ListModel(kind, service, ZONE, clock=clock)
    model.shown = Shown()
    yield sandbox, model, clock
    await client.aclose()


def servers(sandbox: Sandbox, zone: str = ZONE) -> dict[str, dict[str, Any]]:
    return sandbox.instance.servers[zone]


async def delete_elsewhere(sandbox: Sandbox, server: str) -> None:
    """A server deleted by someone else, through the API."""
    servers(sandbox)[server]["state"] = "stopped"
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(sandbox.app), base_url="http://sb", headers={"X-Auth-Token": DEMO_SECRET_KEY}
    ) as http:
        answer = await http.delete(f"/instance/v1/zones/{ZONE}/servers/{server}")
        assert answer.status_code == 204, answer.text


async def test_a_listing_stores_each_page_as_it_comes_and_ends_holding_exactly_what_it_read(world):
    sandbox, model, clock = world
    pages: list[Change] = []
    await model.list_all(pages.append)
    assert model.rows.keys() == servers(sandbox).keys() and len(model.rows) == 250
    assert pages[0].rows == [] and [len(p.rows) for p in pages[1:]] == [100, 100, 50]  # under way, then each page
    assert model.totals == {ZONE: 250} and not model.listing and model.last_refresh == clock.now
    gone = next(iter(servers(sandbox)))
    await delete_elsewhere(sandbox, gone)
    clock.now += 30
    change = await model.list_all()
    assert change.whole and change.gone == [gone] and gone not in model.rows and model.last_refresh == clock.now
    assert list(model.shown.rows) == list(model.rows)  # the view was told every change, in the list's order


async def test_a_zone_that_fails_keeps_its_rows_and_is_named(world):
    sandbox, model, clock = world
    model.set_scope(ALL)
    await model.list_all()
    held = {k for k, r in model.rows.items() if model.kind.scope_of(r) == ZONE}
    assert len(held) == 250 and model.rows.keys() == held  # the other zones have none
    sandbox.inject(503, f"/zones/{ZONE}/servers")
    clock.now += 30
    change = await model.list_all()
    assert set(change.failed) == {ZONE} and set(model.failed) == {ZONE}
    assert held <= model.rows.keys() and model.last_attempt == clock.now and model.last_refresh == clock.now - 30


async def test_a_row_followed_while_a_listing_runs_keeps_the_copy_read_after_the_act(world):
    sandbox, model, clock = world
    await model.list_all()
    target = list(model.rows)[-1]  # on the last page: the act's answer comes before the listing's copy
    ours = model.kind.row_maker(ZONE)({**model.rows[target].data, "state": "stopping"})

    def during(change: Change) -> None:
        if change.rows and ours.id not in model.followed:  # the act's answer lands while pages still come
            model.put([ours])
            model.follow(ours)

    await model.list_all(during)
    assert model.rows[target] is ours and target in model.moving  # not the listing's "running", read before


async def test_what_moves_is_polled_until_it_settles_and_a_row_gone_leaves_the_count(world):
    sandbox, model, clock = world
    moving, deleted = list(servers(sandbox))[:2]
    servers(sandbox)[moving]["state"] = "starting"
    await model.list_all()
    assert model.moving == {moving} and [r.id for r in model.moving_rows()] == [moving]
    servers(sandbox)[moving]["state"] = "running"
    del servers(sandbox)[deleted]
    gone_row = model.rows[deleted]
    change = await model.poll([model.rows[moving], gone_row])
    assert [r.id for r in change.rows] == [moving] and change.gone == [deleted] and change.ok
    assert not model.moving and deleted not in model.shown.rows and model.totals == {ZONE: 249}
    again = await model.poll([gone_row])  # a poll that read it before the other was applied: counted once
    assert again.gone == [] and model.totals == {ZONE: 249}


async def test_a_refresh_stores_what_changed_elsewhere_and_a_failed_one_keeps_the_rows(world):
    sandbox, model, clock = world
    await model.list_all()
    changed, deleted = list(servers(sandbox))[7], list(servers(sandbox))[123]
    sandbox.clock.advance(60)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(sandbox.app), base_url="http://sb", headers={"X-Auth-Token": DEMO_SECRET_KEY}
    ) as http:
        assert (await http.patch(f"/instance/v1/zones/{ZONE}/servers/{changed}", json={"tags": ["x"]})).is_success
    change = await model.refresh()
    assert change is not None and [r.id for r in change.rows] == [changed] and not change.gone
    assert model.rows[changed].items("tags") == ["x"] and model.shown.rows[changed] is model.rows[changed]
    await delete_elsewhere(sandbox, deleted)
    assert await model.refresh() is None  # 250 rows: listing them again is cheaper than a search for the gap
    sandbox.inject(503, "/servers")
    failed = await model.refresh()
    assert failed is not None and set(failed.failed) == {ZONE} and len(model.rows) == 250  # the rows stay


async def test_the_next_tick_reads_what_moves_then_what_changed_then_everything(world):
    sandbox, model, clock = world
    times = [0.0]
    model.planner = RefreshPlanner(now=lambda: times[0])
    row = model.kind.row_maker(ZONE)({"id": "s1", "name": "one", "state": "running"})
    model.put([row])
    assert model.plan(in_sight=True) == "refresh"  # servers have a probe: what changed since
    assert model.plan(in_sight=False) == "poll"  # out of sight: only what moves (here nothing)
    assert model.follow(row) == "poll" and model.follow(row) == "queued"  # one poll for rows followed at once
    assert [r.id for r in model.take_following()] == ["s1", "s1"] and model.moving == {"s1"}
    assert model.plan(in_sight=True) == "poll"
    times[0] += model.planner.policy.slow
    assert model.plan(in_sight=True) == "refresh"  # the slow interval came: what changed, the moving too
    times[0] += model.planner.policy.whole
    assert model.plan(in_sight=True) == "list"  # every row again now and then: a change without its mark is seen
    model.planner.listed()
    model.failed = {ZONE: object()}  # type: ignore[dict-item]
    model.moving.clear()
    assert model.plan(in_sight=True) == "list"  # a probe cannot say what a failed listing missed


async def test_rows_are_given_back_only_when_nothing_would_be_lost(world):
    sandbox, model, clock = world
    await model.list_all()
    model.moving.add(next(iter(model.rows)))
    assert not model.releasable()  # a row followed after an act
    model.moving.clear()
    assert model.releasable()
    model.release({"a"}, "b")
    assert not model.rows and not model.shown.rows and model.released == ({"a"}, "b") and model.totals == {ZONE: 250}
    assert not model.releasable()
