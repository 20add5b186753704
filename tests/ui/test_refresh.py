"""Refresh scheduling: fast GET-by-id polls only while something moves, none under a modal, after a failure."""

import pytest

from helpers import loaded, make_app, wait_for
from tui.products.kit.refresh_plan import RefreshPlanner, RefreshPolicy

Z = "/instance/v1/zones/fr-par-1"


class FakeTime:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def test_planner_polls_fast_only_while_moving_and_relists_slowly():
    now = FakeTime()
    p = RefreshPlanner(RefreshPolicy(fast=2, slow=30), now=now)
    assert p.next_delay(moving=False) == 30 and p.next_delay(moving=True) == 2
    assert p.plan(moving=False) == "full"
    assert p.plan(moving=True) == "poll"
    now.t = 31
    assert p.plan(moving=True) == "full"
    p.full_done()
    assert p.plan(moving=True) == "poll"


def test_one_chain_of_ticks_whatever_fires_it():
    """A tick asked for now (a view shown again) drops the one armed; each tick arms the next. A tick
    armed and forgotten went off as well, and every refresh after it added a chain of its own (a list
    read at :11, :14, :20, :41, :44, :50 of each minute)."""
    from types import SimpleNamespace

    from tui.ui.refresher import Refresher

    class Timer:
        def __init__(self, callback):
            self.callback, self.stopped, self.fired = callback, False, False

        def go_off(self):
            self.fired = True
            self.callback()

    armed: list[Timer] = []

    def set_timer(delay, callback):
        armed.append(Timer(callback))
        return armed[-1]

    Timer.stop = lambda self: setattr(self, "stopped", True)
    widget = SimpleNamespace(is_attached=True, display=True, set_timer=set_timer)
    widget.screen = widget.app = SimpleNamespace(screen=None)
    widget.app.screen = widget.screen
    ticks = []
    refresher = Refresher(widget, lambda: (ticks.append(1), refresher.done(True)))
    refresher.arm()
    refresher.fire()  # shown again: a tick now
    armed[-1].go_off()  # the next one goes off
    live = [t for t in armed if not t.stopped and not t.fired]
    assert len(ticks) == 2 and len(live) == 1


def test_what_moves_for_long_is_polled_less_and_less_often_until_an_act_of_ours():
    """A zone pending validation for hours was read every 2 s for as long as it was shown: after a
    minute of moving, each poll comes twice as far from the last, up to the slow interval."""
    now = FakeTime()
    p = RefreshPlanner(RefreshPolicy(fast=2, slow=30), now=now)
    delays = []
    for _ in range(40):
        delays.append(p.next_delay(moving=True))
        now.t += delays[-1]
    assert delays[:30] == [2] * 30 and delays[30:35] == [4, 8, 16, 30, 30]
    p.hurried()  # an act of ours
    assert p.next_delay(moving=True) == 2
    assert p.next_delay(moving=False) == 30 and p.next_delay(moving=True) == 2  # settled, then moving anew


def test_after_a_failure_the_next_refresh_comes_at_the_normal_interval_jittered():
    """Not 4x later after a 429 (a view stayed stale 107 s after the platform recovered): the client's
    limiter paces what was refused; the interval is only spread so that views do not try together."""
    draws = iter([0.0, 1.0, 0.5])
    p = RefreshPlanner(RefreshPolicy(fast=2, slow=30), now=FakeTime(), rng=lambda: next(draws))
    p.failed()
    assert [p.next_delay(moving=False) for _ in range(3)] == [27.0, 33.0, 30.0]
    p.succeeded()
    assert p.next_delay(moving=False) == 30 and p.next_delay(moving=True) == 2


def started(sandbox) -> str:
    """A stopped server of the demo powered on: the id of a row moving (starting) for a while."""
    store = sandbox.instance
    sid = next(s["id"] for s in store.servers["fr-par-1"].values() if s["name"] == "worker-batch-2")
    store.run_action("fr-par-1", store.servers["fr-par-1"][sid], "poweron", {})
    return sid


def polls(sandbox, since=0):
    return [p for m, p in list(sandbox.requests)[since:] if m == "GET" and p.startswith(f"{Z}/servers/")]


def lists(sandbox, since=0):
    return [p for m, p in list(sandbox.requests)[since:] if p == f"{Z}/servers"]


