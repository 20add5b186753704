"""Bare metal, its flexible IPs and private networks, and silicon servers as a new user drives them
in --demo, every step from the keyboard (issue 10's "done when"): order a bare-metal server, install
an OS, watch it become ready, reboot it into rescue, open remote access and copy its password, set a
reverse DNS, attach two flexible IPs at once, give one a virtual MAC and duplicate it onto the
other, move both to another server, attach the server to two private networks and copy the VLAN
snippet; create a silicon server, see why it cannot be deleted yet, reboot it. The rules each form
refuses are checked on its model in tests/unit/test_form_rules.py; here, the happy path. In fr-par-1: bare metal,
flexible IPs and private
networks are all offered there."""

from __future__ import annotations

import time

import pytest

from helpers import (
    act,
    choose,
    form_ready as form,
    loaded,
    make_app,
    open_view,
    pick,
    screen_named,
    sent,
    tab_to,
    wait_for,
)
from helpers import confirm_yes as confirm
from tui.sandbox import ManualClock, Sandbox

pytestmark = pytest.mark.anyio
ZONE = "fr-par-1"
KEY = "3f2c8a8e-1d4b-4c2e-9b7a-5e6f7a8b9c0d"
NETS = ("7d4d2f30-9e3c-4b0a-9f5d-3c4d5e6f7081", "8e5e3041-af4d-4c1b-8a6e-4d5e6f708192")


@pytest.fixture
def clock():
    """A manual clock starting now: silicon's `deletable_at` is compared with the time now."""
    return ManualClock(time.time())


@pytest.fixture
def sandbox(clock):
    return Sandbox(clock=clock)


async def to_row(pilot, view, rid):
    """Arrow keys to a row (from the top)."""
    await pilot.press("home")
    for _ in range(view.table.visible_count):
        if view.table.cursor_key == rid:
            return
        await pilot.press("down")
    assert view.table.cursor_key == rid


async def refreshed(pilot, view, clock, seconds, condition, what):
    clock.advance(seconds)
    await pilot.press("r")
    await wait_for(pilot, condition, what=what)


