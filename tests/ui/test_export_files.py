"""Files out: the servers list as shown (filtered) to CSV, a detail's JSON to a file and copied."""

from __future__ import annotations

import csv
import json

import pytest

from helpers import loaded, make_app, notified, pick, screen_named, wait_for, zone_records
from tui.sandbox import Sandbox

pytestmark = pytest.mark.anyio


async def test_the_filtered_servers_list_to_csv_and_a_detail_as_json(tmp_path):
    app = make_app(Sandbox())
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        view.table.set_filter("web")
        view.focus_table()
        await pilot.press("E")
        await screen_named(pilot, app, "PickerScreen")
        await pick(pilot, app, lambda t: t.startswith("CSV"))
        save = await screen_named(pilot, app, "FilePickerScreen")
        assert save.query_one("#file-path").value.endswith("instance-servers-fr-par-1-filtered.csv")  # not all
        await pilot.press("ctrl+u", *str(tmp_path / "servers.csv"), "enter")
        await wait_for(pilot, lambda: notified(app, f"to {tmp_path / 'servers.csv'}"), what="written")
        rows = list(csv.DictReader((tmp_path / "servers.csv").open()))
        assert {r["Name"] for r in rows} == {"web-01", "web-02", "staging-web"} and "Public IP" in rows[0]
        await pilot.press("enter")  # the detail of the row under the cursor
        detail = await screen_named(pilot, app, "DetailScreen")
        await pilot.press("Y")
        assert json.loads(app.clipboard)["id"] == detail.row.id
        await pilot.press("E")
        again = await screen_named(pilot, app, "FilePickerScreen")
        assert again.query_one("#file-path").value.startswith(str(tmp_path)), "in the folder last used"
        await pilot.press("ctrl+u", *str(tmp_path / "one.json"), "enter")
        await wait_for(pilot, lambda: notified(app, f"to {tmp_path / 'one.json'}"), what="saved")
        assert json.loads((tmp_path / "one.json").read_text())["name"] == detail.row.name


async def test_a_zones_records_as_a_zone_file(tmp_path):
    app = make_app(Sandbox())
    async with app.run_test(size=(120, 40)) as pilot:
        records = await zone_records(pilot, app, "shop.example.com")
        records.focus_table()
        await pilot.press("E")
        await screen_named(pilot, app, "PickerScreen")
        await pick(pilot, app, lambda t: t == "Zone file")
        save = await screen_named(pilot, app, "FilePickerScreen")
        assert save.query_one("#file-path").value.endswith("shop.example.com.zone")
        await pilot.press("ctrl+u", *str(tmp_path / "shop.zone"), "enter")
        await wait_for(pilot, lambda: notified(app, f"to {tmp_path / 'shop.zone'}"), what="written")
        text = (tmp_path / "shop.zone").read_text()
        assert text.splitlines()[1:3] == ["$ORIGIN shop.example.com.", "$TTL 3600"]
        web1 = next(r for r in records.table.resources() if r.text("name") == "web1")
        assert f"web1 {web1.data['ttl']} IN A {web1.text('data')}" in text.splitlines()
        assert len(text.splitlines()) == 3 + records.table.loaded_count


async def test_a_zone_file_exported_changed_and_imported_back_is_staged_and_reviewed_as_a_diff(tmp_path):
    sandbox = Sandbox()
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        records = await zone_records(pilot, app, "shop.example.com")
        from tui.products.dns.zone_file import dump

        text = dump(records.table.resources(), records.service.parent)
        lines = [x for x in text.splitlines() if not x.startswith("web1 ")]  # web1 taken out
        lines.append("shop-new 600 IN A 192.0.2.80")  # one added
        (tmp_path / "shop.zone").write_text("\n".join(lines) + "\n")
        (tmp_path / "bad.zone").write_text(text + "bad 30 IN A 192.0.2.1\n")  # a TTL the record form refuses
        records.focus_table()
        await pilot.press("I")
        await screen_named(pilot, app, "FilePickerScreen")
        await pilot.press("ctrl+u", *str(tmp_path / "bad.zone"), "enter")  # refused whole: nothing staged
        await wait_for(pilot, lambda: notified(app, "nothing was staged"), what="refused")
        assert notified(app, f"line {len(text.splitlines()) + 1}: bad 30 IN A 192.0.2.1: ")  # named by its line
        assert not records.model.changes
        await pilot.press("I")
        await screen_named(pilot, app, "FilePickerScreen")
        await pilot.press("ctrl+u", *str(tmp_path / "shop.zone"), "enter")
        await wait_for(pilot, lambda: notified(app, "1 to add, 0 to change, 1 to delete"), what="staged")
        assert len(records.model.changes) == 2 and not [
            m for m, p in sandbox.requests if m != "GET" and "/dns-zones/" in p
        ]
        await pilot.press("I")  # a second file is not laid over the changes staged from the first
        await wait_for(pilot, lambda: notified(app, "holds 2 staged changes"), what="refused")
        await pilot.press("w")  # the review: a diff before anything is sent
        review = await screen_named(pilot, app, "DiffScreen")
        assert "shop-new" in review.text and "web1" in review.text


async def test_a_zone_exported_and_imported_unedited_stages_nothing(tmp_path):
    from tui.products.dns.zone_file import dump

    app = make_app(Sandbox())
    async with app.run_test(size=(120, 40)) as pilot:
        records = await zone_records(pilot, app, "example.com")  # MX, SRV, TXT with ; and an ALIAS
        (tmp_path / "same.zone").write_text(dump(records.table.resources(), records.service.parent))
        records.focus_table()
        await pilot.press("I")
        await screen_named(pilot, app, "FilePickerScreen")
        await pilot.press("ctrl+u", *str(tmp_path / "same.zone"), "enter")
        await wait_for(pilot, lambda: notified(app, "0 to add, 0 to change, 0 to delete"), what="nothing to stage")
        assert not records.model.changes
