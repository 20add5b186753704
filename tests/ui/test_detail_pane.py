"""The detail pane: the detail of the row under the cursor beside the list, following it without a
request per key, kept when another list comes in front, off again with the same key."""

from __future__ import annotations

import pytest

from helpers import loaded, make_app, open_view, wait_for

pytestmark = pytest.mark.anyio


async def test_the_pane_follows_the_cursor_and_the_list_in_front_without_a_request(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        pane, view = app.main.query_one("#pane"), app.main.view
        assert not pane.display
        await pilot.press("p")
        assert pane.display and not app.main.query_one("#area").has_class("-stacked")
        asked = len(sandbox.requests)
        await pilot.press("j", "j", "j")
        under = view.table.get(view.table.cursor_key)
        await wait_for(pilot, lambda: pane.shown_row is under, what="the pane on the row under the cursor")
        assert under.name in str(pane.query_one("#pane-body").render())
        assert len(sandbox.requests) == asked  # read from the row the list holds: nothing asked of the API
        volumes = await open_view(pilot, app, "instance.volumes")
        first = volumes.table.get(volumes.table.cursor_key)
        await wait_for(pilot, lambda: pane.shown_row is first, what="the pane on the volume")
        await pilot.press("p")
        assert not pane.display


async def test_the_pane_stands_below_the_list_on_a_narrow_terminal(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot, app)
        await pilot.press("p")
        assert app.main.query_one("#area").has_class("-stacked")
        pane = app.main.query_one("#pane")
        await wait_for(pilot, lambda: pane.shown_row is not None, what="the pane on the first row")
        assert pane.region.y > app.main.view.region.y  # below the list, not beside it


async def test_a_child_list_has_the_pane_too_and_its_p_holds_for_the_main_screen(sandbox):
    from helpers import child_list, select

    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        instances = await open_view(pilot, app, "rdb.instances")
        await select(pilot, instances, "orders-db")
        await child_list(pilot, app, "Databases")
        child = app.screen
        await wait_for(pilot, lambda: child.view.model.last_attempt is not None, what="databases listed")
        await pilot.press("p")
        pane = child.query_one("#pane")
        first = child.view.table.get(child.view.table.cursor_key)
        await wait_for(pilot, lambda: pane.shown_row is first, what="the pane on the database")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is app.main, what="back")
        main_pane = app.main.query_one("#pane")
        await wait_for(pilot, lambda: main_pane.display and main_pane.shown_row is not None, what="kept on")


async def test_the_pane_follows_the_filter_off_a_row_it_hides(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        pane = app.main.query_one("#pane")
        await pilot.press("p")
        await wait_for(pilot, lambda: pane.shown_row is not None, what="the pane on the first row")
        hidden = pane.shown_row
        await pilot.press("slash", *"web-0")
        await wait_for(
            pilot, lambda: pane.shown_row is not None and pane.shown_row.name.startswith("web-0"), what="a shown row"
        )
        assert hidden.name != pane.shown_row.name and view.table.cursor_key == pane.shown_row.id


def test_a_column_that_reads_what_a_detail_field_reads_is_said_once():
    """Walk: a backend's pane said "Sticky: none" and "Sticky sessions: none", "Servers: 2" and then its
    addresses: a list's column beside the detail's reading of the same value."""
    from tui.products.lb.backends import BACKENDS
    from tui.ui.widgets.detail_pane import _text_of

    row = BACKENDS.row_maker("fr-par")(
        {"id": "b1", "name": "web", "sticky_sessions": "none", "pool": ["10.0.2.21", "2001:db8::21"]}
    )
    lines = _text_of(BACKENDS, row).plain.splitlines()
    assert "Sticky sessions: none" in lines and not [line for line in lines if line.startswith("Sticky:")]
    assert [line for line in lines if line.startswith("Servers:")] == ["Servers: 10.0.2.21"]


def test_a_record_at_the_zones_root_is_named_in_the_pane_as_its_detail_names_it():
    """Walk 23 F9: the pane of a record at `@` (its name empty) had no Name line and was titled by its UUID."""
    from tui.products.dns.children import RECORDS
    from tui.ui.widgets.detail_pane import _text_of

    row = RECORDS.make_row({"id": "cdfe3a10", "name": "", "type": "A", "data": "203.0.113.10", "ttl": 3600})
    assert RECORDS.named(row).startswith("@ A")
    assert "Name: @ (the zone itself)" in _text_of(RECORDS, row).plain


def test_a_reference_only_a_column_shows_reads_whole_in_the_pane():
    """Walk 23 F8: the pane said `OS: c7fee39f`, the column's cut id, neither a name nor a usable id."""
    from tui.products.baremetal.servers import SERVERS
    from tui.ui.widgets.detail_pane import _text_of

    os_id = "c7fee39f-1234-4567-89ab-cdef01234567"
    row = SERVERS.make_row({"id": "s1", "name": "edge-par", "install": {"os_id": os_id}, "install_status": "completed"})
    assert f"OS: {os_id}" in _text_of(SERVERS, row).plain


def test_a_column_titled_as_a_detail_line_that_says_something_is_left_to_it():
    """Walk 23 F8: a cache cluster's pane said `Endpoints:` twice (the column's summary and the detail's)."""
    from tui.products.kvcache.clusters import CLUSTERS
    from tui.ui.widgets.detail_pane import _text_of

    data = {
        "id": "c1",
        "name": "cache-web",
        "endpoints": [{"ips": ["51.15.36.10"], "port": 6379, "public_network": {}}],
    }
    said = _text_of(CLUSTERS, CLUSTERS.make_row(data)).plain
    assert said.count("Endpoints:") == 1, said
