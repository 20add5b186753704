"""Bare-metal flexible IPs from the keyboard, against the sandbox: the list grouped by server,
marking rows and attaching or detaching them at once (a MAC group moving together), virtual MACs,
create/edit/delete with every rule checked before sending, and the 64-per-server limit."""

from __future__ import annotations

import pytest

from helpers import action, loaded, make_app, open_view, pick, screen_named, wait_for

pytestmark = pytest.mark.anyio
ZONE = "fr-par-2"


def writes(sandbox):
    return [(m, p) for m, p in sandbox.requests if m != "GET" and p.startswith("/flexible-ip/")]


def by_ip(sandbox, address):
    return next(f for f in sandbox.fip.fips[ZONE].values() if f["ip_address"] == address)


def server_id(sandbox, name):
    return next(s["id"] for s in sandbox.baremetal.servers[ZONE].values() if s["name"] == name)


def seeded(sandbox):
    """The demo's IPs by role: the MAC group of two on db-primary, the standby's, the spare."""
    fips = sandbox.fip.fips[ZONE].values()
    group = sorted((f for f in fips if f["mac_address"]), key=lambda f: f["description"])
    standby = next(f for f in fips if f["description"] == "standby")
    spare = next(f for f in fips if f["description"] == "spare")
    return group, standby, spare


async def open_fips(pilot, app):
    await loaded(pilot, app)
    view = await open_view(pilot, app, "flexible_ip.fips")
    if view.scope != ZONE:
        app.main.set_scope(ZONE)
        await wait_for(
            pilot, lambda: view.scope == ZONE and not view.model.listing and view.table.loaded_count == 4, what=ZONE
        )
    view.focus_table()
    await pilot.pause()
    return view


async def mark(pilot, view, *rids):
    for rid in rids:
        view.table.move_to(rid)
        await pilot.press("space")


async def confirm(pilot, app):
    screen = await screen_named(pilot, app, "ConfirmScreen")
    message = screen.message
    await pilot.press("tab", "enter")
    return message


async def settle(pilot, view, clock, rids, state):
    clock.advance(4)
    await pilot.press("r")
    await wait_for(
        pilot, lambda: all(view.table.get(r) is not None and view.table.get(r).state == state for r in rids), what=state
    )


