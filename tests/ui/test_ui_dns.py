"""DNS from the keyboard, against the sandbox, beyond the walkthrough (tests/ui/test_ui_network_walkthrough.py:
register, a change set, a weighted record, a restore): a version compared with now, a zone whose
name servers are not the default read but not edited, read-only."""

from __future__ import annotations

import re

import pytest

from helpers import (
    cursor_on,
    row_where,
    act,
    child_list,
    demo_settings,
    error_of,
    form_ready,
    loaded,
    make_app,
    open_view,
    screen_named,
    sent,
    set_select,
    text_of,
    tab_to,
    to_named_row,
    wait_for,
)

from dns_keys import on_record, palette, records, records_of, stage, zone

pytestmark = pytest.mark.anyio


async def test_a_version_compared_with_now_shows_each_change_with_its_old_values(sandbox):
    """(The change set itself and a restore are in the walkthrough, test_ui_network_walkthrough.)"""
    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await records_of(pilot, app)
        await cursor_on(pilot, view, row_where(view, type="MX", priority=20))
        await stage(pilot, app, "e", priority="30")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ChildScreen", what="staged edit")
        await cursor_on(pilot, view, row_where(view, type="TXT", data="v=spf1 mx ~all"))
        await pilot.press("d")
        assert sent(sandbox, "/domain/") == []  # nothing sent while staging
        await pilot.press("w")
        await screen_named(pilot, app, "DiffScreen")
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: not view.model.changes, what="sent")
        while app.screen.__class__.__name__ == "ChildScreen":
            await pilot.press("escape")
            await pilot.pause()
        versions = await child_list(pilot, app, "Versions")
        assert all(  # its time and what it changed, not a UUID (item 27)
            r.name.startswith(r.text("created_at")[:19].replace("T", " ")) for r in versions.table.resources()
        )
        assert versions.table.resources()[0].name.endswith("(+0 ~1 −1)")  # the change set: one edit, one delete
        await pilot.press("home", "down")  # newest first: the second is the one before the change set
        await act(pilot, app, "Compare with now")
        diff = await screen_named(pilot, app, "DiffScreen")
        assert sorted(e.op for e in diff.entries) == ["change", "delete"]
        assert "- delete  @ TXT v=spf1 mx ~all" in diff.text and "priority: 20 → 30" in diff.text


async def test_a_zone_on_other_name_servers_is_read_not_edited(sandbox):
    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        zones = await open_view(pilot, app, "dns.zones")
        await to_named_row(pilot, zones, "example.net")
        view = await child_list(pilot, app, "Records")
        assert view.table.loaded_count > 0
        for key in ("c", "e", "d"):
            await pilot.press(key)
            await pilot.pause()
            assert app.screen.__class__.__name__ == "ChildScreen"
        assert any("default name servers" in n.message for n in app.notes) and not view.model.changes