@pytest.mark.anyio
async def test_transitional_servers_are_polled_by_id_until_they_settle(sandbox, clock):
    sid = started(sandbox)
    app = make_app(sandbox, policy=RefreshPolicy(fast=0.05, slow=3600, paused=0.05))
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        assert view.table.get(sid).state == "starting"
        start = len(sandbox.requests)
        await wait_for(pilot, lambda: len(polls(sandbox, start)) >= 3, what="fast polls")
        assert set(polls(sandbox, start)) == {f"{Z}/servers/{sid}"}  # only the moving one, by id
        assert lists(sandbox, start) == []  # no re-list while polling
        clock.advance(10)
        await wait_for(pilot, lambda: view.table.get(sid).state == "running", what="settled")
        assert not view.refresher.moving()  # nothing moves: the next tick is the slow re-list only
        assert view.refresher.planner.next_delay(view.refresher.moving()) == 3600


@pytest.mark.anyio
async def test_no_polling_while_a_modal_is_open(sandbox):
    started(sandbox)
    app = make_app(sandbox, policy=RefreshPolicy(fast=0.05, slow=0.2, paused=0.05))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "HelpScreen")
        view = app.main.view
        await wait_for(pilot, lambda: not view.model.listing, what="any request under way finished")
        start = len(sandbox.requests)
        assert view.refresher.paused()
        view.refresher.fire()  # the timer going off under the modal: it only re-checks
        view.refresher.fire()
        await pilot.pause()
        assert len(sandbox.requests) == start
        await pilot.press("escape")
        await wait_for(pilot, lambda: len(sandbox.requests) > start, what="polling resumed")


