"""The container registry from the keyboard, against the sandbox, beyond the walkthrough
(tests/ui/test_ui_network_walkthrough.py: a namespace created, its name unique in the region; a
tag's pull command copied): a namespace edited (only what changed sent) and deleted with its name
typed; a tag sharing its digest deleted only once the others that go with it are named; read-only."""

from __future__ import annotations

import pytest

from helpers import (
    act,
    child_list,
    delete_typing,
    demo_settings,
    form_ready,
    loaded,
    make_app,
    open_view,
    screen_named,
    sent,
    set_select,
    to_named_row,
    wait_for,
)

pytestmark = pytest.mark.anyio


def namespace(sandbox, name, region="fr-par"):
    return next((n for n in sandbox.registry.namespaces.items[region].values() if n["name"] == name), None)


async def test_a_namespace_edited_and_deleted_and_a_tag_sharing_its_digest_deleted(sandbox, clock):
    app = make_app(sandbox, settings=demo_settings(region="fr-par"))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "registry.namespaces")

        # edit: only what changed is sent
        await to_named_row(pilot, view, "web")
        await pilot.press("e")
        form = await form_ready(pilot, app)
        await set_select(pilot, form, "visibility", "public")
        await pilot.press("ctrl+s")
        ask = await screen_named(pilot, app, "ConfirmScreen")  # going public is said first, Cancel focused
        assert "Anyone on the internet" in ask.message and app.focused.id == "cancel"
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: namespace(sandbox, "web")["is_public"] is True, what="edited")
        assert sandbox.requests[-1][0] == "PATCH"

        # a tag sharing its digest (the pull command is copied in the walkthrough)
        await wait_for(pilot, lambda: app.screen.id == "main", what="main")
        images = await child_list(pilot, app, "Images")
        await to_named_row(pilot, images, "frontend")
        tags = await child_list(pilot, app, "Tags")
        await to_named_row(pilot, tags, "latest")
        # it is deleted only once the other one is named, the name typed, then deleted with force
        await screen_named(pilot, app, "ChildScreen")
        message = await delete_typing(pilot, app, "latest")
        assert "v1.4.2" in message
        frontend = next(i for i in sandbox.registry.images.items["fr-par"].values() if i["name"] == "frontend")
        frontend_tags = [
            t
            for t in sandbox.registry.tags.items["fr-par"].values()
            if t["image_id"] == frontend["id"] and t["name"] in ("latest", "v1.4.2")
        ]
        await wait_for(
            pilot,
            lambda: {t["status"] for t in frontend_tags} == {"deleting"},
            what="both deleting (the sandbox refuses without force)",
        )

        # back to the namespaces: delete one with its name typed
        while app.screen.id != "main":
            await pilot.press("escape")
            await pilot.pause()
        await to_named_row(pilot, view, "public-tools")
        await delete_typing(pilot, app, "public-tools")
        await wait_for(pilot, lambda: namespace(sandbox, "public-tools")["status"] == "deleting", what="deleting")


async def test_read_only_offers_the_commands_and_no_change(sandbox):
    app = make_app(sandbox, settings=demo_settings(region="fr-par", read_only=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "registry.namespaces")
        await to_named_row(pilot, view, "web")  # (no write offered: tests/ui/test_read_only.py)
        await act(pilot, app, "Log in with docker")
        dialog = await screen_named(pilot, app, "ResultScreen")
        assert dialog.copy_text == "docker login rg.fr-par.cr.example -u nologin --password-stdin"
        assert sandbox.secret_key not in dialog.text
        assert sent(sandbox, "/registry/") == []


async def test_a_huge_parent_name_is_cut_in_the_breadcrumb_so_the_lists_title_shows(sandbox):
    """The breadcrumb over a child list whose parent's name is huge read just 'Registry ›'."""
    huge = "web-" + "x" * 300
    namespace(sandbox, "web")["name"] = huge
    app = make_app(sandbox, settings=demo_settings(region="fr-par"))
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "registry.namespaces")
        await to_named_row(pilot, view, huge)
        await child_list(pilot, app, "Images")
        crumb = (await screen_named(pilot, app, "ChildScreen")).query_one("#detail-title")
        await pilot.pause()
        shown = crumb.render_line(0).text.rstrip()
        assert shown.endswith("… › Images") and "web-xxx" in shown, shown
        assert crumb.size.height == 1


async def test_a_namespace_deleted_in_the_background_shows_so_until_it_is_gone(sandbox, clock):
    """The platform answers a delete with the namespace `deleting`: the row says so until it is gone,
    and no refresh meanwhile brings back a row (or a count) the console had taken out."""
    app = make_app(sandbox, settings=demo_settings(region="fr-par"))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "registry.namespaces")
        held = view.table.loaded_count
        target = await to_named_row(pilot, view, "public-tools")
        await delete_typing(pilot, app, "public-tools")
        await wait_for(
            pilot, lambda: (view.table.get(target.id) or target).state == "deleting", what="the row says deleting"
        )
        view.reload()  # a refresh while it is being deleted: the same row, the same count
        await wait_for(pilot, lambda: not view.model.listing and view.model.last_attempt is not None, what="read")
        assert view.table.get(target.id).state == "deleting" and view.model.totals == {"fr-par": held}
        clock.advance(10)  # deleted (another one, deleting for ten minutes of the demo, is not yet)
        view.refresher.fire()
        await wait_for(pilot, lambda: view.table.get(target.id) is None, what="gone")
        assert view.table.loaded_count == held - 1 and view.model.totals == {"fr-par": held - 1}
