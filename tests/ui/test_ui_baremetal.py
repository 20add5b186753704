"""Bare metal from the keyboard, against the sandbox: order, install, watch it become ready, reboot
into rescue, open remote access and copy its password, set a reverse DNS, follow the events."""

from __future__ import annotations

import pytest

from helpers import action, child_list, confirm_yes, loaded, make_app, open_view, pick, screen_named, select, wait_for

pytestmark = pytest.mark.anyio
KEY = "3f2c8a8e-1d4b-4c2e-9b7a-5e6f7a8b9c0d"


async def form_ready(pilot, app):
    form = await screen_named(pilot, app, "FormScreen")
    await wait_for(pilot, lambda: form.ready, what="form ready")
    return form


def options(form, field):
    """(label, value) of a select of the form, as offered."""
    return form.form.choices[field]


def writes(sandbox):
    return [(m, p) for m, p in sandbox.requests if m != "GET" and p.startswith("/baremetal/")]


async def open_baremetal(pilot, app, zone="fr-par-2"):
    await loaded(pilot, app)
    view = await open_view(pilot, app, "baremetal.servers")
    if view.scope != zone:
        app.main.set_scope(zone)
        await wait_for(
            pilot,
            lambda: (
                view.scope == zone
                and not view.model.listing
                and view.table.loaded_count > 0
                and all(r.get("zone") == zone for r in view.table.resources())
            ),
            what=zone,
        )
    view.focus_table()
    await pilot.pause()
    return view