async def test_listed_by_server_with_names_macs_and_v6_blocks(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await open_fips(pilot, app)
        group, standby, spare = seeded(sandbox)
        assert str(view.table.border_title) == "Flexible IPs · fr-par-2 · 4/4 · by Server ↑"
        # grouped: db-primary's two, db-standby's, then the unattached one last
        names = [view.table.get(k).text("server_name") or "—" for k in view.table.shown_keys]
        assert names == ["db-primary", "db-primary", "db-standby", "—"]
        v6 = view.table.get(group[1]["id"])
        assert v6.name.endswith("::/64") and v6.text("mac") == group[0]["mac_address"]["mac_address"]
        assert view.table.get(spare["id"]).text("mac") == ""


async def test_two_marked_ips_attach_in_one_request_and_the_marks_clear(sandbox, clock):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await open_fips(pilot, app)
        _, standby, spare = seeded(sandbox)
        await mark(pilot, view, standby["id"], spare["id"])
        assert view.table.marked == {standby["id"], spare["id"]}
        assert "2 marked" in str(view.table.border_title)
        await pilot.press("a")
        menu = await screen_named(pilot, app, "PickerScreen")
        reasons = {c[0]: c[2] for c in menu.choices}
        assert reasons["Detach from its server"] == f"{spare['ip_address']}: it is not attached to a server"
        assert reasons["Virtual MAC: generate…"] == "asks about each: one at a time"
        await pick(pilot, app, lambda t: t == "Attach to a server…")
        servers = await screen_named(pilot, app, "PickerScreen")
        assert any(c[0].startswith("build-farm · ready · 0/64") for c in servers.choices)
        await pick(pilot, app, lambda t: t.startswith("build-farm"))
        message = await confirm(pilot, app)
        assert f"{standby['ip_address']} leaves db-standby" in message
        target = server_id(sandbox, "build-farm")
        await wait_for(pilot, lambda: standby["server_id"] == target and spare["server_id"] == target, what="attached")
        assert writes(sandbox) == [("POST", f"/flexible-ip/v1alpha1/zones/{ZONE}/fips/attach")]
        assert view.table.marked == set() and "marked" not in str(view.table.border_title)
        await wait_for(pilot, lambda: view.table.get(spare["id"]).state == "updating", what="updating")
        assert view.table.get(spare["id"]).text("server_name") == "build-farm"
        await settle(pilot, view, clock, [standby["id"], spare["id"]], "attached")


async def test_a_mac_group_moves_together_and_a_member_detached_alone_loses_its_mac(sandbox, clock):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await open_fips(pilot, app)
        (a, b), _, _ = seeded(sandbox)
        mac = a["mac_address"]["mac_address"]
        # only one member marked: the console adds the other and says so before sending
        await mark(pilot, view, a["id"])
        await pilot.press("a")
        await screen_named(pilot, app, "PickerScreen")
        await pick(pilot, app, lambda t: t == "Attach to a server…")
        await screen_named(pilot, app, "PickerScreen")
        await pick(pilot, app, lambda t: t.startswith("build-farm"))
        message = await confirm(pilot, app)
        assert f"{b['ip_address']} shares the virtual MAC {mac}: the group moves together" in message
        target = server_id(sandbox, "build-farm")
        await wait_for(pilot, lambda: a["server_id"] == target and b["server_id"] == target, what="both moved")
        await settle(pilot, view, clock, [a["id"], b["id"]], "attached")
        # detach one of them: it is warned it loses the MAC, and it does
        view.table.move_to(a["id"])
        await action(pilot, app, "Detach from its server")
        message = await confirm(pilot, app)
        assert f"{a['ip_address']} loses the virtual MAC {mac}: its group ({b['ip_address']}) keeps it" in message
        await settle(pilot, view, clock, [a["id"]], "ready")
        assert a["mac_address"] is None and b["mac_address"]["mac_address"] == mac
        assert view.table.get(a["id"]).text("mac") == ""


async def test_virtual_mac_generate_duplicate_on_one_server_only_move_and_delete(sandbox, clock):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await open_fips(pilot, app)
        (a, b), standby, spare = seeded(sandbox)
        # duplicating onto the standby's IP from db-primary's group: greyed with why, nothing sent
        view.table.move_to(standby["id"])
        await action(pilot, app, "Virtual MAC: duplicate from another IP…")
        sources = await screen_named(pilot, app, "PickerScreen")
        assert all("a MAC is duplicated between IPs of one server" in (c[2] or "") for c in sources.choices)
        await pilot.press("escape")
        assert writes(sandbox) == []
        # generate on the standby's IP
        await action(pilot, app, "Virtual MAC: generate…")
        await screen_named(pilot, app, "PickerScreen")
        await pick(pilot, app, lambda t: t == "xen")
        await wait_for(pilot, lambda: view.table.get(standby["id"]).text("mac_type") == "xen", what="generated")
        assert standby["mac_address"]["mac_type"] == "xen"
        # attach the spare to the standby's server, then duplicate the MAC onto it
        view.table.move_to(spare["id"])
        await action(pilot, app, "Attach to a server…")
        await screen_named(pilot, app, "PickerScreen")
        await pick(pilot, app, lambda t: t.startswith("db-standby"))
        await confirm(pilot, app)
        await wait_for(pilot, lambda: spare["server_id"] == standby["server_id"], what="spare attached")
        await settle(pilot, view, clock, [spare["id"]], "attached")
        view.table.move_to(spare["id"])
        await action(pilot, app, "Virtual MAC: duplicate from another IP…")
        await screen_named(pilot, app, "PickerScreen")
        await pick(pilot, app, lambda t: t.startswith(standby["ip_address"]))
        await wait_for(
            pilot,
            lambda: view.table.get(spare["id"]).text("mac") == standby["mac_address"]["mac_address"],
            what="duplicated",
        )
        # delete the spare's copy: the standby keeps it
        await action(pilot, app, "Virtual MAC: delete")
        message = await confirm(pilot, app)
        assert f"{standby['ip_address']} keeps it" in message
        await wait_for(pilot, lambda: view.table.get(spare["id"]).text("mac") == "", what="deleted")
        # move the standby's MAC onto the spare; an IP with its own MAC is greyed
        view.table.move_to(standby["id"])
        await action(pilot, app, "Virtual MAC: move to another IP…")
        targets = await screen_named(pilot, app, "PickerScreen")
        assert {c[0].split(" ·")[0]: c[2] for c in targets.choices}[a["ip_address"]].startswith(
            "it has its own virtual MAC"
        )
        mac = standby["mac_address"]["mac_address"]
        await pick(pilot, app, lambda t: t.startswith(spare["ip_address"]))
        await confirm(pilot, app)
        await wait_for(
            pilot,
            lambda: view.table.get(spare["id"]).text("mac") == mac and view.table.get(standby["id"]).text("mac") == "",
            what="moved",
        )


async def test_create_edit_delete_and_a_full_server_greyed(sandbox, clock):
    store = sandbox.fip
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await open_fips(pilot, app)
        full = server_id(sandbox, "build-farm")
        for _ in range(64):  # a server at the limit
            store.create(ZONE, {"project_id": sandbox.project_id, "server_id": full}, settled=True)
        await pilot.press("c")
        form = await screen_named(pilot, app, "FormScreen")
        await wait_for(pilot, lambda: form.ready, what="form")
        form.query_one("#f-description").value = "failover v6"
        form.query_one("#f-reverse").value = "vip6.example.com"
        form.query_one("#f-server_id").value = server_id(sandbox, "db-primary")
        form.query_one("#f-is_ipv6").value = True
        await pilot.press("ctrl+s")
        await wait_for(
            pilot, lambda: any(f["description"] == "failover v6" for f in store.fips[ZONE].values()), what="created"
        )
        made = next(f for f in store.fips[ZONE].values() if f["description"] == "failover v6")
        assert made["ip_address"].endswith("::/64") and made["reverse"] == "vip6.example.com"
        await wait_for(pilot, lambda: view.table.get(made["id"]) is not None, what="row")
        assert view.table.get(made["id"]).text("server_name") == "db-primary"
        # edit the reverse
        view.table.move_to(made["id"])
        await pilot.press("e")
        edit = await screen_named(pilot, app, "FormScreen")
        await wait_for(pilot, lambda: edit.ready, what="edit form")
        edit.query_one("#f-reverse").value = "vip6.example.org"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: made["reverse"] == "vip6.example.org", what="edited")
        # delete: the address is typed
        await pilot.press("d")
        gone = await screen_named(pilot, app, "ConfirmScreen")
        assert gone.require_text == made["ip_address"] and "goes back to the pool" in gone.message
        gone.query_one("#confirm-text").value = made["ip_address"]
        await pilot.pause()
        gone.query_one("#confirm").press()
        await wait_for(pilot, lambda: made["id"] not in store.fips[ZONE], what="deleted")
        # attaching to the full server: greyed in the picker with the count
        await pilot.press("r")
        await wait_for(pilot, lambda: view.table.loaded_count == 68, what="listed again")
        _, _, spare = seeded(sandbox)
        view.table.move_to(spare["id"])
        await action(pilot, app, "Attach to a server…")
        servers = await screen_named(pilot, app, "PickerScreen")
        assert {c[0].split(" ·")[0]: c[2] for c in servers.choices}[
            "build-farm"
        ] == "it has 64 flexible IPs: 1 more would pass 64"


