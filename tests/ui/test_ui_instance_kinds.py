"""The Instance storage, image and type kinds from the keyboard: create, edit, delete and their
actions, with invalid input refused (field named, nothing sent) and the platform's refusals shown.
The network kinds: test_ui_instance_network.py."""

import pytest

from helpers import (
    action,
    delete_typing,
    form_ready,
    notified,
    sent,
    set_select,
    type_into,
    pick,
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


async def test_volumes_create_edit_attach_detach_delete(sandbox, clock):
    store = sandbox.instance
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "instance.volumes")
        assert view.table.border_title == "Volumes · fr-par-1 · 11/11"
        await pilot.press("c")
        form = await form_ready(pilot, app)
        await type_into(pilot, form, "name", "logs")
        await set_select(pilot, form, "volume_type", "b_ssd")
        await type_into(pilot, form, "size_gb", "50")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: any(r.name == "logs" for r in view.table.resources()), what="created")
        vol = next(v for v in store.volumes["fr-par-1"].values() if v["name"] == "logs")
        assert vol["size"] == 50 * GB and view.table.border_title.endswith("12/12")

        await select(pilot, view, "logs")
        await pilot.press("e")
        edit = await form_ready(pilot, app)
        edit.query_one("#f-size_gb").value = "80"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: vol["size"] == 80 * GB, what="grown")
        # resizing: read again at once and polled until it settles, as after a create (walk: it waited 30 s)
        await wait_for(pilot, lambda: ("GET", f"{Z}/volumes/{vol['id']}") in sandbox.requests, what="followed")
        clock.advance(5)  # resizing → available
        view.refresher.fire()  # (the poll's timer)
        await wait_for(pilot, lambda: next(r for r in view.table.resources() if r.name == "logs").state == "available")

        await action(pilot, app, "Attach to a server…")
        await screen_named(pilot, app, "PickerScreen")
        await pick(pilot, app, lambda text: text.startswith("bastion "))
        await wait_for(pilot, lambda: vol["server"] is not None, what="attached to a running server (block)")
        await pilot.press("d")  # attached: refused before any dialog
        await wait_for(pilot, lambda: notified(app, "detach it first"))
        clock.advance(5)
        await pilot.press("r")
        await wait_for(
            pilot,
            lambda: next(r for r in view.table.resources() if r.name == "logs").get("server"),
            what="row shows the server",
        )
        await action(pilot, app, "Detach from its server")
        await screen_named(pilot, app, "ConfirmScreen")
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: vol["server"] is None, what="detached")
        await pilot.press("r")
        await wait_for(pilot, lambda: not next(r for r in view.table.resources() if r.name == "logs").get("server"))

        await pilot.press("d")  # a volume's delete needs its name typed
        confirm = await screen_named(pilot, app, "ConfirmScreen")
        assert confirm.query_one("#confirm").disabled
        confirm.query_one("#confirm-text").focus()
        await pilot.press(*"logs", "tab", "tab", "enter")
        await wait_for(pilot, lambda: vol["id"] not in store.volumes["fr-par-1"], what="deleted")


async def test_local_volume_attach_is_refused_while_the_server_runs(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "instance.volumes")
        await select(pilot, view, "scratch")
        await action(pilot, app, "Attach to a server…")
        picker = await screen_named(pilot, app, "PickerScreen")
        labels = [t for t, _ in picker.choices]
        assert any("must be powered off for l_ssd" in t for t in labels)
        await pick(pilot, app, lambda text: text.startswith("bastion "))
        await wait_for(pilot, lambda: notified(app, "l_ssd volumes attach only to a powered-off server"))
        assert not any(m == "PATCH" for m, _ in sent(sandbox))


async def test_volume_quota_error_is_shown_in_the_form(sandbox):
    store = sandbox.instance
    store.new_volume("fr-par-1", "hog", "b_ssd", 19_990 * GB)
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await open_view(pilot, app, "instance.volumes")
        await pilot.press("c")
        form = await form_ready(pilot, app)
        await type_into(pilot, form, "name", "one-more")
        await set_select(pilot, form, "volume_type", "b_ssd")
        await type_into(pilot, form, "size_gb", "100")
        await pilot.press("ctrl+s")
        await wait_for(
            pilot, lambda: "Quota exceeded" in str(form.query_one("#form-status").render()), what="quota error"
        )
        assert app.screen is form and form.query_one("#f-name").value == "one-more", "kept what was typed"


