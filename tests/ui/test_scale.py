"""Behaviour that must survive the speed work: keyed diff, cursor, counts, partial pages, cheap refresh."""

import httpx
import pytest

from helpers import loaded, make_app, wait_for
from tui.sandbox import DEMO_SECRET_KEY, ManualClock, Sandbox
from tui.products.kit.refresh_plan import RefreshPolicy

pytestmark = pytest.mark.anyio
Z = "/instance/v1/zones/fr-par-1"


def big(n: int) -> Sandbox:
    return Sandbox(clock=ManualClock(), seed="empty", scale=n)


def requests_since(sandbox: Sandbox, start: int) -> list[tuple[str, str]]:
    return list(sandbox.requests)[start:]


async def api(sandbox: Sandbox):
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(sandbox.app), base_url="http://sb", headers={"X-Auth-Token": DEMO_SECRET_KEY}
    )


async def test_every_page_is_loaded_and_counted():
    sandbox = big(250)
    app = make_app(sandbox)
    async with app.run_test(size=(100, 30)) as pilot:
        view = await loaded(pilot, app)
        assert view.table.loaded_count == 250
        assert view.table.border_title == "Servers · fr-par-1 · 250/250"
        assert len({k for k in view.table.shown_keys}) == 250


async def test_the_garbage_collector_is_paused_only_while_a_listing_streams(monkeypatch):
    import gc

    from tui.ui import collector

    states: list[bool] = []
    original = collector.paused

    def spy():
        states.append(gc.isenabled())
        return original()

    monkeypatch.setattr(collector, "paused", spy)
    sandbox = big(250)
    sandbox.inject(503, "page=2&")
    app = make_app(sandbox)
    async with app.run_test(size=(100, 30)) as pilot:
        view = await loaded(pilot, app)
        assert states and gc.isenabled(), "enabled again after a listing with a failed page"
        with collector.paused():
            assert not gc.isenabled()
            with collector.paused():
                pass
            assert not gc.isenabled(), "a nested pause does not end the outer one"
        assert gc.isenabled()
        gc.disable()  # paused by someone else: not ours to turn back on
        try:
            with collector.paused():
                pass
            assert not gc.isenabled()
        finally:
            gc.enable()
        assert view.table.loaded_count == 150


async def test_a_large_pause_freezes_what_it_kept_and_collects_its_garbage_later():
    import gc
    import weakref

    from tui.ui import collector

    class Node:
        me: object = None

    try:
        with collector.paused():
            kept = [Node() for _ in range(collector.FREEZE_AFTER + 1000)]
            cycle = Node()
            cycle.me = cycle
            ref = weakref.ref(cycle)
            del cycle
        assert gc.isenabled() and gc.get_freeze_count() >= len(kept)
        gc.collect()
        assert ref() is not None, "frozen with the rows until the console settles"
        collector.settle()
        assert ref() is None, "the settling collection frees the pause's cyclic garbage"
        assert gc.get_freeze_count() >= len(kept), "the survivors stay frozen"
    finally:
        gc.unfreeze()


async def test_a_failed_page_shows_loaded_of_total_and_keeps_the_rest():
    sandbox = big(300)
    sandbox.inject(503, "page=2&")
    app = make_app(sandbox)
    async with app.run_test(size=(100, 30)) as pilot:
        view = await loaded(pilot, app)
        assert view.table.loaded_count == 200
        assert view.table.border_title.startswith("Servers · fr-par-1 · 200/300+?")
        assert "✖ fr-par-1 503" in view.table.border_title


async def test_cursor_stays_on_its_resource_across_refreshes():
    sandbox = big(250)
    app = make_app(sandbox)
    async with app.run_test(size=(100, 30)) as pilot:
        view = await loaded(pilot, app)
        target = view.table.shown_keys[120]
        assert view.table.move_to(target)
        async with await api(sandbox) as http:
            for sid in view.table.shown_keys[:5]:  # rows above it disappear …
                await http.post(f"{Z}/servers/{sid}/action", json={"action": "poweroff"})
            sandbox.instance.clock.advance(10)
            for sid in view.table.shown_keys[:5]:
                assert (await http.delete(f"{Z}/servers/{sid}")).status_code == 204
            new = await http.post(
                f"{Z}/servers",
                json={  # … and one appears at the top
                    "name": "fresh",
                    "project": sandbox.project_id,
                    "commercial_type": "PRO2-XS",
                    "image": "ubuntu_noble",
                },
            )
            assert new.status_code == 201
        await pilot.press("r")
        await wait_for(pilot, lambda: view.table.loaded_count == 246 and not view.model.listing, what="re-listed")
        assert view.table.cursor_key == target
        assert view.table.border_title == "Servers · fr-par-1 · 246/246"