async def test_order_install_rescue_remote_access_and_reverse_dns(sandbox, clock):
    store = sandbox.baremetal
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await open_baremetal(pilot, app)
        assert str(view.table.border_title) == "Bare-metal servers · fr-par-2 · 5/5"
        # order: the offers with their stock (an out-of-stock one refused: tests/unit/test_form_rules.py)
        await pilot.press("c")
        order = await form_ready(pilot, app)
        offers = {label.split()[0]: value for label, value in options(order, "offer_id")}
        assert any("OUT OF STOCK" in label for label, _ in options(order, "offer_id"))
        order.query_one("#f-offer_id").value = offers["EM-A115X-SSD"]
        order.query_one("#f-name").value = "db-03"
        order.query_one("#f-description").value = "third database node"
        await pilot.press("ctrl+s")
        await wait_for(
            pilot, lambda: any(s["name"] == "db-03" for s in store.servers["fr-par-2"].values()), what="ordered"
        )
        sid = next(s["id"] for s in store.servers["fr-par-2"].values() if s["name"] == "db-03")
        await wait_for(
            pilot, lambda: view.table.get(sid) is not None and view.table.get(sid).state == "undelivered", what="row"
        )
        # undelivered: power is greyed with why
        view.table.move_to(sid)
        await pilot.press("a")
        menu = await screen_named(pilot, app, "PickerScreen")
        assert dict((c[0], c[2]) for c in menu.choices)["Start"] == "it is not delivered yet: wait until it is ready"
        await pilot.press("escape")
        clock.advance(31)
        await pilot.press("r")
        await wait_for(pilot, lambda: view.table.get(sid).state == "ready", what="delivered")
        # install: OS of the offer, hostname, SSH keys
        await action(pilot, app, "Install an OS…")
        install = await form_ready(pilot, app)
        assert "Windows Server 2022" not in [label for label, _ in options(install, "os_id")]
        install.query_one("#f-os_id").value = options(install, "os_id")[0][1]
        install.query_one("#f-ssh_key_ids").value = KEY
        await pilot.press("ctrl+s")
        erase = await screen_named(pilot, app, "ConfirmScreen")  # the disks are erased: the server's name is typed
        name = view.table.get(sid).name
        assert erase.require_text == name and "erased" in erase.message and app.focused.id == "confirm-text"
        await pilot.press(*name, "enter")
        await wait_for(pilot, lambda: view.table.get(sid).get("install_status") == "to_install", what="to_install")
        assert sid in view.model.moving  # polled while it installs
        clock.advance(4)
        view.follow(view.table.get(sid))
        await wait_for(pilot, lambda: view.table.get(sid).get("install_status") == "installing", what="installing")
        clock.advance(20)
        view.follow(view.table.get(sid))
        await wait_for(pilot, lambda: view.table.get(sid).get("install_status") == "completed", what="completed")
        # reboot into rescue (confirmed, Cancel focused)
        await action(pilot, app, "Reboot into rescue")
        await screen_named(pilot, app, "ConfirmScreen")
        assert app.focused.id == "cancel"
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: view.table.get(sid).state == "stopping", what="stopping")
        clock.advance(11)
        view.follow(view.table.get(sid))
        await wait_for(
            pilot,
            lambda: view.table.get(sid).state == "ready" and view.table.get(sid).get("boot_type") == "rescue",
            what="rescue",
        )
        # remote access: the allowed IP, then the password once, masked, copied
        await action(pilot, app, "Remote access (management controller)…")
        access = await form_ready(pilot, app)
        access.query_one("#f-ip").value = "203.0.113.9"
        await pilot.press("ctrl+s")
        secret = await screen_named(pilot, app, "SecretScreen")
        password = store.remote[sid]["password"]
        box = secret.query_one("OptionList")
        assert all(password not in str(box.get_option_at_index(i).prompt) for i in range(box.option_count))
        from tui.products.kit.times import moment_of

        assert moment_of(store.remote[sid]["expires_at"]) in str(
            secret.query_one("#secret-expiry").render()
        )  # when, read as a time
        await pilot.press("y")  # the password: it is highlighted first
        assert app.clipboard == password
        await pilot.press("escape")
        # the access open now can be seen again, then revoked
        await action(pilot, app, "Show the remote access open now, if any…")
        again = await screen_named(pilot, app, "SecretScreen")
        listed = again.query_one("OptionList")
        assert any(
            store.remote[sid]["url"] in str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)
        )
        assert "203.0.113.9" in again.note
        await pilot.press("escape")
        await action(pilot, app, "Revoke remote access")
        asked = await screen_named(pilot, app, "ConfirmScreen")
        assert "The access open to 203.0.113.9 (until " in asked.message
        await confirm_yes(pilot, app)
        await wait_for(pilot, lambda: sid not in store.remote, what="revoked")
        await action(pilot, app, "Show the remote access open now, if any…")
        await wait_for(pilot, lambda: any("No remote access is open" in n.message for n in app.notes), what="none open")
        deletes = len([w for w in writes(sandbox) if w[0] == "DELETE"])
        await action(pilot, app, "Revoke remote access")  # none open: said, nothing sent
        await wait_for(
            pilot, lambda: any("nothing to revoke" in n.message for n in app.notes), what="nothing to revoke"
        )
        said = next(n for n in app.notes if "nothing to revoke" in n.message)
        assert said.title == "Revoke remote access (db-03): nothing to do" and said.severity == "information"
        assert len([w for w in writes(sandbox) if w[0] == "DELETE"]) == deletes and app.screen.id == "main"
        # reverse DNS: pending, then active without a key press
        await wait_for(pilot, lambda: app.screen.id == "main", what="back")
        await action(pilot, app, "Reverse DNS of an IP…")
        await screen_named(pilot, app, "PickerScreen")
        await pilot.press("enter")
        reverse = await form_ready(pilot, app)
        reverse.query_one("#f-reverse").value = "db-03.example.com"
        await pilot.press("ctrl+s")
        await wait_for(
            pilot, lambda: view.table.get(sid).items("ips")[0].get("reverse_status") == "pending", what="pending"
        )
        clock.advance(5)
        view.follow(view.table.get(sid))
        await wait_for(
            pilot, lambda: view.table.get(sid).items("ips")[0].get("reverse_status") == "active", what="active"
        )
        # the events timeline in the detail, newest first
        await pilot.press("enter")
        detail = await screen_named(pilot, app, "DetailScreen")
        await pilot.press("v", "v")
        events = detail.query_one("ResourceView")
        await wait_for(
            pilot, lambda: events.model.last_attempt is not None and events.table.loaded_count >= 4, what="events"
        )
        first = events.table.get(events.table.shown_keys[0])
        assert first.get("action") == "remote access"
        assert ("GET", f"/baremetal/v1alpha1/zones/fr-par-2/servers/{sid}/events") in sandbox.requests


