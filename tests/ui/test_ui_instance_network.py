"""The Instance network kinds from the keyboard (flexible IPs, security groups, placement groups):
create, edit, delete and their actions, with invalid input refused and the platform's refusals
shown. The storage, image and type kinds: test_ui_instance_kinds.py."""

import pytest

from helpers import (
    action,
    form_ready,
    notified,
    set_select,
    type_into,
    loaded,
    make_app,
    open_view,
    screen_named,
    select,
    wait_for,
)

pytestmark = pytest.mark.anyio
Z = "/instance/v1/zones/fr-par-1"
GB = 10**9


async def test_flexible_ips_create_reverse_detach_delete(sandbox):
    store = sandbox.instance
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "instance.ips")
        await pilot.press("c")
        await form_ready(pilot, app)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: len(view.table.resources()) == 3, what="IP created")
        web = await select(pilot, view, "163.172.10.11")
        await pilot.press("e")
        edit = await form_ready(pilot, app)
        edit.query_one("#f-reverse").value = "www.example.com"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: store.ips["fr-par-1"][web.id]["reverse"] == "www.example.com")
        await action(pilot, app, "Detach from its server")
        await screen_named(pilot, app, "ConfirmScreen")
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: store.ips["fr-par-1"][web.id]["server"] is None, what="detached")
        await pilot.press("d")
        await screen_named(pilot, app, "ConfirmScreen")
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: web.id not in store.ips["fr-par-1"], what="deleted")


async def test_security_group_edit_and_refusals(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "instance.security_groups")
        await select(pilot, view, "web-public")
        await pilot.press("d")
        await wait_for(pilot, lambda: notified(app, "move them to another group first"))
        await pilot.press("e")
        edit = await form_ready(pilot, app)
        edit.query_one("#f-stateful").value = False
        await pilot.press("ctrl+s")
        sg = next(g for g in sandbox.instance.security_groups["fr-par-1"].values() if g["name"] == "web-public")
        await wait_for(pilot, lambda: sg["stateful"] is False, what="stateless")
        await action(pilot, app, "Rules…")
        rules = await screen_named(pilot, app, "RecordListScreen")
        assert len(rules.records) == 3
        await pilot.press("right_square_bracket")  # move the first rule down: order is part of the PUT
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: sg["rules"][0]["dest_port_from"] == 443, what="reordered")
        await action(pilot, app, "Platform default rules")
        info = await screen_named(pilot, app, "ResultScreen")  # to read and copy
        assert "TCP 0.0.0.0/0 port 25" in info.text and "cannot be edited" in info.text


async def test_placement_group_create_and_members(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "instance.placement_groups")
        await pilot.press("c")
        form = await form_ready(pilot, app)
        assert form.query_one("#f-policy_type").value == "max_availability"
        assert form.query_one("#f-policy_mode").value == "optional"
        await type_into(pilot, form, "name", "batch-pack")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: any(r.name == "batch-pack" for r in view.table.resources()))
        await select(pilot, view, "batch-pack")
        await action(pilot, app, "Member servers…")
        await screen_named(pilot, app, "RecordListScreen")
        await pilot.press("c")
        member = await form_ready(pilot, app)
        worker = next(s for s in sandbox.instance.servers["fr-par-1"].values() if s["name"] == "worker-batch-1")
        await set_select(pilot, member, "id", worker["id"])
        await pilot.press("ctrl+s")
        await screen_named(pilot, app, "RecordListScreen")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: worker["placement_group"] is not None, what="member")


async def test_placement_group_edit_then_delete_refused_while_it_has_servers(sandbox):
    store = sandbox.instance
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "instance.placement_groups")
        pg = await select(pilot, view, "web-spread")
        await pilot.press("e")
        edit = await form_ready(pilot, app)
        await set_select(pilot, edit, "policy_mode", "enforced")
        await pilot.press("ctrl+s")
        await wait_for(
            pilot, lambda: store.placement_groups["fr-par-1"][pg.id]["policy_mode"] == "enforced", what="enforced"
        )
        await wait_for(pilot, lambda: app.screen.id == "main")
        await pilot.press("d")
        await screen_named(pilot, app, "ConfirmScreen")
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: notified(app, "remove its servers first"), what="412 explained")
        assert pg.id in store.placement_groups["fr-par-1"]