async def test_snapshots_and_images(sandbox, clock):
    store = sandbox.instance
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "instance.snapshots")
        await pilot.press("c")
        form = await form_ready(pilot, app)
        archive = next(v for v in store.volumes["fr-par-1"].values() if v["name"] == "archive-2025")
        await type_into(pilot, form, "name", "archive-again")
        await set_select(pilot, form, "volume_id", archive["id"])
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: any(r.name == "archive-again" for r in view.table.resources()), what="snapshot")
        assert next(r for r in view.table.resources() if r.name == "archive-again").state == "snapshotting"
        clock.advance(5)
        await pilot.press("r")
        await wait_for(
            pilot, lambda: next(r for r in view.table.resources() if r.name == "archive-again").state == "available"
        )

        await select(pilot, view, "archive-again")
        await action(pilot, app, "Export to object storage…")
        export = await form_ready(pilot, app)
        await type_into(pilot, export, "bucket", "backups")
        await pilot.press("ctrl+s")
        snap = next(s for s in store.snapshots["fr-par-1"].values() if s["name"] == "archive-again")
        await wait_for(pilot, lambda: snap["state"] == "exporting", what="exporting")
        clock.advance(6)
        await pilot.press("r")
        await wait_for(
            pilot, lambda: next(r for r in view.table.resources() if r.name == "archive-again").state == "available"
        )

        await action(pilot, app, "Create a volume from it…")
        await form_ready(pilot, app)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: any(v["name"] == "archive-again-vol" for v in store.volumes["fr-par-1"].values()))

        images = await open_view(pilot, app, "instance.images")
        await pilot.press("c")
        form = await form_ready(pilot, app)
        await type_into(pilot, form, "name", "golden")
        await set_select(pilot, form, "root_volume", snap["id"])
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: any(r.name == "golden" for r in images.table.resources()), what="image")
        await select(pilot, images, "Debian 12 (Bookworm)")
        await pilot.press("d")
        await wait_for(pilot, lambda: notified(app, "public image of the marketplace"))
        await select(pilot, images, "golden")
        await pilot.press("d")
        await screen_named(pilot, app, "ConfirmScreen")
        await pilot.press("tab", "enter")
        await wait_for(
            pilot, lambda: all(i["name"] != "golden" for i in store.images["fr-par-1"].values()), what="image deleted"
        )


async def test_instance_types_are_read_only_with_availability(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "instance.types")
        gp1 = next(r for r in view.table.resources() if r.name == "GP1-S")
        assert gp1.text("availability") == "scarce"
        assert view.table.border_title.startswith("Instance types · fr-par-1 · 12/12")
        assert not view.may("create") and not view.may("delete") and not view.may("edit")
        await select(pilot, view, "DEV1-S")
        await pilot.press("enter")
        detail = await screen_named(pilot, app, "DetailScreen")
        await wait_for(pilot, lambda: getattr(detail, "resource", None) is not None)
        text = app.export_screenshot().replace("&#160;", " ")
        assert "l_ssd: 1–20 GB" in text and "€0.0088/hour" in text


