"""DNS from the keyboard, against the sandbox: an external domain registered and its TXT record
copied; in a zone, an A record added, an MX priority changed and a TXT record deleted in one
reviewed change set (one PATCH, in order); the new version, compared and the previous restored; a
weighted record; a zone whose name servers are not the default refused for editing; read-only."""

from __future__ import annotations

import pytest

from helpers import (
    act, child_list, demo_settings, error_of, form_ready, loaded, make_app, open_view, screen_named, sent, set_select, tab_to, to_named_row,
    wait_for,
)

pytestmark = pytest.mark.anyio


def zone(sandbox, name):
    return sandbox.dns.zones[name]


def records(sandbox, name):
    return list(zone(sandbox, name)["_records"].values())


def row_where(view, **fields):
    return next(r for r in view.table.resources() if all(r.get(k) == v for k, v in fields.items()))


async def to_row(pilot, view, row):
    await pilot.press("home")
    for _ in range(view.table.visible_count):
        if view.table.cursor_key == row.id:
            return
        await pilot.press("down")
    raise AssertionError(f"no row {row.id}")


async def stage(pilot, app, key, **values):
    """`c` or `e` on the records list, the form filled, staged with ctrl+s."""
    await pilot.press(key)
    form = await form_ready(pilot, app)
    for field, text in values.items():
        if field == "type":
            await set_select(pilot, form, "type", text)
            continue
        await tab_to(pilot, app, f"f-{field}")
        await pilot.press("ctrl+u", *text)
    await pilot.press("ctrl+s")
    return form


async def test_register_an_external_domain_and_copy_its_txt_record(sandbox):
    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await open_view(pilot, app, "dns.domains")
        await pilot.press("c")
        form = await form_ready(pilot, app)
        await tab_to(pilot, app, "f-domain")
        await pilot.press(*"nodot", "ctrl+s")
        await wait_for(pilot, lambda: "two labels" in error_of(form, "domain"), what="domain refused")
        await pilot.press("ctrl+u", *"Läden.example", "ctrl+s")
        dialog = await screen_named(pilot, app, "ResultScreen")
        token = sandbox.dns.domains["xn--lden-loa.example"]["_token"]
        assert dialog.copy_text == f'_scaleway-challenge.xn--lden-loa.example. 3600 IN TXT "{token}"'
        assert "48 hours" in dialog.text and "ns0.dns.sandbox.example" in dialog.text and "läden.example" in dialog.text
        await pilot.press("y")
        assert app.clipboard == dialog.copy_text


async def test_one_reviewed_change_set_then_a_version_compared_and_restored(sandbox, clock):
    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        zones = await open_view(pilot, app, "dns.zones")
        await to_named_row(pilot, zones, "example.com")
        view = await child_list(pilot, app, "Records")
        versions_before = len(zone(sandbox, "example.com")["_versions"])

        # stage: an A record added (a bad address refused first, the field named)
        form = await stage(pilot, app, "c", name="new", data="192.0.2.300")
        await wait_for(pilot, lambda: "IPv4" in error_of(form, "data"), what="data refused")
        await tab_to(pilot, app, "f-data")
        await pilot.press("ctrl+u", *"192.0.2.77", "ctrl+s")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ChildScreen", what="staged")
        # an MX priority changed, a TXT record deleted
        await to_row(pilot, view, row_where(view, type="MX", priority=20))
        await stage(pilot, app, "e", priority="30")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ChildScreen", what="staged edit")
        await to_row(pilot, view, row_where(view, type="TXT", data="v=spf1 mx ~all"))
        await pilot.press("d")
        assert [m for m, p in sent(sandbox, "/domain/")] == []  # nothing sent while staging

        # review: the diff, Cancel focused; then sent as one PATCH of three changes in order
        await pilot.press("w")
        review = await screen_named(pilot, app, "DiffScreen")
        assert app.focused.id == "cancel"
        assert [e.op for e in review.entries] == ["add", "change", "delete"]
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: any(r["data"] == "192.0.2.77" for r in records(sandbox, "example.com")), what="sent")
        assert sent(sandbox, "/domain/") == [("PATCH", "/domain/v2beta1/dns-zones/example.com/records")]
        now = records(sandbox, "example.com")
        assert any(r["type"] == "MX" and r["priority"] == 30 for r in now) and not any(r["data"] == "v=spf1 mx ~all" for r in now)
        assert len(zone(sandbox, "example.com")["_versions"]) == versions_before + 1

        # the versions: the previous one compared with now, then restored (the zone's name typed)
        while app.screen.__class__.__name__ == "ChildScreen":
            await pilot.press("escape")
            await pilot.pause()
        versions = await child_list(pilot, app, "Versions")
        await pilot.press("home", "down")  # the newest first: the second is the one before the change set
        await act(pilot, app, "Compare with now")
        diff = await screen_named(pilot, app, "DiffScreen")
        assert sorted(e.op for e in diff.entries) == ["add", "change", "delete"]
        await pilot.press("escape")
        await screen_named(pilot, app, "ChildScreen")
        await act(pilot, app, "Restore this version")
        confirm = await screen_named(pilot, app, "ConfirmScreen")
        assert confirm.require_text == "example.com" and "100" in confirm.message
        await pilot.press(*"example.com", "enter")
        await wait_for(pilot, lambda: any(r["data"] == "v=spf1 mx ~all" for r in records(sandbox, "example.com")), what="restored")
        assert not any(r["data"] == "192.0.2.77" for r in records(sandbox, "example.com"))
        assert versions is not None


async def test_a_weighted_record_and_a_zone_with_other_name_servers(sandbox):
    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        zones = await open_view(pilot, app, "dns.zones")
        await to_named_row(pilot, zones, "shop.example.com")
        await child_list(pilot, app, "Records")
        await pilot.press("c")
        form = await form_ready(pilot, app)
        await tab_to(pilot, app, "f-name")
        await pilot.press(*"pool")
        await tab_to(pilot, app, "f-data")
        await pilot.press(*"192.0.2.1")
        await set_select(pilot, form, "dynamic", "weighted")
        await tab_to(pilot, app, "f-dynamic--weighted--weights")
        await pilot.press(*"192.0.2.1=3", "enter", *"192.0.2.2=1", "ctrl+s")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ChildScreen", what="staged")
        await pilot.press("w")
        await screen_named(pilot, app, "DiffScreen")
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: any(r.get("weighted_config") for r in records(sandbox, "shop.example.com")), what="weighted sent")
        made = next(r for r in records(sandbox, "shop.example.com") if r.get("weighted_config"))
        assert made["weighted_config"]["weighted_ips"] == [{"ip": "192.0.2.1", "weight": 3}, {"ip": "192.0.2.2", "weight": 1}]

        while app.screen.id != "main":
            await pilot.press("escape")
            await pilot.pause()
        await to_named_row(pilot, zones, "example.net")
        await child_list(pilot, app, "Records")
        await pilot.press("c")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "ChildScreen"
        assert any("default name servers" in n.message for n in app.notes)


async def test_read_only_reads_records_and_versions_and_sends_nothing(sandbox):
    app = make_app(sandbox, settings=demo_settings(read_only=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        zones = await open_view(pilot, app, "dns.zones")
        await to_named_row(pilot, zones, "example.com")
        view = await child_list(pilot, app, "Records")
        assert view.table.loaded_count > 10
        for key in ("c", "e", "d", "w"):
            await pilot.press(key)
            await pilot.pause()
            assert app.screen.__class__.__name__ == "ChildScreen"
        assert sent(sandbox, "/domain/") == []