async def test_a_rule_broken_before_sending_is_a_refusal_not_a_bug(sandbox):
    """Duplicating a virtual MAC when no IP of the zone has one: refused, nothing sent."""
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "flexible_ip.fips")
        assert view.scope == "fr-par-1"
        edge = next(r for r in view.table.resources() if r.text("description") == "edge vip")
        view.table.move_to(edge.id)
        await action(pilot, app, "Virtual MAC: duplicate from another IP…")
        await wait_for(
            pilot,
            lambda: any("no flexible IP in this zone has a virtual MAC" in n.message for n in app.notes),
            what="refused",
        )
        note = next(n for n in app.notes if "virtual MAC" in n.message)
        assert note.severity == "warning" and "refused" in note.title and "bug" not in note.message
        assert writes(sandbox) == []


async def test_the_detail_names_the_server_an_ip_is_on(sandbox):
    """The detail showed the server's id where the list showed its name."""
    from helpers import text_of

    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await open_fips(pilot, app)
        _, standby, spare = seeded(sandbox)
        view.table.move_to(standby["id"])
        await pilot.press("enter")
        detail = await screen_named(pilot, app, "DetailScreen")
        await wait_for(pilot, lambda: detail.resource is not None, what="detail loaded")
        assert f"Server       db-standby ({standby['server_id']})" in text_of(detail.query_one("#fields"))
        assert "server_name" not in detail.resource.raw  # the JSON tab stays what the API sent