async def test_read_only_reads_records_and_versions_and_sends_nothing(sandbox):
    app = make_app(sandbox, settings=demo_settings(read_only=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await records_of(pilot, app)
        assert view.table.loaded_count > 10
        for key in ("c", "e", "d", "w"):
            await pilot.press(key)
            await pilot.pause()
            assert app.screen.__class__.__name__ == "ChildScreen"
        assert sent(sandbox, "/domain/") == []


async def test_staged_changes_are_never_dropped_without_a_question(sandbox):
    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await records_of(pilot, app)
        await pilot.press("d")
        await wait_for(pilot, lambda: " · 1 staged" in str(view.table.border_title), what="the title counts them")
        for leave in ("escape", "q"):  # back, and quit: each asks, Cancel focused, and Cancel keeps them
            await pilot.press(leave)
            ask = await screen_named(pilot, app, "ConfirmScreen")
            assert "1 staged change" in ask.message and app.focused.id == "cancel"
            assert "There are" not in ask.message  # issue 32 item 27: 'There is 1 staged change'
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ChildScreen", what="kept")
            assert len(view.model.changes) == 1
        # the palette does not jump away from them either
        await palette(pilot, app, "Registry namespaces")
        await wait_for(
            pilot, lambda: any("send them (w) or drop them (esc) first" in n.message for n in app.notes), what="said"
        )
        assert app.screen.__class__.__name__ == "ChildScreen" and len(view.model.changes) == 1


async def test_a_record_staged_to_be_added_is_dropped_only_after_a_question(sandbox):
    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await records_of(pilot, app)
        added = view.staged.stage_add({"name": "walk2", "type": "A", "data": "192.0.2.78", "ttl": 3600})
        view.table.move_to(added.id)
        view.focus_table()
        await pilot.press("d")
        ask = await screen_named(pilot, app, "ConfirmScreen")
        assert "not sent" in ask.message and app.focused.id == "cancel"
        await pilot.press("enter")  # Cancel: kept
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ChildScreen", what="kept")
        assert len(view.model.changes) == 1 and view.table.get(added.id) is not None
        await pilot.press("d")
        await screen_named(pilot, app, "ConfirmScreen")
        await pilot.press("tab", "enter")  # Drop
        await wait_for(pilot, lambda: not view.model.changes, what="dropped")


async def test_a_clone_onto_a_zone_with_records_says_to_tick_overwrite_then_asks_for_its_name(sandbox):
    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        zones = await open_view(pilot, app, "dns.zones")
        await to_named_row(pilot, zones, "example.com")
        await act(pilot, app, "Clone to another zone")
        form = await form_ready(pilot, app)
        await tab_to(pilot, app, "f-dest_dns_zone")
        await pilot.press(*"shop.example.com", "ctrl+s")
        status = form.query_one("#form-status")
        await wait_for(pilot, lambda: "tick Overwrite" in str(status.render()), what="the advice")
        before = records(sandbox, "shop.example.com")
        await tab_to(pilot, app, "f-overwrite")
        await pilot.press("space", "ctrl+s")
        confirm = await screen_named(pilot, app, "ConfirmScreen")
        assert confirm.require_text == "shop.example.com" and app.focused.id == "confirm-text"
        await pilot.press(*"shop.example.com", "enter")
        await wait_for(pilot, lambda: records(sandbox, "shop.example.com") != before, what="cloned")
        await wait_for(
            pilot,
            lambda: any(n.message == "example.com: cloned into shop.example.com" for n in app.notes),
            what="the toast names the target (issue 32 item 27)",
        )


async def test_an_untouched_edit_of_an_http_check_record_is_not_a_change(sandbox):
    """Issue 32 item 18: `e` then `esc` closes without 'Drop what you typed?' (a choice filled inside
    the dynamic variant is not input); `e` then `ctrl+s` stages nothing and says so."""
    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await records_of(pilot, app)
        await cursor_on(pilot, view, next(r for r in view.table.resources() if r.data.get("http_service_config")))
        for leave in ("escape", "ctrl+s"):
            await pilot.press("e")
            form = await form_ready(pilot, app)
            await wait_for(pilot, lambda: form.ready, what="choices loaded")
            await pilot.press(leave)
            await wait_for(pilot, lambda: app.screen.__class__.__name__ != "FormScreen", what="closed")
            assert app.screen.__class__.__name__ == "ChildScreen", f"{leave}: {app.screen}"
        assert not view.model.changes
        assert any(n.message.startswith("Nothing changed in api A") for n in app.notes)


def _order(view):
    """(name, type) of the rows as the table shows them, top to bottom."""
    from tui.products.dns.names import shown

    return [
        (shown(view.table.get(k).text("name")).lower(), view.table.get(k).text("type")) for k in view.table.shown_keys
    ]


async def test_records_are_sorted_by_name_then_type_and_a_new_one_takes_its_place(sandbox):
    """Issue 32 item 26: not the API's order (here the reverse of the names'); a record made
    elsewhere is in its place after `r`, not at the bottom."""
    from tui.sandbox.core import FaultRule

    def answer_reversed():  # the platform's own order, whatever it is
        found = list(reversed(records(sandbox, "example.com")))
        rule = FaultRule(
            200, "/dns-zones/example.com/records?", "GET", body={"records": found, "total_count": len(found)}
        )
        sandbox.faults[:] = [rule]

    answer_reversed()
    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await records_of(pilot, app)
        assert _order(view) == sorted(_order(view)) and _order(view)[0][0] == ""  # the zone itself (@) first
        sandbox.dns.put_records(
            zone(sandbox, "example.com"), [{"name": "aaa", "type": "TXT", "data": "made elsewhere"}]
        )
        answer_reversed()
        await pilot.press("r")
        await wait_for(pilot, lambda: any(n == "aaa" for n, _ in _order(view)), what="the new record")
        assert _order(view) == sorted(_order(view))


async def test_at_80_columns_a_record_shows_its_dynamic_kind_and_a_cut_value_ends_in_an_ellipsis(sandbox):
    """Issue 32 item 25 (DNS part): Name, Type, Data and Dynamic fit at 80 columns; a long value is cut with "…"."""
    from helpers import drawn_lines

    sandbox.dns.put_records(
        zone(sandbox, "example.com"), [{"name": "a-long", "type": "TXT", "data": "v=DKIM1; k=rsa; p=" + "A" * 60}]
    )
    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot, app)
        view = await records_of(pilot, app)
        lines = drawn_lines(view.table)
        assert lines[0].split()[-1] == "Dynamic" or "Dynamic" in lines[0]
        assert any("api" in line and "HTTP check" in line for line in lines)
        cut = next(line for line in lines if "a-long" in line)
        assert re.search(r"p=A+… ", cut), cut


@pytest.mark.parametrize(("label", "method"), [("Remove every record", "PATCH"), ("Delete every record", "DELETE")])
async def test_every_record_of_a_zone_goes_from_its_actions_after_its_name_is_typed(sandbox, label, method):
    """Issue 32 item 21: the `clear` change and DELETE …/records from the keyboard; the service's
    name and version under the zones list (GET on the prefix)."""
    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        zones = await open_view(pilot, app, "dns.zones")
        await wait_for(pilot, lambda: "v2beta1" in str(zones.table.border_subtitle or ""), what="the service's version")
        await to_named_row(pilot, zones, "shop.example.com")
        versions = len(zone(sandbox, "shop.example.com")["_versions"])
        await act(pilot, app, label)
        ask = await screen_named(pilot, app, "ConfirmScreen")
        assert ask.require_text == "shop.example.com" and app.focused.id == "confirm-text"
        await pilot.press(*"shop.example.com", "enter")
        await wait_for(pilot, lambda: records(sandbox, "shop.example.com") == [], what="the records gone")
        assert (method, "/domain/v2beta1/dns-zones/shop.example.com/records") in sent(sandbox, "/domain/")
        assert len(zone(sandbox, "shop.example.com")["_versions"]) == versions + 1


async def test_an_undo_that_would_put_a_cname_beside_another_record_is_refused(sandbox):
    """Walk defect: `d` on the www CNAME, an A staged at www (rightly accepted), then `u` on the CNAME
    would have put both at www: the undo is refused with the form's rule; so is a review made bad by a refresh."""
    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await records_of(pilot, app)
        cname = row_where(view, name="www", type="CNAME")
        await cursor_on(pilot, view, cname)
        await pilot.press("d")
        await stage(pilot, app, "c", name="www", type="A", data="192.0.2.4")
        await wait_for(pilot, lambda: len(view.model.changes) == 2, what="the A staged")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ChildScreen", what="the form closed")
        await cursor_on(pilot, view, cname)
        await pilot.press("u")
        await wait_for(pilot, lambda: any("stands alone" in n.message for n in app.notes), what="the refusal")
        assert len(view.model.changes) == 2 and view.model.changes.get(cname.id).op == "delete"
        # the review refuses a change set that breaks the rule (a CNAME made elsewhere at a name staged)
        elsewhere = {"name": "www", "type": "CNAME", "data": "example.org."}
        sandbox.dns.put_records(zone(sandbox, "example.com"), [elsewhere])
        await pilot.press("r")
        at_www = lambda: [r for r in view.table.resources() if r.get("name") == "www"]  # noqa: E731
        await wait_for(pilot, lambda: len(at_www()) == 3, what="read")
        await pilot.press("w")
        await wait_for(pilot, lambda: any(n.title == "Not sent" for n in app.notes), what="the review refused")
        assert app.screen.__class__.__name__ == "ChildScreen" and sent(sandbox, "/domain/") == []


async def test_a_record_name_ending_in_a_dot_is_read_against_the_zone(sandbox):
    """Walk defect: `status.example.com.` was staged as `status.example.com` (sent: status.example.com.example.com)."""
    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await records_of(pilot, app)
        form = await stage(pilot, app, "c", name="status.example.com.", type="A", data="192.0.2.4")
        await wait_for(pilot, lambda: "holds a CNAME" in error_of(form, "type"), what="the sandbox's status CNAME seen")
        await tab_to(pilot, app, "f-name")
        await pilot.press("ctrl+u", *"dev5.example.com.")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: len(view.model.changes) == 1, what="staged")
        assert view.model.changes.changes[0].after["name"] == "dev5"