async def test_delete_asks_for_the_name(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await open_baremetal(pilot, app)
        row = await select(pilot, view, "spare-01")
        await pilot.press("d")
        confirm = await screen_named(pilot, app, "ConfirmScreen")
        assert confirm.require_text == "spare-01"
        confirm.query_one("#confirm-text").value = "spare-01"
        await pilot.pause()
        confirm.query_one("#confirm").press()
        await wait_for(
            pilot,
            lambda: ("DELETE", f"/baremetal/v1alpha1/zones/fr-par-2/servers/{row.id}") in writes(sandbox),
            what="deleted",
        )


async def test_private_networks_of_a_server_with_their_vlan_snippet(sandbox, clock):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await open_baremetal(pilot, app, zone="fr-par-1")
        await select(pilot, view, "edge-par")
        await action(pilot, app, "Private networks ›")
        nets = (await screen_named(pilot, app, "ChildScreen")).view
        await wait_for(
            pilot, lambda: nets.model.last_attempt is not None and not nets.model.listing, what="networks listed"
        )
        assert str(nets.table.border_title).startswith("edge-par › Private networks · fr-par-1 · 2/2")
        # add one: attaching, then attached
        await pilot.press("c")
        add = await form_ready(pilot, app)
        add.query_one("#f-private_network_id").value = "7d4d2f30-9e3c-4b0a-9f5d-3c4d5e6f7081"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: nets.table.get("7d4d2f30-9e3c-4b0a-9f5d-3c4d5e6f7081") is not None, what="added")
        assert nets.table.get("7d4d2f30-9e3c-4b0a-9f5d-3c4d5e6f7081").state == "attaching"
        clock.advance(6)
        nets.follow(nets.table.get("7d4d2f30-9e3c-4b0a-9f5d-3c4d5e6f7081"))
        await wait_for(
            pilot, lambda: nets.table.get("7d4d2f30-9e3c-4b0a-9f5d-3c4d5e6f7081").state == "attached", what="attached"
        )
        # the VLAN snippet, copyable (it changes nothing: no request)
        row = nets.table.get("7d4d2f30-9e3c-4b0a-9f5d-3c4d5e6f7081")
        nets.table.move_to(row.id)
        await pilot.press("a")
        await screen_named(pilot, app, "PickerScreen")
        await pick(pilot, app, lambda label: label.startswith("VLAN snippet"))
        result = await screen_named(pilot, app, "ResultScreen")
        vlan = row.get("vlan")
        assert f"VLAN={vlan}\n" in result.text and 'type vlan id "$VLAN"' in result.text
        assert '"$IFACE.$VLAN" up' in result.text
        await pilot.press("y")
        assert app.clipboard == result.text
        await pilot.press("escape")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.id == "main", what="back")
        # a server of a zone without private networks: greyed, with why
        app.main.set_scope("fr-par-2")
        await wait_for(
            pilot,
            lambda: (
                view.scope == "fr-par-2"
                and not view.model.listing
                and view.table.loaded_count == 5
                and all(r.get("zone") == "fr-par-2" for r in view.table.resources())
            ),
            what="fr-par-2",
        )
        await select(pilot, view, "db-primary")
        await pilot.press("a")
        menu = await screen_named(pilot, app, "PickerScreen")
        assert "offered in fr-par-1 and nl-ams-1 only" in dict((c[0], c[2]) for c in menu.choices)["Private networks ›"]


