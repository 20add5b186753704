"""A zone file imported into a zone's records (`I`), and many staged changes sent (issue: zone-file
import, items 4, 6, 8): a large file is checked off the UI thread and staged in one pass; a file
that would delete the zone's own name servers or most of it asks first; a TTL changed is a change
(`~`) that can be sent; a send of more changes than a request carries, stopped partway, says what was
applied and keeps the rest staged."""

from __future__ import annotations

import threading

import pytest

from dns_keys import records, zone
from helpers import demo_settings, make_app, notified, screen_named, wait_for, zone_records

pytestmark = pytest.mark.anyio
SHOP = "shop.example.com"


async def import_file(pilot, app, path) -> None:
    await pilot.press("I")
    await screen_named(pilot, app, "FilePickerScreen")
    await pilot.press("ctrl+u", *str(path), "enter")


def exported(view) -> str:
    from tui.products.dns.zone_file import dump

    return dump(view.table.resources(), view.service.parent)


async def test_a_large_file_is_checked_off_the_ui_thread_and_each_row_made_once(sandbox, tmp_path, monkeypatch):
    """Item 4: staging was quadratic on the UI thread (every staged record laid every added row again)."""
    from tui.products.kit.rows import Row
    from tui.records import replace

    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(120, 40)) as pilot:
        view = await zone_records(pilot, app, SHOP)
        (tmp_path / "big.zone").write_text(exported(view) + "".join(f"h{n} 300 IN A 192.0.2.9\n" for n in range(2000)))
        checked_on, made = set(), []
        edit = view.kind.edit.get()

        def values(row):
            checked_on.add(threading.current_thread() is threading.main_thread())
            return edit.from_resource(row)

        monkeypatch.setattr(view.kind.edit, "_value", replace(edit, from_resource=values))
        init = Row.__init__
        monkeypatch.setattr(Row, "__init__", lambda self, *a, **k: made.append(1) or init(self, *a, **k))
        view.focus_table()
        await import_file(pilot, app, tmp_path / "big.zone")
        await wait_for(pilot, lambda: notified(app, "2,000 to add"), what="staged", timeout=30)
        assert len(view.model.changes) == 2000 and view.table.loaded_count == len(records(sandbox, SHOP)) + 2000
        assert checked_on == {False}, "each record is checked by the form in a worker thread"
        assert len(made) <= 3 * 2000, "each staged row made a few times, not once per row staged after it"


async def test_a_file_that_would_delete_the_zones_name_servers_and_most_of_it_asks_first(sandbox, tmp_path):
    """Item 6: a file holding one record staged deleting every other, apex NS included, unsaid."""
    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(120, 40)) as pilot:
        view = await zone_records(pilot, app, SHOP)
        (tmp_path / "one.zone").write_text(f"$ORIGIN {SHOP}.\n$TTL 3600\nwww IN CNAME {SHOP}.\n")
        view.focus_table()
        await import_file(pilot, app, tmp_path / "one.zone")
        asked = await screen_named(pilot, app, "ConfirmScreen")
        assert "name servers (its NS records at @)" in asked.message and "more than half" in asked.message
        assert not view.model.changes  # said before anything is staged, and before the review
        await pilot.press("escape")
        await wait_for(pilot, lambda: notified(app, "one.zone: nothing was staged"), what="refused")
        assert not view.model.changes


async def test_a_file_changing_only_a_ttl_stages_a_change_that_is_sent(sandbox, tmp_path):
    """Item 8: it was staged as an add and a delete, and the platform refused the add."""
    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(120, 40)) as pilot:
        view = await zone_records(pilot, app, SHOP)
        web1 = next(r for r in records(sandbox, SHOP) if r["name"] == "web1")
        text = exported(view).replace(f"web1 {web1['ttl']} IN A", "web1 600 IN A")
        (tmp_path / "ttl.zone").write_text(text)
        view.focus_table()
        await import_file(pilot, app, tmp_path / "ttl.zone")
        await wait_for(pilot, lambda: notified(app, "0 to add, 1 to change, 0 to delete"), what="staged")
        assert view.table.get(web1["id"]).text("_staged") == "~"
        await pilot.press("w")
        review = await screen_named(pilot, app, "DiffScreen")
        assert "ttl: 3600 → 600" in review.text
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: notified(app, "Sent 1 change."), what="sent")
        assert zone(sandbox, SHOP)["_records"][web1["id"]]["ttl"] == 600  # the same record, its TTL changed


async def test_a_send_in_several_requests_stopped_partway_says_what_was_applied_and_keeps_the_rest(
    sandbox, monkeypatch
):
    """Item 4: many changes go as the platform takes them, a request at a time (`CHUNK`, 2 here)."""
    from tui.products.dns import sending

    monkeypatch.setattr(sending, "CHUNK", 2, raising=False)
    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(120, 40)) as pilot:
        view = await zone_records(pilot, app, SHOP)
        web1 = next(r for r in records(sandbox, SHOP) if r["name"] == "web1")
        for name in ("new1", "new2"):
            view.staged.stage_add({"name": name, "type": "A", "data": "192.0.2.50", "ttl": 3600})
        view.staged.stage_add({"name": "web1", "type": "A", "data": web1["data"], "ttl": 3600})  # the zone holds it
        view.focus_table()
        await pilot.press("w")
        await screen_named(pilot, app, "DiffScreen")
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: notified(app, "2 changes of 3 were applied"), what="stopped partway")
        assert notified(app, "change 3 of 3 (add web1 A") and notified(app, "The change not applied stays staged")
        assert {r["name"] for r in records(sandbox, SHOP)} >= {"new1", "new2"}
        assert [c.after["name"] for c in view.model.changes.changes] == ["web1"]
        assert not [r for r in view.table.resources() if r.get("name") in ("new1", "new2") and r.text("_staged")]