async def test_while_the_changes_are_being_sent_esc_and_q_say_so_and_stay(sandbox, monkeypatch):
    """Walk defect: esc during `w` asked "Drop the staged changes?" and Drop left the list: the
    send's outcome went to the log only. Now esc and q wait for the answer, which is shown."""
    import asyncio

    from tui.products.kit.outcome import OutcomeUnclear

    gate = asyncio.Event()

    async def held(service, scope, changes, rows):  # a send whose answer takes its time, then is lost
        await gate.wait()
        raise OutcomeUnclear("the answer was lost: cloudtui cannot tell")

    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await loaded(pilot, app)
        view = await records_of(pilot, app)
        monkeypatch.setattr(view.kind.writing.staged.batch, "_value", held)
        await pilot.press("d", "w")
        await screen_named(pilot, app, "DiffScreen")
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: view.staged.sending, what="sending")
        for n, leave in enumerate(("escape", "q"), 1):
            await pilot.press(leave)
            said = lambda: sum("being sent" in note.message for note in app.notes)  # noqa: E731
            await wait_for(pilot, lambda: said() == n, what=f"{leave} said it")
            assert app.screen.__class__.__name__ == "ChildScreen"
        toasts = lambda: [t for t in app.screen.query("Toast") if "being sent" in str(t.render())]  # noqa: E731
        await wait_for(pilot, toasts, what="the toast")
        assert len(toasts()) == 1  # said twice: one toast, not one per key pressed
        gate.set()
        await wait_for(pilot, lambda: any("marked ?" in n.message for n in app.notes), what="the outcome shown")
        assert (
            app.screen.__class__.__name__ == "ChildScreen" and not view.staged.sending and len(view.model.changes) == 1
        )