async def test_a_servers_detail_names_its_offer_and_its_os(sandbox):
    """The detail showed the offer's and the OS's ids only."""
    from helpers import text_of

    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await open_baremetal(pilot, app, "fr-par-1")
        server = next(s for s in sandbox.baremetal.servers["fr-par-1"].values() if s["name"] == "edge-par")
        offer = sandbox.baremetal.offer("fr-par-1", server["offer_id"])
        os_ = sandbox.baremetal.os[server["install"]["os_id"]]
        await select(pilot, view, "edge-par")
        await pilot.press("enter")
        detail = await screen_named(pilot, app, "DetailScreen")
        await wait_for(pilot, lambda: detail.resource is not None, what="detail loaded")
        fields = text_of(detail.query_one("#fields"))
        assert f"{offer['name']} ({offer['id']})" in fields
        assert f"OS {os_['name']} {os_['version']} ({os_['id']})" in " ".join(fields.split())


async def test_the_vlan_snippet_is_shown_unwrapped_and_scrolls_sideways(sandbox):
    """At 120 columns the snippet's trailing comment wrapped: `network 5b2b…` read as a shell line of its own."""
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await open_baremetal(pilot, app, zone="fr-par-1")
        await select(pilot, view, "edge-par")
        nets = await child_list(pilot, app, "Private networks ›")
        row = next(r for r in nets.table.resources() if r.get("vlan"))
        nets.table.move_to(row.id)
        await pilot.press("a")
        await screen_named(pilot, app, "PickerScreen")
        await pick(pilot, app, lambda label: label.startswith("VLAN snippet"))
        result = await screen_named(pilot, app, "ResultScreen")
        await wait_for(pilot, lambda: bool(result.query("#result-text")), what="the snippet")
        body = result.query_one("#result-text")
        await pilot.pause()
        shown = [body.render_line(y).text.rstrip() for y in range(body.size.height)]
        while shown and not shown[-1]:
            shown.pop()
        assert len(shown) == len(result.text.rstrip("\n").split("\n")), shown  # one screen line a line
        last = next(line for line in shown if line.startswith("ip addr add"))
        assert last.endswith("…") or last.endswith(row.get("private_network_id") or row.id)
        assert not any(line.lstrip().startswith(("network", "of private")) for line in shown)
        await pilot.press("right")
        await wait_for(pilot, lambda: body.render_line(0).text.startswith("…"), what="scrolled sideways")
        await pilot.press("y")
        assert app.clipboard == result.text


async def test_an_install_whose_answer_is_lost_closes_its_form_and_says_what_a_look_found():
    """A flow's write whose answer is lost stayed in its form as an error, ready to be sent again (an
    install twice); the console said "the list is read again" instead of looking."""
    from tui.sandbox import ManualClock, Sandbox
    from tui.sandbox.faults import FaultSpec

    sandbox = Sandbox(clock=ManualClock(), faults=FaultSpec(rates={"applied": 1.0}, seed=1, applied_as="500"))
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await open_baremetal(pilot, app)
        server = next(s for s in sandbox.baremetal.servers["fr-par-2"].values() if s["name"] == "build-farm")
        view.table.move_to(server["id"])
        await action(pilot, app, "Install an OS…")
        install = await form_ready(pilot, app)
        install.query_one("#f-os_id").value = options(install, "os_id")[0][1]
        install.query_one("#f-ssh_key_ids").value = KEY
        await pilot.press("ctrl+s")
        await screen_named(pilot, app, "ConfirmScreen")
        await pilot.press(*"build-farm", "enter")
        lost = lambda: next((n for n in app.notes if "the answer was lost" in n.title), None)  # noqa: E731
        await wait_for(pilot, lambda: lost() is not None, what="the lost answer said")
        assert lost().title.startswith("Install an OS (build-farm)")
        assert "Looked again: it is still ready; changed since it was sent: " in lost().message
        assert "install_status: none → to_install" in lost().message
        assert app.screen.id == "main"  # the form is gone: sending it again would install twice
        assert server["install"]["status"] == "to_install"
