"""Jump anywhere: a resource any list holds, found from the palette by its address, name or ID, opened
in its product's view with the cursor on it, from wherever the operator is."""

from __future__ import annotations

import pytest

from helpers import confirm_yes, child_list, current_view, loaded, make_app, open_view, select, wait_for

pytestmark = pytest.mark.anyio


def _address(row) -> str:
    ips = row.data.get("public_ips") or []
    return (ips[0].get("address") if ips else None) or row.data.get("public_address") or ""


async def test_a_servers_public_address_typed_in_the_palette_lands_on_the_server_from_another_product(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        servers = await open_view(pilot, app, "instance.servers")
        target = next(r for r in reversed(list(servers.table.resources())) if _address(r))
        await wait_for(pilot, lambda: app.finder.search(_address(target)), what="the servers indexed")
        await open_view(pilot, app, "dns.zones")
        await pilot.press("ctrl+p", *_address(target))
        await wait_for(pilot, lambda: app.screen.id != "main" and app.screen.holds_key("enter") is False, what="found")
        from textual.command import CommandList

        shown = app.screen.query_one(CommandList)
        lines = [str(shown.get_option_at_index(i).prompt) for i in range(shown.option_count)]
        assert target.name in lines[0], "the server found first"
        unsaid = [line for line in lines if line.startswith("F indexes every product: not searched yet: ")]
        assert unsaid and "Load balancer" in unsaid[0], "what was not searched is said beside the hit"
        await pilot.press("enter")
        await wait_for(pilot, lambda: current_view(app).kind.id == "instance.servers", what="the servers list")
        await wait_for(pilot, lambda: servers.table.cursor_key == target.id, what="the cursor on the server")
        assert app.focused is servers.table


async def test_a_child_resource_found_opens_its_list_under_its_parent_with_the_cursor_on_it(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        instances = await open_view(pilot, app, "rdb.instances")
        await select(pilot, instances, "orders-db")
        await child_list(pilot, app, "Databases")
        databases = app.screen.view
        await wait_for(pilot, lambda: databases.model.last_attempt is not None, what="databases listed")
        wanted = list(databases.table.resources())[-1]
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.id == "main", what="back")
        found = lambda: [h for h in app.finder.search(wanted.name) if h.kind_id == "rdb.databases"]  # noqa: E731
        await wait_for(pilot, lambda: bool(found()), what="indexed (off the UI thread)")
        hit = found()[0]
        app.finder.jump(hit)
        await wait_for(pilot, lambda: type(app.screen).__name__ == "ChildScreen", what="the child list")
        view = app.screen.view
        assert view.kind.id == "rdb.databases" and view.service.parent.name == "orders-db"
        await wait_for(pilot, lambda: view.model.last_attempt is not None, what="the databases listed")
        assert view.table.cursor_key == wanted.id and app.focused is view.table


async def test_one_key_indexes_every_product_so_a_resource_never_opened_is_found(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        assert not [h for h in app.finder.search("sessions") if h.kind_id == "kvcache.clusters"]
        await pilot.press("F")
        await wait_for(pilot, lambda: any("Indexed" in n.message for n in app.notes), what="every product indexed")
        said = next(n.message for n in app.notes if "Indexed" in n.message)
        assert f"Indexed {len(app.finder.index):,} resources of" in said
        hit = next(h for h in app.finder.search("sessions") if h.kind_id == "kvcache.clusters")
        app.finder.jump(hit)
        await wait_for(pilot, lambda: current_view(app).kind.id == "kvcache.clusters", what="the caches list")
        view = current_view(app)
        await wait_for(pilot, lambda: view.model.last_attempt is not None, what="the caches listed")
        assert view.table.cursor_key == hit.row_id


async def test_a_resource_found_in_another_zone_of_a_product_never_opened_opens_that_zone(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await pilot.press("F")
        await wait_for(pilot, lambda: any("Indexed" in n.message for n in app.notes), what="every product indexed")
        for name in ("db-standby", "db-primary"):  # one of the two is not the list's first row
            hit = next(h for h in app.finder.search(name) if h.kind_id == "baremetal.servers")
            assert name == "db-primary" or hit.scope != app.main.scopes["zone"]  # first: not the zone shown
            app.finder.jump(hit)  # at once: the view is made now (the first time), and not mounted yet
            await wait_for(pilot, lambda: current_view(app).kind.id == "baremetal.servers", what="bare metal")
            view = current_view(app)
            await wait_for(pilot, lambda: view.is_mounted and view.scope == hit.scope, what="the server's zone")
            await wait_for(pilot, lambda: view.model.last_attempt is not None and view.table.cursor_key == hit.row_id)
        assert not app.bugs and not [n for n in app.notes if "failed" in n.message]


async def test_a_palette_command_that_fails_is_said_and_the_console_goes_on(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)

        def broken() -> None:
            raise RuntimeError("a bug")

        app.main.refresh_current = broken
        await pilot.press("ctrl+p", *"Refresh")
        await wait_for(pilot, lambda: getattr(app.screen, "_answered", None) == "Refresh", what="found")
        await pilot.press("enter")
        await wait_for(pilot, lambda: any("a bug" in n.message for n in app.notes), what="said")
        assert app.is_running and app.screen is app.main


async def test_what_shares_a_servers_address_stays_known_after_its_list_was_opened_and_closed(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await pilot.press("F")
        await wait_for(pilot, lambda: any("Indexed" in n.message for n in app.notes), what="every product indexed")
        record = next(h for h in app.finder.search("web1") if h.kind_id == "dns.records")
        app.finder.jump(record)  # the record's list opened on its own screen, then closed
        await wait_for(pilot, lambda: type(app.screen).__name__ == "ChildScreen", what="the records")
        child = app.screen.view
        await wait_for(pilot, lambda: child.model.last_attempt is not None, what="the records listed")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is app.main, what="back")
        servers = await open_view(pilot, app, "instance.servers")
        await select(pilot, servers, "web-01")
        await pilot.press("R")
        await wait_for(pilot, lambda: app.screen.id == "related", what="what points here")
        said = [c[0] for c in app.screen.choices]
        assert any(s.startswith("↔ Records of shop.example.com: web1") for s in said), said
        assert any(s.startswith("↔ Backends of web-lb: web-servers") for s in said), said
        await pilot.press("escape")
        ips = await open_view(pilot, app, "instance.ips")  # the address itself: what uses it
        await select(pilot, ips, "163.172.10.11")
        await pilot.press("R")
        await wait_for(pilot, lambda: app.screen.id == "related", what="what uses the address")
        said = [c[0] for c in app.screen.choices]
        assert any(s.startswith("↔ Records of shop.example.com: web1") for s in said), said
        assert any(s.startswith("↔ Backends of web-lb: web-servers") for s in said), said


async def test_a_search_that_finds_nothing_read_offers_to_index_every_product(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await pilot.press("ctrl+p", *"www.example.com")
        await wait_for(pilot, lambda: getattr(app.screen, "_answered", None) == "www.example.com", what="answered")
        from textual.command import CommandList

        shown = app.screen.query_one(CommandList)
        said = str(shown.get_option_at_index(0).prompt)
        assert said.startswith("No list read holds 'www.example.com'. F indexes every product: not searched yet: ")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.finder.filled, what="every product indexed")
        hit = app.finder.search("www.example.com")[0]  # a record, by its full name
        assert app.finder.said(hit).startswith("www · Records of example.com")


async def test_what_points_here_reads_every_product_on_F_says_so_and_shows_again(sandbox):
    """R before anything else was read: its lines are whole (the dialog is wide), F there reads every
    product (said), and what points here is shown again with what was read."""
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        servers = await loaded(pilot, app)
        await select(pilot, servers, "web-01")
        await pilot.press("R")
        await wait_for(pilot, lambda: app.screen.id == "related", what="what points here")
        options = app.screen.query_one("#choices")
        said = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        unread = next(s for s in said if s.startswith("⟳ Not read yet"))
        assert unread.endswith("(F)") and "…" not in unread, "the line is whole"
        await pilot.press("F")
        await wait_for(pilot, lambda: any("Reading every product" in n.message for n in app.notes), what="said")
        await wait_for(pilot, lambda: app.finder.filled, what="every product read")
        await wait_for(pilot, lambda: app.screen.id == "related", what="shown again")
        said = [c[0] for c in app.screen.choices]
        assert any(s.startswith("↔ Records of shop.example.com: web1") for s in said), said


async def test_a_resource_deleted_leaves_the_index_and_a_hit_gone_since_says_so(sandbox):
    from helpers import notified, row_named

    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        stopped = row_named(view, "worker-batch-2")
        await wait_for(pilot, lambda: app.finder.search("worker-batch-2"), what="indexed")
        hit = app.finder.search("worker-batch-2")[0]
        view.writes.delete(stopped)
        await confirm_yes(pilot, app)
        await wait_for(pilot, lambda: view.table.get(stopped.id) is None, what="deleted")
        await wait_for(pilot, lambda: not app.finder.search("worker-batch-2"), what="out of the index")
        app.finder.jump(hit)  # a hit the palette showed before the delete
        await wait_for(pilot, lambda: notified(app, "worker-batch-2 is not in its list any more"), what="said")


async def test_a_list_that_gave_its_rows_back_is_still_known_as_last_read(sandbox):
    """Walk: once a list out of sight gave its rows back (memory), what points where said its rows
    were not read: the list's empty table stood for what it had read."""
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        servers = await open_view(pilot, app, "instance.servers")
        count = servers.table.loaded_count
        await wait_for(pilot, lambda: app.finder.search("web-01"), what="the servers indexed")
        await open_view(pilot, app, "instance.volumes")
        assert servers.release() and servers.table.loaded_count == 0
        held = {h.kind.id: h for h in app.finder.held()}
        assert len(held["instance.servers"].rows) == count