async def test_rows_changed_on_screen_are_drawn_by_the_next_frame_even_right_after_another():
    """An operator's own act (a staged delete, a row renamed) shows at once: only a listing's pages
    are painted together, at most every PAINT_EVERY (a change right after a repaint waited for it)."""
    app = make_app(big(20))
    async with app.run_test(size=(100, 30)) as pilot:
        view = await loaded(pilot, app)
        make = view.kind.row_maker(view.scope)
        for n, key in enumerate(view.table.shown_keys[:2]):  # back to back: the second within PAINT_EVERY
            view.table.upsert([make({**view.table.get(key).data, "name": f"renamed-{n}"})])
        await pilot.pause()
        assert "renamed-0" in screen_text(app) and "renamed-1" in screen_text(app)


async def test_rows_arriving_below_the_view_move_the_scrollbar_and_can_be_reached():
    """A table's size follows its rows without a layout pass while its scrollbar stays (the bench
    measures that cost): the scrollbar still moves, the last row is still reached; and a scrollbar
    that comes or goes still does."""
    app = make_app(big(40))
    async with app.run_test(size=(100, 30)) as pilot:
        view = await loaded(pilot, app)
        table, make = view.table, view.kind.row_maker(view.scope)
        first = table.get(table.shown_keys[0]).data
        table.upsert([make({**first, "id": f"more-{n}", "name": f"more-{n}"}) for n in range(200)])
        await wait_for(pilot, lambda: table.vertical_scrollbar.window_virtual_size == 241, what="the scrollbar moved")
        await pilot.press("end")
        await pilot.pause()
        assert table.cursor_key == "more-199" and "more-199" in screen_text(app)
        table.clear()  # the scrollbar goes
        await wait_for(pilot, lambda: not table.show_vertical_scrollbar, what="the scrollbar gone")
        table.upsert([make({**first, "id": f"back-{n}", "name": f"back-{n}"}) for n in range(60)])
        await wait_for(pilot, lambda: table.show_vertical_scrollbar, what="the scrollbar back")


async def test_a_sorted_listing_shows_its_first_page_and_its_last_at_once():
    """While pages arrive, a sorted table is reordered and redrawn a few times a second, not per page;
    but the first page of a listing is drawn at once, and so is the last, when the listing ends."""
    app = make_app(big(40))
    async with app.run_test(size=(100, 30)) as pilot:
        view = await loaded(pilot, app)
        table, make = view.table, view.kind.row_maker(view.scope)
        first = table.get(table.shown_keys[0]).data
        table.sort_by("name")
        await pilot.pause()

        def page(prefix: str) -> list:
            return [make({**first, "id": f"{prefix}-{n}", "name": f"{prefix}-{n}"}) for n in range(3)]

        table.listing = True  # right after a repaint (the sort's)
        table.upsert(page("bbb"))
        await pilot.pause()
        assert "bbb-0" in screen_text(app)
        table.upsert(page("aaa"))  # sorts above: waits for the next repaint …
        table.listing = False  # … which the listing's end brings forward
        await pilot.pause()
        assert "aaa-0" in screen_text(app)


def screen_text(app) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def test_sort_and_filter_follow_changes():
    sandbox = big(120)
    app = make_app(sandbox)
    async with app.run_test(size=(100, 30)) as pilot:
        view = await loaded(pilot, app)
        await pilot.press("s")  # by name
        names = [view.table.get(k).name for k in view.table.shown_keys]
        assert names == sorted(names)
        await pilot.press("slash", *"web-")
        await pilot.pause()
        assert view.table.visible_count == len([n for n in names if "web-" in n]) > 0
        first = view.table.shown_keys[0]
        async with await api(sandbox) as http:  # rename it past every other match
            await http.patch(f"{Z}/servers/{first}", json={"name": "web-zzzz"})
        await pilot.press("escape", "r")
        await wait_for(pilot, lambda: view.table.get(first).name == "web-zzzz", what="renamed row")
        assert view.table.shown_keys[-1] == first or view.table.get(view.table.shown_keys[-1]).name > "web-zzzz"
        await pilot.press("slash", *"zzzz")
        await pilot.pause()
        assert view.table.shown_keys == [first]


async def test_a_slow_tick_asks_only_for_what_changed():
    sandbox = big(250)
    app = make_app(sandbox)
    async with app.run_test(size=(100, 30)) as pilot:
        view = await loaded(pilot, app)
        changed = view.table.shown_keys[100:103]
        sandbox.instance.clock.advance(60)
        async with await api(sandbox) as http:
            for sid in changed:
                await http.patch(f"{Z}/servers/{sid}", json={"tags": ["changed"]})
        start = len(sandbox.requests)
        view._tick()
        await wait_for(
            pilot, lambda: all(view.table.get(s).items("tags") == ["changed"] for s in changed), what="changes seen"
        )
        await pilot.pause(0.1)
        sent = requests_since(sandbox, start)
        assert sent == [("GET", f"{Z}/servers")] * 2  # the newest change alone, then one page: not three pages
        assert view.table.loaded_count == 250 and not view.model.listing