async def test_the_data_example_follows_the_record_type(sandbox):
    """Walk: the Data field said "e.g. 192.0.2.10" whatever type was chosen. Its example follows
    the type, in the edit of a record and in a new one as its type is chosen."""
    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await on_record(pilot, app, "CAA")
        await pilot.press("e")
        form = await form_ready(pilot, app)
        assert form.query_one("#f-data").placeholder == 'e.g. 0 issue "letsencrypt.org"'
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ChildScreen", what="closed")
        await pilot.press("c")
        form = await form_ready(pilot, app)
        data = form.query_one("#f-data")
        assert data.placeholder == "e.g. 192.0.2.10"
        await set_select(pilot, form, "type", "TXT")
        await wait_for(pilot, lambda: data.placeholder == "e.g. v=spf1 mx ~all", what="the TXT example")
        await set_select(pilot, form, "type", "MX")
        await wait_for(pilot, lambda: "mail.example.com." in data.placeholder, what="the MX example")


async def test_sent_changes_show_as_sent_when_the_list_cannot_be_read_again(sandbox):
    """Walk: the changes applied, the list's reload failed, and the rows stayed marked + and - (while
    `w`, dim, did nothing): they show as sent at once."""
    from tui.products.kit.changeset import STAGED

    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await records_of(pilot, app)
        caa = row_where(view, type="CAA")
        await cursor_on(pilot, view, caa)
        await pilot.press("d")
        await stage(pilot, app, "c", name="dev1", data="192.0.2.7")
        await wait_for(pilot, lambda: len(view.model.changes) == 2, what="staged")
        sandbox.inject(503, "/records", method="GET")  # the list read again after the send fails
        await pilot.press("w")
        await screen_named(pilot, app, "DiffScreen")
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: not view.model.changes, what="sent")
        rows = list(view.table.resources())
        assert caa.id not in {r.id for r in rows} and any(r.get("name") == "dev1" for r in rows)
        assert not any(r.text(STAGED) for r in rows)


async def test_a_record_at_the_zone_root_is_named_in_its_detail_and_its_id_said_once(sandbox):
    """Walk: the detail of a record at `@` was titled by its id, twice."""
    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await records_of(pilot, app)
        root = row_where(view, name="", type="A")
        await cursor_on(pilot, view, root)
        await pilot.press("enter")
        detail = await screen_named(pilot, app, "DetailScreen")
        title = text_of(detail.query_one("#detail-title"))
        assert "@ A 203.0.113.10" in title and title.count(root.id) == 1
        assert "DNS › example.com › Records › @ A" in title  # a child's detail names its parent, as its list does


async def test_a_detail_title_too_long_for_the_terminal_ends_in_an_ellipsis(sandbox):
    """Walk: at 80 columns a TLSA record's detail title lost its hash and id with no mark."""
    from helpers import drawn_lines

    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot, app)
        await on_record(pilot, app, "TLSA")
        await pilot.press("enter")
        detail = await screen_named(pilot, app, "DetailScreen")
        title = detail.query_one("#detail-title")
        await wait_for(pilot, lambda: "TLSA" in drawn_lines(title)[0], what="the title drawn")
        assert drawn_lines(title)[0].endswith("…")