async def test_a_new_user_runs_bare_metal_flexible_ips_and_networks_from_the_keyboard(sandbox, clock):
    bm, fip = sandbox.baremetal, sandbox.fip
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)

        # 1. order a bare-metal server: a description too long is refused by name, nothing sent
        servers = await open_view(pilot, app, "baremetal.servers")
        assert servers.scope == ZONE
        await pilot.press("c")
        await form(pilot, app)
        await tab_to(pilot, app, "f-offer_id")
        await choose(pilot, "EM-A115X")
        await tab_to(pilot, app, "f-name")
        await pilot.press(*"db-04")
        await tab_to(pilot, app, "f-description")
        await pilot.press(*"replica")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: any(s["name"] == "db-04" for s in bm.servers[ZONE].values()), what="ordered")
        sid = next(s["id"] for s in bm.servers[ZONE].values() if s["name"] == "db-04")
        await wait_for(pilot, lambda: servers.table.get(sid) is not None, what="row")
        await to_row(pilot, servers, sid)
        assert servers.table.get(sid).state == "undelivered"

        # 2. it is delivered, then an OS is installed: SSH keys that are not UUIDs are refused
        await refreshed(pilot, servers, clock, 31, lambda: servers.table.get(sid).state == "ready", "delivered")
        await act(pilot, app, "Install an OS")
        await form(pilot, app)
        await tab_to(pilot, app, "f-os_id")
        await choose(pilot, "Ubuntu")
        await tab_to(pilot, app, "f-ssh_key_ids")
        await pilot.press(*KEY)
        await pilot.press("ctrl+s")
        erase = await screen_named(pilot, app, "ConfirmScreen")  # its disks are erased: its name is typed
        assert erase.require_text == servers.table.get(sid).name
        await pilot.press(*erase.require_text, "enter")
        await wait_for(pilot, lambda: servers.table.get(sid).get("install_status") == "to_install", what="to_install")
        # 3. watched until ready: the install moves on screen without a key press
        clock.advance(4)
        servers.refresher.fire()  # the poll timer firing
        await wait_for(pilot, lambda: servers.table.get(sid).get("install_status") == "installing", what="installing")
        clock.advance(20)
        servers.refresher.fire()  # the poll timer firing
        await wait_for(pilot, lambda: servers.table.get(sid).get("install_status") == "completed", what="completed")

        # 4. reboot into rescue
        await act(pilot, app, "Reboot into rescue")
        await confirm(pilot, app)
        await refreshed(
            pilot,
            servers,
            clock,
            11,
            lambda: servers.table.get(sid).state == "ready" and servers.table.get(sid).get("boot_type") == "rescue",
            "rescue",
        )

        # 5. remote access: the password masked, copied, shown once
        await act(pilot, app, "Remote access")
        await form(pilot, app)
        await tab_to(pilot, app, "f-ip")
        await pilot.press("ctrl+u", *"203.0.113.9")
        await pilot.press("ctrl+s")
        secret = await screen_named(pilot, app, "SecretScreen")
        password = bm.remote[sid]["password"]
        box = secret.query_one("OptionList")
        assert all(password not in str(box.get_option_at_index(i).prompt) for i in range(box.option_count))
        await pilot.press("y")  # the password is highlighted first
        assert app.clipboard == password
        await pilot.press("escape")

        # 6. reverse DNS of its IP: pending, then active
        await act(pilot, app, "Reverse DNS")
        await screen_named(pilot, app, "PickerScreen")
        await pilot.press("enter")
        await form(pilot, app)
        await tab_to(pilot, app, "f-reverse")
        await pilot.press(*"db-04.example.com")
        await pilot.press("ctrl+s")
        await wait_for(
            pilot, lambda: servers.table.get(sid).items("ips")[0].get("reverse_status") == "pending", what="pending"
        )
        await refreshed(
            pilot,
            servers,
            clock,
            5,
            lambda: servers.table.get(sid).items("ips")[0].get("reverse_status") == "active",
            "active",
        )

        # 7. two flexible IPs attached to it at once: marked with space, one request
        fips = await open_view(pilot, app, "flexible_ip.fips")
        assert fips.scope == ZONE
        spares = sorted(
            (f for f in fip.fips[ZONE].values() if f["description"].startswith("spare")), key=lambda f: f["description"]
        )
        a, b = (f["id"] for f in spares)
        await to_row(pilot, fips, a)
        await pilot.press("space")
        await to_row(pilot, fips, b)
        await pilot.press("space")
        assert fips.table.marked == {a, b}
        await act(pilot, app, "Attach to a server")
        await screen_named(pilot, app, "PickerScreen")
        await pick(pilot, app, lambda t: t.startswith("db-04"))
        await confirm(pilot, app)
        await wait_for(pilot, lambda: spares[0]["server_id"] == sid and spares[1]["server_id"] == sid, what="attached")
        assert sent(sandbox, "/flexible-ip/") == [("POST", f"/flexible-ip/v1alpha1/zones/{ZONE}/fips/attach")]
        await refreshed(
            pilot, fips, clock, 4, lambda: all(fips.table.get(i).state == "attached" for i in (a, b)), "attached"
        )
        assert {fips.table.get(i).text("server_name") for i in (a, b)} == {"db-04"}

        # 8. a virtual MAC on one, duplicated onto the other
        await to_row(pilot, fips, a)
        await act(pilot, app, "Virtual MAC: generate")
        await screen_named(pilot, app, "PickerScreen")
        await pick(pilot, app, lambda t: t == "kvm")
        await wait_for(pilot, lambda: fips.table.get(a).text("mac") != "", what="generated")
        mac = fips.table.get(a).text("mac")
        await to_row(pilot, fips, b)
        await act(pilot, app, "Virtual MAC: duplicate")
        await screen_named(pilot, app, "PickerScreen")
        await pick(pilot, app, lambda t: t.startswith(spares[0]["ip_address"]))
        await wait_for(pilot, lambda: fips.table.get(b).text("mac") == mac, what="duplicated")

        # 9. both moved to another server: marking one brings its MAC group along
        await to_row(pilot, fips, a)
        await pilot.press("space")
        await act(pilot, app, "Attach to a server")
        await screen_named(pilot, app, "PickerScreen")
        await pick(pilot, app, lambda t: t.startswith("edge-par"))
        message = await confirm(pilot, app)
        assert "the group moves together" in message
        edge = next(s["id"] for s in bm.servers[ZONE].values() if s["name"] == "edge-par")
        await wait_for(pilot, lambda: spares[0]["server_id"] == edge and spares[1]["server_id"] == edge, what="moved")
        await refreshed(
            pilot,
            fips,
            clock,
            4,
            lambda: all(fips.table.get(i).state == "attached" for i in (a, b)),
            "moved and attached",
        )
        assert spares[0]["mac_address"]["mac_address"] == spares[1]["mac_address"]["mac_address"] == mac

        # 10. the server in two private networks, and its VLAN snippet copied
        servers = await open_view(pilot, app, "baremetal.servers")
        await to_row(pilot, servers, sid)
        await act(pilot, app, "Private networks")
        nets = (await screen_named(pilot, app, "ChildScreen")).view
        await wait_for(
            pilot, lambda: nets.model.last_attempt is not None and not nets.model.listing, what="networks listed"
        )
        await pilot.press("c")
        await form(pilot, app)
        await tab_to(pilot, app, "f-private_network_id")
        for n, net in enumerate(NETS):
            if n:
                await pilot.press("c")
                await form(pilot, app)
                await tab_to(pilot, app, "f-private_network_id")
            await pilot.press("ctrl+u", *net)
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: nets.table.get(net) is not None, what="added")
        await refreshed(
            pilot,
            nets,
            clock,
            6,
            lambda: all(nets.table.get(n) is not None and nets.table.get(n).state == "attached" for n in NETS),
            "attached",
        )
        await to_row(pilot, nets, NETS[0])
        await act(pilot, app, "VLAN snippet")
        result = await screen_named(pilot, app, "ResultScreen")
        vlan = nets.table.get(NETS[0]).get("vlan")
        assert f"VLAN={vlan}\n" in result.text and 'type vlan id "$VLAN"' in result.text
        await pilot.press("y")
        assert app.clipboard == result.text
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ChildScreen", what="back to the networks")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.id == "main", what="back")


async def test_a_new_user_runs_a_silicon_server_from_the_keyboard(sandbox, clock):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        # a silicon server: created (the 24 h minimum on the form), not deletable yet, rebooted
        silicon = await open_view(pilot, app, "silicon.servers")
        await pilot.press("c")
        create = await form(pilot, app)
        assert "24 h" in create.form.label_of("type")
        await choose(pilot, "M2-L")
        await tab_to(pilot, app, "f-name")
        await pilot.press(*"ios build 04")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: any(r.name == "ios build 04" for r in silicon.table.resources()), what="created")
        made = next(r for r in silicon.table.resources() if r.name == "ios build 04")
        await to_row(pilot, silicon, made.id)
        await pilot.press("d")
        await wait_for(pilot, lambda: any("deletable in" in n.message for n in app.notes), what="why not")
        assert not [p for m, p in sandbox.requests if m == "DELETE" and "silicon" in p]
        await refreshed(pilot, silicon, clock, 60, lambda: silicon.table.get(made.id).state == "ready", "ready")
        await act(pilot, app, "Reboot")
        await confirm(pilot, app)
        await wait_for(pilot, lambda: silicon.table.get(made.id).state == "rebooting", what="rebooting")