async def test_server_backup_type_change_and_nics(sandbox, clock):
    store = sandbox.instance
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        server = await select(pilot, view, "worker-batch-2")  # stopped GP1-XS
        await action(pilot, app, "Back up (image of its volumes)…")
        await form_ready(pilot, app)
        await pilot.press("ctrl+s")
        await wait_for(
            pilot,
            lambda: any(i["name"] == "worker-batch-2-backup" for i in store.images["fr-par-1"].values()),
            what="backup",
        )

        await action(pilot, app, "Change type…")
        picker = await screen_named(pilot, app, "PickerScreen")
        values = [v for _, v in picker.choices]
        assert "GP1-S" in values and "COPARM1-2C-8G" not in values
        await pick(pilot, app, lambda text: text.startswith("GP1-S "))
        await wait_for(
            pilot, lambda: store.servers["fr-par-1"][server.id]["commercial_type"] == "GP1-S", what="type changed"
        )

        # private NICs are a child list of the server: listed, added
        await action(pilot, app, "Private NICs ›")
        child_screen = await screen_named(pilot, app, "ChildScreen")
        nics = child_screen.view
        await wait_for(pilot, lambda: nics.model.last_attempt is not None, what="NICs listed")
        assert str(nics.table.border_title).startswith("worker-batch-2 › Private NICs · fr-par-1 · 0/0")
        await pilot.press("c")
        nic = await form_ready(pilot, app)
        nic.query_one("#f-private_network_id").value = "0b8e3a8e-8f3e-4c8a-9a53-0a6c1a7c2b11"
        await pilot.press("ctrl+s")
        await wait_for(
            pilot, lambda: any(n["server_id"] == server.id for n in store.nics["fr-par-1"].values()), what="NIC"
        )
        await wait_for(pilot, lambda: nics.table.loaded_count == 1, what="NIC listed")
        assert ("POST", f"/instance/v1/zones/fr-par-1/servers/{server.id}/private_nics") in sandbox.requests


async def test_volume_migration_plan_is_shown_before_it_applies(sandbox):
    store = sandbox.instance
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "instance.volumes")
        await select(pilot, view, "archive-2025")
        await action(pilot, app, "Migrate to block storage (sbs)…")
        confirm = await screen_named(pilot, app, "ConfirmScreen")
        message = str(confirm.query_one("#confirm-message").render())
        assert (
            "archive-2025" in message and "snapshot archive-2025-initial" in message and "cannot move back" in message
        )
        assert not any(p.endswith("/apply") for _, p in sent(sandbox)), "only the plan so far"
        await pilot.press("tab", "enter")
        archive = next(v for v in store.volumes["fr-par-1"].values() if v["name"] == "archive-2025")
        await wait_for(pilot, lambda: archive["volume_type"] == "sbs_volume", what="migrated")


async def test_snapshot_rename_and_delete(sandbox):
    store = sandbox.instance
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "instance.snapshots")
        snap = await select(pilot, view, "api-gateway-data-nightly")
        await pilot.press("e")
        edit = await form_ready(pilot, app)
        edit.query_one("#f-name").value = "nightly-1"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: store.snapshots["fr-par-1"][snap.id]["name"] == "nightly-1", what="renamed")
        await wait_for(pilot, lambda: app.screen.id == "main")
        await delete_typing(pilot, app, "nightly-1")  # data lost: its name typed
        await wait_for(pilot, lambda: snap.id not in store.snapshots["fr-par-1"], what="deleted")


async def test_instance_types_in_all_zones_keep_one_row_per_zone(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "instance.types")
        view.set_scope("all")
        await wait_for(pilot, lambda: not view.model.listing and view.table.loaded_count > 12, what="all zones")
        rows = view.table.resources()
        per_zone = {r.text("zone") for r in rows if r.name == "GPU-3070-S"}
        assert len(per_zone) == len(view.kind.all_scopes)
        avail = {r.text("zone"): r.text("availability") for r in rows if r.name == "GPU-3070-S"}
        assert avail["fr-par-2"] == "scarce" and avail["fr-par-1"] == "shortage"


async def test_image_from_snapshot_then_edit(sandbox):
    store = sandbox.instance
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "instance.snapshots")
        await select(pilot, view, "archive-2025-initial")
        await action(pilot, app, "Create an image from it…")
        form = await form_ready(pilot, app)
        form.query_one("#f-name").value = "archive image"
        await pilot.press("ctrl+s")
        await wait_for(
            pilot, lambda: any(i["name"] == "archive image" for i in store.images["fr-par-1"].values()), what="image"
        )
        images = await open_view(pilot, app, "instance.images")
        image = await select(pilot, images, "archive image")
        await pilot.press("e")
        edit = await form_ready(pilot, app)
        edit.query_one("#f-tags").value = "golden, 2025"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: store.images["fr-par-1"][image.id]["tags"] == ["golden", "2025"], what="tagged")
