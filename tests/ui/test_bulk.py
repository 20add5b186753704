"""Marks and bulk acts on any kind (issue 35, item 4): one confirmation listing the marked rows and
those that cannot be acted on (with why) before anything is sent; the count typed when data is
lost; an outcome per row that stays until dismissed; tags edited on all marked rows through each
kind's own edit. Against the sandbox, through the keys an operator uses."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList

from helpers import action, loaded, make_app, open_view, screen_named, text_of, typed, wait_for
from tui.sandbox import Sandbox

pytestmark = pytest.mark.anyio


def lines(screen) -> list[str]:
    options = screen.query_one("#bulk-rows", OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


def actions_sent(sandbox, ids) -> list[str]:
    return [p for m, p in sandbox.requests if m == "POST" and p.endswith("/action") and p.split("/")[-2] in ids]


async def test_five_servers_stopped_at_once_one_refused_before_and_one_by_the_api():
    sandbox = Sandbox()
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        rows = view.table.resources()
        stopped = next(r for r in rows if r.state == "stopped")
        running = [r for r in rows if r.state == "running"][:4]
        refusing = running[1]
        sandbox.inject(403, f"/servers/{refusing.id}/action", method="POST", times=1)
        for row in [stopped, *running]:
            view.table.move_to(row.id)
            await pilot.press("space")
        assert len(view.table.marked) == 5 and "5 marked" in str(view.table.border_title)
        await action(pilot, app, "Power off (4 of 5)")
        dialog = await screen_named(pilot, app, "BulkScreen")
        said = lines(dialog)
        assert f"– {stopped.name}" in said[0] and "not while stopped" in said[0]  # first, before anything is sent
        assert app.focused.id == "cancel" and not actions_sent(sandbox, {r.id for r in rows})

        def escape() -> set[str]:  # what esc reads in the key bar
            return {b.binding.description for b in dialog.active_bindings.values() if b.binding.key == "escape"}

        assert escape() == {"Cancel"}
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: escape() == {"Close"}, what="esc reads Close once sent (its button does)")
        await wait_for(pilot, lambda: len(dialog.outcomes) == 4, what="an outcome per server")
        by_name = {line.split()[1]: line for line in lines(dialog)}
        assert by_name[refusing.name].startswith("✗") and "403" in by_name[refusing.name]
        assert all(by_name[r.name].startswith("✓") for r in running if r is not refusing)
        assert "3 accepted, 1 failed" in text_of(dialog.query_one("#dialog-title"))  # begun, not done (README)
        assert sorted(actions_sent(sandbox, {r.id for r in rows})) == sorted(
            f"/instance/v1/zones/fr-par-1/servers/{r.id}/action" for r in running
        )  # one each, none to the stopped one
        assert app.screen is dialog and not view.table.marked  # it stays until dismissed; the marks are spent
        await pilot.press("escape")
        assert app.screen.id == "main"


async def test_a_lost_answer_in_a_bulk_act_is_said_per_row_as_looked_for():
    sandbox = Sandbox()
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        two = [r for r in view.table.resources() if r.state == "running"][:2]
        sandbox.inject(503, f"/servers/{two[0].id}/action", method="POST")  # never applied, answer lost
        view.table.toggle_mark(two[0].id)
        view.table.toggle_mark(two[1].id)
        view.marks.act(next(a for a in view.kind.actions if a.name == "poweroff"), view.table.marked_rows())
        dialog = await screen_named(pilot, app, "BulkScreen")
        dialog.query_one("#confirm").press()
        await wait_for(pilot, lambda: len(dialog.outcomes) == 2, what="both outcomes")
        lost = dialog.outcomes[two[0].id]
        assert lost.mark == "✗" and "answer was lost" in lost.text and "not applied" in lost.text
        sent = next(e for e in app.journal.entries if two[0].id in e.url)  # the journal says what the look found
        assert (sent.outcome, sent.doing.what, sent.retryable) == ("failed", "Power off", True)
        assert "not applied" in sent.looked
        assert dialog.outcomes[two[1].id].mark == "✓"


async def test_a_delete_that_loses_data_is_confirmed_by_typing_the_count():
    sandbox = Sandbox()
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "rdb.backups")
        await wait_for(pilot, lambda: view.table.loaded_count >= 2 and not view.model.listing, what="backups")
        two = [r for r in view.table.resources() if r.state != "locked"][:2]  # (a locked one is not deleted)
        for row in two:
            view.table.toggle_mark(row.id)
        view.focus_table()
        await pilot.press("d")
        dialog = await screen_named(pilot, app, "BulkScreen")
        assert app.focused.id == "confirm-text" and dialog.query_one("#confirm").disabled
        await pilot.press("3", "enter")
        assert app.screen is dialog and "Type 2" in text_of(dialog.query_one("#confirm-hint"))
        await pilot.press("backspace", "2", "enter")
        await wait_for(pilot, lambda: len(dialog.outcomes) == 2, what="both deleted")
        assert all(o.mark == "✓" and o.gone for o in dialog.outcomes.values())
        await pilot.press("escape")

        def going(rid: str) -> bool:  # gone, or shown deleting until it is (read again by id: not taken out at once)
            row = view.table.get(rid)
            return row is None or row.state == "deleting"

        await wait_for(pilot, lambda: all(going(r.id) for r in two), what="read again: deleting, or gone")
        assert sum(1 for m, p in sandbox.requests if m == "DELETE" and "/backups/" in p) == 2


async def test_tags_of_marked_servers_are_added_and_removed_through_their_edit():
    sandbox = Sandbox()
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        web = [r for r in view.table.resources() if "web" in r.items("tags")]
        for row in web:
            view.table.toggle_mark(row.id)
        view.focus_table()
        await pilot.press("e")  # with rows marked: their tags
        await screen_named(pilot, app, "FormScreen")
        await typed(pilot, app, add="audit", remove="prod")
        await pilot.press("ctrl+s")
        dialog = await screen_named(pilot, app, "BulkScreen")
        assert all("→" in line for line in lines(dialog))  # each row's tags, before and after
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: len(dialog.outcomes) == len(web), what="every server retagged")
        stored = sandbox.instance.servers["fr-par-1"]
        for row in web:
            assert "audit" in stored[row.id]["tags"] and "prod" not in stored[row.id]["tags"]
            assert "web" in stored[row.id]["tags"]


async def test_M_marks_every_row_the_filter_shows():
    sandbox = Sandbox()
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        view.table.set_filter("worker")
        view.focus_table()
        await pilot.press("M")
        assert {view.table.get(k).name for k in view.table.marked} == {"worker-batch-1", "worker-batch-2"}
        await pilot.press("escape")  # the filter first, the marks kept
        assert view.table.marked and not view.table._filter
        await pilot.press("escape")
        assert not view.table.marked


async def test_the_dialogs_list_scrolls_with_the_arrows_whatever_has_the_focus(sandbox):
    from tui.products.kit.rows import Row
    from tui.ui.bulk import Bulk
    from tui.ui.screens.bulk import BulkScreen

    app = make_app(sandbox)
    async with app.run_test(size=(80, 24)) as pilot:
        view = await loaded(pilot, app)
        rows = [Row({"id": f"s{i}", "name": f"server-{i:02}"}, "state", "id") for i in range(30)]
        app.push_screen(BulkScreen(Bulk("Power off", rows, [], send=None), view.kind))
        dialog = await screen_named(pilot, app, "BulkScreen")
        await wait_for(pilot, lambda: app.focused is not None and app.focused.id == "cancel", what="the dialog up")
        listed = dialog.query_one("#bulk-rows", OptionList)
        assert listed.max_scroll_y > 0
        await pilot.press("down", "down")
        assert listed.scroll_y == 2
        await pilot.press("end")
        assert listed.scroll_y == listed.max_scroll_y


async def test_marked_servers_are_deleted_at_once_their_volumes_question_asked_once():
    """A server's delete asks about its block volumes: for marked servers it is asked once for all, the
    volumes going with each are named before the count is typed, and each server has its outcome."""
    from helpers import pick, row_named

    sandbox = Sandbox()
    web2 = next(s for s in sandbox.instance.servers["fr-par-1"].values() if s["name"] == "web-02")
    web2["state"] = "stopped"  # its boot volume is block storage: kept, it is detached first
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        marked = [row_named(view, n) for n in ("worker-batch-2", "web-02", "web-01")]
        for row in marked:
            view.table.toggle_mark(row.id)
        view.focus_table()
        await pilot.press("d")
        await screen_named(pilot, app, "PickerScreen")
        assert app.screen.title_text == "Delete 2 servers: their block volumes"  # web-01 runs: not deletable
        await pick(pilot, app, lambda text: text.startswith("Keep the block volumes"))
        dialog = await screen_named(pilot, app, "BulkScreen")
        said = "\n".join(lines(dialog))
        assert "web-01" in said and "power it off first" in said
        assert "deleted with it: (worker-batch-2-vol-0 l_ssd" in said, "each server's volumes named"
        assert "kept, detached first: (web-02-vol-0 sbs_volume" in said
        assert app.focused.id == "confirm-text", "the count typed"
        await pilot.press("2", "enter")
        await wait_for(pilot, lambda: len(dialog.outcomes) == 2, what="an outcome per server")
        assert all(o.mark == "✓" and o.gone for o in dialog.outcomes.values())
        assert not {r.id for r in marked[:2]} & set(sandbox.instance.servers["fr-par-1"])
        to_web2 = [m for m, p in sandbox.requests if p.endswith(f"/servers/{web2['id']}") and m != "GET"]
        assert to_web2 == ["PATCH", "DELETE"], "its volume detached first"
        to_worker = [m for m, p in sandbox.requests if p.endswith(f"/servers/{marked[0].id}") and m != "GET"]
        assert to_worker == ["DELETE"], "no block volume: nothing to detach, nothing sent but the delete (walk 23)"
        assert {e.doing.resource for e in app.journal.entries if e.method == "DELETE"} == {"worker-batch-2", "web-02"}


async def test_marked_servers_without_block_volumes_are_not_asked_about_them():
    """Walk 23 F2: the block volumes question was asked of servers that had none."""
    from helpers import row_named

    sandbox = Sandbox()
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        view.table.toggle_mark(row_named(view, "worker-batch-2").id)  # its only volume is local
        view.focus_table()
        await pilot.press("d")
        dialog = await screen_named(pilot, app, "BulkScreen")
        assert "deleted with it: (worker-batch-2-vol-0 l_ssd" in "\n".join(lines(dialog))
        assert "All its volumes go with it" in dialog.bulk.said


async def test_marked_servers_of_several_zones_are_asked_about_the_block_volumes_one_of_them_has():
    """Re-walk 23: marked in a list of every zone, a server's volumes were read in the view's zone (not found),
    and the block volumes question was not asked though gpu-train-1 has one."""
    from helpers import row_named
    from tui.products.kit.location import ALL

    sandbox = Sandbox()
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        view.set_scope(ALL)
        await wait_for(pilot, lambda: row_named(view, "gpu-train-1") is not None, what="every zone listed")
        for name in ("worker-batch-2", "gpu-train-1"):  # fr-par-1 (local volume), another zone (block volume)
            view.table.toggle_mark(row_named(view, name).id)
        view.focus_table()
        await pilot.press("d")
        await screen_named(pilot, app, "PickerScreen")
        assert app.screen.title_text == "Delete 2 servers: their block volumes"