async def test_security_group_delete_nic_removal_and_terminate_keeping_a_boot_block_volume(sandbox):
    store = sandbox.instance
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        servers = await loaded(pilot, app)
        # a NIC removed from the server's list of NICs, which warns what it takes away
        api = await select(pilot, servers, "api-gateway")
        await action(pilot, app, "Private NICs ›")
        nics = (await screen_named(pilot, app, "ChildScreen")).view
        await wait_for(
            pilot, lambda: nics.model.last_attempt is not None and not nics.model.listing, what="NICs listed"
        )
        assert nics.table.loaded_count == 2
        await pilot.press("d")
        confirm = await screen_named(pilot, app, "ConfirmScreen")
        assert "leaves this private network" in str(confirm.query_one("#confirm-message").render())
        await pilot.press("tab", "enter")
        await wait_for(
            pilot,
            lambda: sum(1 for n in store.nics["fr-par-1"].values() if n["server_id"] == api.id) == 1,
            what="NIC removed",
        )
        await wait_for(pilot, lambda: nics.table.loaded_count == 1, what="NIC gone from the list")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.id == "main", what="back to the servers")
        # terminating a running server whose boot volume is block storage cannot keep that volume
        bastion = await select(pilot, servers, "bastion")
        await action(pilot, app, "Terminate (deletes the server)…")
        picker = await screen_named(pilot, app, "PickerScreen")
        label, value, why = picker.choices[0]
        assert value == "keep" and "boot volume" in why and "power it off first" in why  # greyed before any confirm
        assert picker.query_one("OptionList").get_option_at_index(0).disabled
        await pilot.press("escape")
        assert store.servers["fr-par-1"][bastion.id]["state"] == "running", "nothing was sent"
        # a security group nobody uses is deleted
        groups = await open_view(pilot, app, "instance.security_groups")
        await pilot.press("c")
        form = await form_ready(pilot, app)
        form.query_one("#f-name").value = "temp"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: any(r.name == "temp" for r in groups.table.resources()), what="created")
        await wait_for(pilot, lambda: app.screen.id == "main")
        await select(pilot, groups, "temp")
        await pilot.press("d")
        await screen_named(pilot, app, "ConfirmScreen")
        await pilot.press("tab", "enter")
        await wait_for(
            pilot, lambda: all(g["name"] != "temp" for g in store.security_groups["fr-par-1"].values()), what="deleted"
        )


async def test_attaching_an_ip_says_what_the_server_keeps_as_the_platform_does(sandbox):
    """Spec 1 §2.4: a server on the routed stack that has a flexible IP keeps it when another is attached."""
    from helpers import confirm_yes, pick

    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "instance.ips")
        spare = next(r for r in view.table.resources() if r.text("address") == "163.172.10.12")
        view.table.move_to(spare.id)
        await pilot.pause()
        await action(pilot, app, "Attach to a server…")
        await screen_named(pilot, app, "PickerScreen")
        await pick(pilot, app, lambda text: text.startswith("web-01 "))
        message = await confirm_yes(pilot, app)
        assert message == "163.172.10.12 is added to the public IPs of web-01; it keeps 163.172.10.11."
        ips = sandbox.instance.ips["fr-par-1"].values()
        await wait_for(
            pilot,
            lambda: (
                {i["address"] for i in ips if (i.get("server") or {}).get("name") == "web-01"}
                >= {"163.172.10.11", "163.172.10.12"}
            ),
            what="both attached",
        )


async def test_a_long_rule_list_at_80x24_scrolls_inside_its_dialog_refuses_a_duplicate_and_sends_nothing_unchanged(
    sandbox,
):
    sg = next(g for g in sandbox.instance.security_groups["fr-par-1"].values() if g["name"] == "web-public")
    for n in range(20):
        sg["rules"].append(
            {
                **sg["rules"][0],
                "id": f"extra-{n}",
                "ip_range": f"10.{n}.0.0/16",
                "dest_port_from": 1000 + n,
                "position": 4 + n,
            }
        )
    app = make_app(sandbox)
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "instance.security_groups")
        await select(pilot, view, "web-public")
        await action(pilot, app, "Rules…")
        rules = await screen_named(pilot, app, "RecordListScreen")
        assert len(rules.records) == 23
        keys = rules.query_one("#records-keys")
        assert keys.region.bottom <= 24 and keys.region.height > 0  # the keys stay on screen
        for _ in range(22):
            await pilot.press("j")
        table = rules.table
        assert table.cursor_row == 22 and table.scroll_y > 0  # the last rule, scrolled to
        puts = len([r for r in sandbox.requests if r[0] == "PUT"])
        await pilot.press("ctrl+s")  # nothing changed: nothing is sent
        await wait_for(pilot, lambda: app.screen.id == "main", what="closed")
        assert len([r for r in sandbox.requests if r[0] == "PUT"]) == puts and notified(
            app, "as they were; nothing was sent"
        )
        await action(pilot, app, "Rules…")
        rules = await screen_named(pilot, app, "RecordListScreen")
        rules.records.append(dict(rules.records[0]))  # the same rule twice
        rules._fill()
        await pilot.press("ctrl+s")
        status = rules.query_one("#records-status")
        await wait_for(pilot, lambda: "listed twice" in str(status.render()), what="refused")
        assert (
            status.region.bottom <= 24
            and app.screen is rules
            and len([r for r in sandbox.requests if r[0] == "PUT"]) == puts
        )