class Recorded(httpx.ASGITransport):
    """The sandbox's transport, keeping each request's query and the size of its answer."""

    def __init__(self, app) -> None:
        super().__init__(app)
        self.seen: list[tuple[str, dict[str, str], int]] = []

    async def handle_async_request(self, request):
        answer = await super().handle_async_request(request)
        body = await answer.aread()
        self.seen.append((request.method, dict(request.url.params), len(body)))
        return httpx.Response(answer.status_code, headers=answer.headers, content=body)


async def test_an_idle_probe_is_one_row_not_a_page():
    sandbox = big(250)
    wire = Recorded(sandbox.app)
    app = make_app(sandbox, transport=wire)
    async with app.run_test(size=(100, 30)) as pilot:
        view = await loaded(pilot, app)
        start = len(wire.seen)
        view._tick()  # nothing changed since the list was read
        await wait_for(pilot, lambda: len(wire.seen) > start and not view.model.listing, what="the probe")
        await pilot.pause(0.1)
        (method, query, size), *more = wire.seen[start:]
        assert not more and method == "GET" and query.get("per_page") == "1" and size < 5_000, (query, size)


async def test_a_server_made_elsewhere_shows_first_as_the_api_lists_the_newest():
    from tui.sandbox import DEMO_PROJECT_ID

    sandbox = big(30)
    app = make_app(sandbox)
    async with app.run_test(size=(100, 30)) as pilot:
        view = await loaded(pilot, app)
        sandbox.instance.clock.advance(60)
        body = {"name": "made-elsewhere", "project": DEMO_PROJECT_ID, "commercial_type": "PRO2-XS"}
        async with await api(sandbox) as http:
            made = (await http.post(f"{Z}/servers", json={**body, "image": "ubuntu_noble"})).json()["server"]
        view._tick()
        await wait_for(pilot, lambda: view.table.get(made["id"]) is not None, what="seen")
        assert view.table.shown_keys[0] == made["id"], "first, not last"


async def test_a_deletion_elsewhere_in_a_short_list_is_a_relist():
    """Two pages: listing again costs fewer requests than searching for what is gone."""
    sandbox = big(150)
    app = make_app(sandbox)
    async with app.run_test(size=(100, 30)) as pilot:
        view = await loaded(pilot, app)
        victim = view.table.shown_keys[10]
        server = sandbox.instance.servers["fr-par-1"][victim]
        server["state"] = "stopped"
        async with await api(sandbox) as http:
            assert (await http.delete(f"{Z}/servers/{victim}")).status_code == 204
        start = len(sandbox.requests)
        view._tick()
        await wait_for(pilot, lambda: view.table.get(victim) is None and not view.model.listing, what="row gone")
        assert len(requests_since(sandbox, start)) == 1 + 2  # the change probe, then both pages
        assert view.table.border_title == "Servers · fr-par-1 · 149/149"


async def test_a_deletion_elsewhere_deep_in_a_long_list_is_found_by_pages_of_one():
    sandbox = big(3000)
    app = make_app(sandbox)
    async with app.run_test(size=(100, 30)) as pilot:
        view = await loaded(pilot, app)
        victims = [view.table.shown_keys[2345]]
        async with await api(sandbox) as http:
            for victim in victims:
                sandbox.instance.servers["fr-par-1"][victim]["state"] = "stopped"
                assert (await http.delete(f"{Z}/servers/{victim}")).status_code == 204
        start = len(sandbox.requests)
        view._tick()
        await wait_for(pilot, lambda: all(view.table.get(v) is None for v in victims), what="rows gone")
        await wait_for(pilot, lambda: not view.model.listing, what="the tick over")
        sent = requests_since(sandbox, start)
        # the probe, 12 pages of one row (a search over 3,000 positions), the GET that confirms it gone
        assert len(sent) == 1 + 12 + 1 and sent[-1] == ("GET", f"{Z}/servers/{victims[0]}"), sent
        assert view.table.loaded_count == 2999 and view.table.border_title == "Servers · fr-par-1 · 2,999/2,999"


async def test_fast_ticks_poll_at_most_twenty_by_id():
    sandbox = big(60)
    store = sandbox.instance
    for server in list(store.servers["fr-par-1"].values())[:30]:
        store.plan("fr-par-1", server, [(0, "starting", "booting"), (3600, "running", "booted")])
    app = make_app(sandbox, policy=RefreshPolicy(fast=3600, slow=3600))
    async with app.run_test(size=(100, 30)) as pilot:
        view = await loaded(pilot, app)
        assert len(view.model.moving) == 30
        start = len(sandbox.requests)
        view.model.planner.full_done()  # a full re-list is not due: this tick polls
        view._tick()
        await wait_for(pilot, lambda: len(requests_since(sandbox, start)) >= 20, what="polls")
        await pilot.pause(0.1)
        sent = requests_since(sandbox, start)
        assert len(sent) == 20 and all(m == "GET" and p.startswith(f"{Z}/servers/") for m, p in sent)
