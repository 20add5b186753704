"""Every kind of write through the one pipeline, on a production profile: the name typed at each send —
a form's second ctrl+s after a lost answer included — and the journal entry naming what was done to
which resource. (Actions, flows, set editors and staged sends: test_production.py; retries whose
effect is there already: test_journal_screen.py.)"""

from __future__ import annotations

import pytest

from helpers import (
    action,
    demo_settings,
    form_ready,
    loaded,
    make_app,
    open_view,
    row_named,
    screen_named,
    typed,
    wait_for,
)
from test_ui_servers import fill_create_form
from tui.sandbox import Sandbox

pytestmark = pytest.mark.anyio


def production(sandbox: Sandbox):
    return make_app(sandbox, settings=demo_settings(profile="prod", production=True))


def writes(sandbox: Sandbox, method: str, tail: str = "") -> int:
    return sum(1 for m, p in sandbox.requests if m == method and p.endswith(tail))


async def asked_then_typed(pilot, app, name: str):
    """The question in front takes `name` typed; answered so. The question."""
    asked = await screen_named(pilot, app, "ConfirmScreen")
    assert asked.require_text == name and "is production" in asked.message
    await pilot.press(*name, "enter")
    return asked


async def lost_then_asked_again(pilot, app, sandbox: Sandbox, form, name: str, method: str) -> None:
    """A form whose answer was lost (and found not applied) stays open; ctrl+s asks the name again and
    nothing is sent until it is typed."""
    await wait_for(pilot, lambda: app.screen is form and "Looked again" in str(form.query_one("#form-status").render()))
    sent = writes(sandbox, method)
    await pilot.press("ctrl+s")
    await screen_named(pilot, app, "ConfirmScreen")
    assert writes(sandbox, method) == sent, "not sent before the name is typed again"
    await pilot.press("escape")
    await wait_for(pilot, lambda: app.screen is form, what="the form, kept")
    assert writes(sandbox, method) == sent