@pytest.mark.anyio
async def test_a_429_on_the_list_keeps_the_rows_and_says_so(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        assert not view.model.planner.failing
        sandbox.inject(429, "/servers")
        await pilot.press("r")
        await wait_for(pilot, lambda: not view.model.listing and view.model.failed, what="failed list")
        assert view.model.planner.failing
        assert view.table.loaded_count == 8  # what was shown stays shown
        await wait_for(pilot, lambda: any("429 too many requests" in n.message for n in app.notes), what="429 notified")


@pytest.mark.anyio
async def test_ages_move_on_between_reads_every_row_at_once(monkeypatch):
    from helpers import drawn_lines
    from tui.sandbox import Sandbox
    from tui.ui.widgets.resource_table import ResourceTable

    monkeypatch.setattr(ResourceTable, "AGES_EVERY", 0.05)
    now = FakeTime()
    now.t = 1_800_000_000.0
    app = make_app(Sandbox(), clock=now)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        before = drawn_lines(view.table)
        now.t += 400 * 86_400  # no read since: the rows are the same, their ages are not
        await wait_for(pilot, lambda: drawn_lines(view.table) != before, what="ages drawn again")
        after = drawn_lines(view.table)
        ages = [line.split()[-2] for line in after[1:] if line.strip()]  # Created, before the tags
        assert ages and all(a == "y" for a in ages), "every row, not only the cursor's"


@pytest.mark.anyio
async def test_ages_that_did_not_change_draw_nothing_and_those_that_did_only_their_lines(monkeypatch):
    """Idle on a list whose ages are as drawn, the table asks for no drawing at all; when ages move on,
    only the cells on screen whose text changed are drawn again, once, not the whole table."""
    from tui.sandbox import Sandbox

    now = FakeTime()
    now.t = 1_800_000_000.0
    app = make_app(Sandbox(), clock=now)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        await pilot.pause()
        asked: list[tuple] = []
        real = view.table.refresh
        monkeypatch.setattr(view.table, "refresh", lambda *regions, **kw: asked.append(regions) or real(*regions, **kw))
        view.table._ages_move_on()
        assert asked == [], "nothing changed: nothing drawn"
        now.t += 400 * 86_400
        view.table._ages_move_on()
        assert len(asked) == 1 and asked[0], "lines, not the whole table"
        rows_shown = min(view.table.loaded_count, view.table.scrollable_content_region.height - 1)
        assert len(asked[0]) == rows_shown and all(region.height == 1 for region in asked[0])
        assert all(region.width < view.table.size.width for region in asked[0]), "the cells that moved on"
        await pilot.pause()  # drawn with the time now: what it was drawn with is kept, and nothing is left to draw
        view.table._ages_move_on()
        assert len(asked) == 1, "drawn again and again: the texts of the first drawing were kept"


@pytest.mark.anyio
async def test_rows_the_cursor_passed_over_move_on_with_the_others(monkeypatch):
    """A row the cursor left is drawn again from the line kept for it, drawn before the cursor came:
    its age then is what the screen shows, so it moves on with every other row (it stayed 5 s behind)."""
    from tui.sandbox import Sandbox

    now = FakeTime()
    now.t = 1_800_000_000.0
    app = make_app(Sandbox(), clock=now)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        table = view.table
        table.focus()
        table.refresh()  # every line drawn as it is shown (focused)
        await pilot.pause()
        now.t += 400 * 86_400  # ages move on; the cursor passes over a row before the table draws them again
        await pilot.press("down", "down")
        await pilot.pause()
        asked: list[tuple] = []
        real = table.refresh
        monkeypatch.setattr(table, "refresh", lambda *regions, **kw: asked.append(regions) or real(*regions, **kw))
        table._ages_move_on()
        lines = {region.y for region in asked[0]}
        assert 2 in lines, "the row the cursor passed over (line 2) is drawn with the others"
        assert 3 not in lines, "the cursor's row was drawn with the time now"


@pytest.mark.anyio
async def test_a_drawn_line_sends_a_styles_codes_once_a_run_not_once_a_cell():
    from tui.sandbox import Sandbox

    app = make_app(Sandbox())
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        await pilot.pause()
        line = view.table.render_line(3)  # a row, not the cursor's
        styles = [s.style for s in line]
        runs = sum(1 for i, st in enumerate(styles) if i == 0 or st != styles[i - 1])
        assert len(styles) == runs, "adjacent cells of one style are one segment"
        assert runs < len(view.table.columns), "fewer runs than cells: most cells share the row's style"


@pytest.mark.anyio
async def test_rows_followed_keep_being_polled_when_their_view_is_out_of_sight(sandbox, clock):
    """A server started, then another list opened: the server is still polled by id until it settles
    (and only it: the list out of sight is not read again), then nothing is sent for that list."""
    from helpers import open_view

    sid = started(sandbox)
    app = make_app(sandbox, policy=RefreshPolicy(fast=0.05, slow=3600, paused=0.05))
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        await open_view(pilot, app, "instance.volumes")
        assert not view.display
        start = len(sandbox.requests)
        await wait_for(pilot, lambda: len(polls(sandbox, start)) >= 3, what="polls out of sight")
        assert set(polls(sandbox, start)) == {f"{Z}/servers/{sid}"} and lists(sandbox, start) == []
        clock.advance(10)
        await wait_for(pilot, lambda: view.table.get(sid).state == "running", what="settled out of sight")
        await wait_for(pilot, lambda: view.refresher.paused(), what="nothing left to do out of sight")


@pytest.mark.anyio
async def test_a_list_read_again_while_the_api_refuses_keeps_its_rows_and_says_why(sandbox):
    from tui.api.client import RetryPolicy

    app = make_app(sandbox, retry=RetryPolicy(deadline=10, base=0.4, cap=0.4))
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        sandbox.inject(429, "/servers", times=5)  # two seconds of retries: the title is said again each second
        await pilot.press("r")
        await wait_for(pilot, lambda: "stale, retrying (429)…" in str(view.table.border_title), what="why it is stale")
        assert view.table.loaded_count == 8  # the rows last read, shown meanwhile
        await wait_for(pilot, lambda: not view.model.listing and not view.model.failed, what="read again")
        assert "retrying" not in str(view.table.border_title) and view.table.loaded_count == 8


@pytest.mark.anyio
async def test_a_list_shown_again_is_read_again(sandbox, clock, monkeypatch):
    """Walk: a list come back to was shown as it was last read, up to the next slow tick (30 s)."""
    import httpx

    from helpers import open_view
    from tui.sandbox import DEMO_SECRET_KEY
    from tui.ui.widgets import resource_view

    monkeypatch.setattr(resource_view, "SHOWN_FRESH", -1.0)  # (5 s in use: read again whenever shown, here)
    app = make_app(sandbox, policy=RefreshPolicy(fast=3600, slow=3600))
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        sid = view.table.shown_keys[2]
        await open_view(pilot, app, "instance.volumes")
        clock.advance(60)
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(sandbox.app), base_url="http://sb", headers={"X-Auth-Token": DEMO_SECRET_KEY}
        ) as http:
            assert (await http.patch(f"{Z}/servers/{sid}", json={"tags": ["changed"]})).status_code == 200
        await open_view(pilot, app, "instance.servers")
        await wait_for(pilot, lambda: view.table.get(sid).items("tags") == ["changed"], what="read again when shown")
