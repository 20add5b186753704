"""The Instance product as a new user drives it in --demo, every step from the keyboard (issue 4's
"done when"): create a server with two volumes, attach a flexible IP, add it to a placement group
and to a new security group with a new rule, set user data, snapshot its volume, power it off,
detach a volume and delete it keeping its block volume. The rules each form refuses are checked on
its model in tests/unit/test_form_rules.py; here, the happy path."""

import pytest
from textual.widgets import Static

from helpers import action, pick, choose, loaded, make_app, open_view, screen_named, select, wait_for

pytestmark = pytest.mark.anyio
Z = "/instance/v1/zones/fr-par-1"


def sent(sandbox, method=None):
    return [(m, p) for m, p in sandbox.requests if m != "GET" and (method is None or m == method)]


async def test_a_new_user_runs_the_whole_instance_product_from_the_keyboard(sandbox, clock):
    store = sandbox.instance
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)

        # 1. create a server with two volumes: the boot volume and an empty block volume
        await pilot.press("c")
        form = await screen_named(pilot, app, "FormScreen")
        await wait_for(pilot, lambda: form.ready, what="form choices")
        await pilot.press(*"web-9", "tab")
        await choose(pilot, "PRO2-XS ")
        await pilot.press("tab")
        await choose(pilot, "Debian")
        form.query_one("#f-more_volumes").focus()
        await pilot.press("space")  # Add volumes (next step)
        await pilot.press("ctrl+s")
        records = await screen_named(pilot, app, "RecordListScreen")
        await pilot.press("c")
        spec = await screen_named(pilot, app, "FormScreen")
        await wait_for(pilot, lambda: spec.ready)
        spec.query_one("#f-name").focus()
        await pilot.press(*"data-9")
        spec.query_one("#f-size_gb").focus()
        await pilot.press(*"20")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen is records and len(records.records) == 1, what="volume added")
        assert sent(sandbox) == [], "nothing sent while editing"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: any(r.name == "web-9" for r in view.table.resources()), what="created")
        server = next(s for s in store.servers["fr-par-1"].values() if s["name"] == "web-9")
        vols = [store.volumes["fr-par-1"][r["id"]] for r in server["volumes"].values()]
        assert [(v["volume_type"], v["size"]) for v in vols] == [("b_ssd", 10 * 10**9), ("b_ssd", 20 * 10**9)]
        assert vols[1]["name"] == "data-9"
        clock.advance(10)

        # 2. attach the spare flexible IP, accepting the warning
        ips = await open_view(pilot, app, "instance.ips")
        await select(pilot, ips, "163.172.10.12")
        await action(pilot, app, "Attach to a server…")
        await screen_named(pilot, app, "PickerScreen")
        await pick(pilot, app, lambda text: text.startswith("web-9 "))
        confirm = await screen_named(pilot, app, "ConfirmScreen")
        assert "connections are cut" in str(confirm.query_one("#confirm-message", Static).render())
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: store.servers["fr-par-1"][server["id"]]["flexible_ips"], what="IP attached")

        # 3. into the placement group web-spread
        servers = await open_view(pilot, app, "instance.servers")
        await select(pilot, servers, "web-9")
        await action(pilot, app, "Placement group…")
        await screen_named(pilot, app, "PickerScreen")
        await pilot.press("down", "enter")  # after "none": web-spread
        await wait_for(
            pilot, lambda: store.servers["fr-par-1"][server["id"]]["placement_group"], what="in the placement group"
        )

        # 4. a new security group with a new rule, and the server in it
        groups = await open_view(pilot, app, "instance.security_groups")
        await pilot.press("c")
        sg_form = await screen_named(pilot, app, "FormScreen")
        await wait_for(pilot, lambda: sg_form.ready)
        await pilot.press(*"web-9-sg", "ctrl+s")
        await wait_for(pilot, lambda: any(r.name == "web-9-sg" for r in groups.table.resources()), what="group created")
        await select(pilot, groups, "web-9-sg")
        await action(pilot, app, "Rules…")
        rules = await screen_named(pilot, app, "RecordListScreen")
        await pilot.press("c")
        rule = await screen_named(pilot, app, "FormScreen")
        await wait_for(pilot, lambda: rule.ready)
        rule.query_one("#f-ip_range").focus()
        await pilot.press(*"0.0.0.0/0")
        rule.query_one("#f-dest_port_from").focus()
        await pilot.press(*"8080")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen is rules and len(rules.records) == 1)
        await pilot.press("ctrl+s")
        sg = next(g for g in store.security_groups["fr-par-1"].values() if g["name"] == "web-9-sg")
        await wait_for(pilot, lambda: len(sg["rules"]) == 1, what="rules saved")
        assert ("PUT", f"{Z}/security_groups/{sg['id']}/rules") in sent(sandbox)
        assert (sg["rules"][0]["protocol"], sg["rules"][0]["dest_port_from"]) == ("TCP", 8080)
        servers = await open_view(pilot, app, "instance.servers")
        await select(pilot, servers, "web-9")
        await action(pilot, app, "Security group…")
        await screen_named(pilot, app, "PickerScreen")
        await pick(pilot, app, lambda text: text.startswith("web-9-sg"))
        await wait_for(
            pilot, lambda: store.servers["fr-par-1"][server["id"]]["security_group"] == sg["id"], what="in the group"
        )

        # 5. user data
        await action(pilot, app, "User data…")
        data = await screen_named(pilot, app, "RecordListScreen")
        await pilot.press("c")
        await screen_named(pilot, app, "FormScreen")
        await pilot.press(*"motd", "tab", *"hello\\nworld")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen is data and len(data.records) == 1)
        await pilot.press("ctrl+s")
        await wait_for(
            pilot, lambda: store.user_data.get(server["id"], {}).get("motd") == b"hello\nworld", what="user data set"
        )

        # 6. snapshot its data volume
        volumes = await open_view(pilot, app, "instance.volumes")
        await select(pilot, volumes, "data-9")
        await action(pilot, app, "Snapshot…")
        await screen_named(pilot, app, "FormScreen")
        await pilot.press("ctrl+s")  # the proposed name: data-9-snap
        await wait_for(
            pilot,
            lambda: any(s["name"] == "data-9-snap" for s in store.snapshots["fr-par-1"].values()),
            what="snapshot",
        )
        clock.advance(5)

        # 7. power it off
        servers = await open_view(pilot, app, "instance.servers")
        await select(pilot, servers, "web-9")
        await action(pilot, app, "Power off")
        await screen_named(pilot, app, "ConfirmScreen")  # power off asks first, Cancel focused
        assert app.focused.id == "cancel"
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: store.servers["fr-par-1"][server["id"]]["state"] == "stopping")
        clock.advance(5)
        await pilot.press("r")
        await wait_for(
            pilot,
            lambda: next(r for r in servers.table.resources() if r.name == "web-9").state == "stopped",
            what="stopped",
        )

        # 8. detach the data volume
        await action(pilot, app, "Volumes: attach, detach, order…")
        await screen_named(pilot, app, "RecordListScreen")
        await pilot.press("down", "d", "ctrl+s")  # the second row is data-9
        await wait_for(pilot, lambda: len(store.servers["fr-par-1"][server["id"]]["volumes"]) == 1, what="detached")
        data_vol = next(v for v in store.volumes["fr-par-1"].values() if v["name"] == "data-9")
        assert data_vol["server"] is None

        # 9. delete it, keeping its block boot volume
        boot_id = store.servers["fr-par-1"][server["id"]]["volumes"]["0"]["id"]
        await pilot.press("d")
        await screen_named(pilot, app, "PickerScreen")
        await pilot.press("enter")  # keep the block volumes
        asked = await screen_named(pilot, app, "ConfirmScreen")
        await pilot.press(*asked.require_text, "enter")  # a server's delete takes its name typed
        await wait_for(pilot, lambda: server["id"] not in store.servers["fr-par-1"], what="deleted")
        assert boot_id in store.volumes["fr-par-1"] and store.volumes["fr-par-1"][boot_id]["server"] is None
        assert data_vol["id"] in store.volumes["fr-par-1"]
        await wait_for(pilot, lambda: all(r.name != "web-9" for r in servers.table.resources()), what="row gone")