async def test_a_create_form_asks_the_name_again_when_sent_again_after_a_lost_answer():
    sandbox = Sandbox()
    app = production(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        sandbox.inject(504, "/servers", method="POST", times=1)  # the gateway answered; nothing was made
        await fill_create_form(pilot, app, name="web-09")
        form = app.screen
        await pilot.press("ctrl+s")
        await asked_then_typed(pilot, app, "web-09")
        await lost_then_asked_again(pilot, app, sandbox, form, "web-09", "POST")
        entry = app.journal.entries[0]
        assert (entry.doing.what, entry.doing.resource, entry.outcome) == ("Create", "web-09", "failed")
        assert "it was not created" in entry.looked


async def test_an_edit_asks_the_name_again_when_sent_again_after_a_lost_answer():
    sandbox = Sandbox()
    app = production(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        web = row_named(view, "web-01")
        sandbox.inject(504, f"/servers/{web.id}", method="PATCH", times=1)
        view.writes.open_edit(web)
        form = await form_ready(pilot, app)
        await typed(pilot, app, name="web-01-renamed")
        await pilot.press("ctrl+s")
        asked = await asked_then_typed(pilot, app, "web-01")
        assert "Save server web-01 in fr-par-1: Name: web-01 → web-01-renamed" in asked.message, "what changes, said"
        await lost_then_asked_again(pilot, app, sandbox, form, "web-01", "PATCH")
        entry = app.journal.entries[0]
        assert (entry.doing.what, entry.doing.resource, entry.outcome) == ("Edit", "web-01", "failed")


async def test_a_delete_asks_the_name_and_is_journalled_by_what_it_deleted():
    sandbox = Sandbox()
    app = production(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "rdb.backups")
        await wait_for(pilot, lambda: view.table.loaded_count >= 1 and not view.model.listing, what="backups")
        backup = next(r for r in view.table.resources() if r.state != "locked")  # (a locked one is not deleted)
        view.writes.confirm_delete(backup)
        asked = await asked_then_typed(pilot, app, backup.name)
        assert "cannot be undone" in asked.message
        await wait_for(pilot, lambda: writes(sandbox, "DELETE", backup.id) == 1, what="sent once typed")
        await wait_for(pilot, lambda: app.journal.entries[0].outcome == "done", what="answered")
        assert (app.journal.entries[0].doing.what, app.journal.entries[0].doing.resource) == ("Delete", backup.name)


async def test_a_bulk_act_asks_the_count_once_and_journals_each_row_by_name():
    sandbox = Sandbox()
    app = production(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        running = [r for r in view.table.resources() if r.state == "running"][:2]
        for row in running:
            view.table.toggle_mark(row.id)
        view.focus_table()
        await action(pilot, app, "Reboot")
        dialog = await screen_named(pilot, app, "BulkScreen")
        assert app.focused.id == "confirm-text" and "is production" in dialog.bulk.said
        await pilot.press("2", "enter")
        await wait_for(pilot, lambda: len(dialog.outcomes) == 2, what="both sent")
        assert app.screen is dialog, "asked once for all: no question per row"
        named = {(e.doing.what, e.doing.resource) for e in list(app.journal.entries)[:2]}
        assert named == {("Reboot", r.name) for r in running}


async def test_a_retry_on_a_production_profile_asks_the_name_at_its_send():
    sandbox = Sandbox()
    app = production(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        web = row_named(view, "web-01")
        sandbox.inject(409, f"/servers/{web.id}/action", method="POST", times=1)  # busy: refused, retryable
        view.table.move_to(web.id)
        view._do_action(web, next(a for a in view.kind.actions if a.name == "reboot"))
        await asked_then_typed(pilot, app, "web-01")
        await wait_for(pilot, lambda: app.journal.entries and app.journal.entries[0].retryable, what="refused")
        view.focus_table()
        await pilot.press("J")
        await screen_named(pilot, app, "JournalScreen")
        await pilot.press("enter")
        await screen_named(pilot, app, "ResultScreen")
        await pilot.press("tab", "enter")  # Retry
        asked = await asked_then_typed(pilot, app, "web-01")
        assert asked.title_text == "Retry: Reboot · web-01?"
        await wait_for(pilot, lambda: writes(sandbox, "POST", "/action") == 2, what="sent again once typed")
        await wait_for(pilot, lambda: app.journal.entries[0].outcome == "done", what="answered")
        assert (app.journal.entries[0].doing.what, app.journal.entries[0].doing.resource) == ("Retry: Reboot", "web-01")


async def acted_on_orders_db(pilot, app, label: str) -> None:
    """The database instances listed, the action `label` picked on orders-db."""
    await loaded(pilot, app)
    view = await open_view(pilot, app, "rdb.instances")
    view.table.move_to(row_named(view, "orders-db").id)
    await action(pilot, app, label)


async def test_a_grid_asks_the_name_at_each_send_and_looks_after_a_lost_answer(sandbox, clock):
    """Walk 23 F15: the privileges grid (an action that mostly reads: it opens read-only in read-only mode)
    sent its ctrl+s with no question on a production profile. It asks at each send, saying each change,
    and a lost answer is looked at: found not applied, the grid stays with its edits and asks again."""
    clock.advance(10)  # the demo's backup under way settles: the instance takes changes
    app = production(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await acted_on_orders_db(pilot, app, "Privileges (users × databases)…")
        grid = await screen_named(pilot, app, "MatrixScreen")
        await pilot.press("j", "l", "space")  # app × orders: readwrite → all
        sandbox.inject(504, "/privileges", method="PUT", times=1)
        await pilot.press("ctrl+s")
        asked = await asked_then_typed(pilot, app, "orders-db")
        assert "Privileges on orders-db: app on orders: readwrite → all" in asked.message
        await wait_for(pilot, lambda: "Looked again" in str(grid.query_one("#matrix-status").render()), what="looked")
        assert app.screen is grid and grid.changes() == {("app", "orders"): "all"}
        entry = app.journal.entries[0]
        assert (entry.doing.what, entry.doing.resource) == ("Privileges", "orders-db")
        await pilot.press("ctrl+s")
        await screen_named(pilot, app, "ConfirmScreen")
        assert writes(sandbox, "PUT", "/privileges") == 1, "not sent again before the name is typed"


async def test_marked_flexible_ips_are_asked_the_count_once_the_server_is_picked():
    """Walk 23 F16: attaching marked flexible IPs asked the count typed first, before the server was chosen
    and naming one IP of two; the dialog saying what moves where then asked nothing typed."""
    from helpers import pick

    sandbox = Sandbox()
    app = production(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "flexible_ip.fips")
        ready = [r for r in view.table.resources() if r.state == "ready"][:2]
        for row in ready:
            view.table.toggle_mark(row.id)
        await action(pilot, app, "Attach to a server…")
        await screen_named(pilot, app, "PickerScreen")  # the server first: nothing asked yet
        await pick(pilot, app, lambda text: "ready" in text)
        asked = await asked_then_typed(pilot, app, "2")
        assert "→" in asked.message and all(r.name in asked.message for r in ready)
        await wait_for(pilot, lambda: writes(sandbox, "POST", "/fips/attach") == 1, what="sent once typed")


async def test_a_flow_of_several_acts_asks_the_name_where_the_act_picked_is_said(sandbox, clock):
    """Re-walk 23 N5: an instance's endpoints asked its name typed before any act was picked; the question
    saying which endpoint was deleted then asked nothing typed."""
    from helpers import pick

    clock.advance(10)
    app = production(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await acted_on_orders_db(pilot, app, "Endpoints: add, delete, migrate…")
        await screen_named(pilot, app, "PickerScreen")  # the act first: nothing asked yet
        await pick(pilot, app, lambda text: text.startswith("Delete"))
        asked = await asked_then_typed(pilot, app, "orders-db")
        assert "Delete the endpoint" in asked.title_text
        await wait_for(pilot, lambda: writes(sandbox, "DELETE") == 1, what="sent once typed")
