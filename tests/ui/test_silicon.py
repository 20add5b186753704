"""Silicon servers: the sandbox against spec 1 §2.10, §4.5 and spec/4, and the console from the
keyboard (create with the 24-hour minimum stated, why it cannot be deleted yet, reboot, gone after
delete although the platform answers 403)."""

from __future__ import annotations

from urllib.parse import urlsplit

import httpx
import pytest

from helpers import action, args, choose, loaded, make_app, open_view, screen_named, select, text_of, wait_for
from tui.sandbox import DEMO_SECRET_KEY, Sandbox

pytestmark = pytest.mark.anyio
S = "/vendorx-silicon/v1alpha1/zones/fr-par-1"


@pytest.fixture
def live():
    """A sandbox on the wall clock: `deletable_at` is compared with the time now."""
    return Sandbox()


@pytest.fixture
async def api(live):
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(live.app), base_url="http://sb", headers={"X-Auth-Token": DEMO_SECRET_KEY}
    ) as c:
        yield c


async def test_sandbox_rules(api, live):
    types = (await api.get(f"{S}/server-types")).json()["server_types"]
    assert {t["name"] for t in types} == {"M2-L", "M2-M", "M1-M"} and all(
        t["minimum_lease_duration"] == "86400s" for t in types
    )
    r = await api.post(f"{S}/servers", json={"name": "bad/name", "type": "M1-M", "project_id": live.project_id})
    assert args(r) == {"name": "format", "type": "constraint"}
    created = (
        await api.post(f"{S}/servers", json={"name": "ci 2.1", "type": "M2-M", "project_id": live.project_id})
    ).json()
    assert created["status"] == "starting" and created["deletable_at"] > created["created_at"]
    r = await api.delete(f"{S}/servers/{created['id']}")
    assert r.status_code == 400 and "cannot be deleted before" in r.json()["message"]
    old = next(s for s in (await api.get(f"{S}/servers")).json()["servers"] if s["name"] == "ios-build-02")
    assert (await api.delete(f"{S}/servers/{old['id']}")).status_code == 204
    gone = await api.get(f"{S}/servers/{old['id']}")
    assert gone.status_code == 403 and gone.json()["type"] == "permissions_denied"
    assert (await api.get("/vendorx-silicon/v1alpha1/zones/fr-par-2/servers")).status_code == 400


async def test_console_create_reboot_and_the_24_hour_minimum(live):
    app = make_app(live)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "silicon.servers")
        assert str(view.table.border_title) == "Silicon servers · fr-par-1 · 2/2"
        # too young to delete: refused before anything is sent, with the time left
        await select(pilot, view, "ios-build-01")
        await pilot.press("d")
        await wait_for(pilot, lambda: any("deletable in 17 h" in n.message for n in app.notes), what="why not")
        assert not [p for m, p in live.requests if m == "DELETE"]
        # reboot, confirmed
        await pilot.press("a")
        await screen_named(pilot, app, "PickerScreen")
        await pilot.press("enter")  # Reboot
        await screen_named(pilot, app, "ConfirmScreen")
        await pilot.press("tab", "enter")
        await wait_for(
            pilot,
            lambda: next(r for r in view.table.resources() if r.name == "ios-build-01").state == "rebooting",
            what="rebooting",
        )
        # create: the lease minimum is stated
        await pilot.press("c")
        form = await screen_named(pilot, app, "FormScreen")
        await wait_for(pilot, lambda: form.ready, what="types")
        assert "rented 24 h at least" in form.form.label_of("type")  # the minimum lease, on the form
        form.query_one("#f-type").value = "M2-L"
        form.query_one("#f-name").value = "ios build 03"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: any(r.name == "ios build 03" for r in view.table.resources()), what="created")
        # an old one is deleted (name typed); the platform then answers 403 for it: it is gone, not forbidden
        old = await select(pilot, view, "ios-build-02")
        await pilot.press("d")
        confirm = await screen_named(pilot, app, "ConfirmScreen")
        confirm.query_one("#confirm-text").value = "ios-build-02"
        await pilot.pause()
        confirm.query_one("#confirm").press()
        await wait_for(pilot, lambda: view.table.get(old.id) is None, what="removed")
        from tui.api.errors import NotFound

        with pytest.raises(NotFound):
            await view.service.get_data("fr-par-1", old.id)


async def test_reinstall_erases_only_after_the_server_name_is_typed(live):
    app = make_app(live)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "silicon.servers")
        server = await select(pilot, view, "ios-build-02")
        await action(pilot, app, "Reinstall (erases it)…")
        form = await screen_named(pilot, app, "FormScreen")
        await wait_for(pilot, lambda: form.ready, what="OSes")
        form.query_one("#f-os_id").focus()
        await choose(pilot, "macOS")
        await pilot.press("ctrl+s")
        erase = await screen_named(pilot, app, "ConfirmScreen")
        assert erase.require_text == "ios-build-02" and "erased" in erase.message and app.focused.id == "confirm-text"
        await pilot.press("escape")  # not confirmed: nothing sent, the form stays
        await wait_for(pilot, lambda: app.screen is form, what="back to the form")
        assert not [p for m, p in live.requests if p.endswith("/reinstall")]
        await pilot.press("ctrl+s")
        await screen_named(pilot, app, "ConfirmScreen")
        await pilot.press(*"ios-build-02", "enter")
        await wait_for(pilot, lambda: [p for m, p in live.requests if p.endswith("/reinstall")] != [], what="sent")
        assert server.id in [p.split("/")[-2] for m, p in live.requests if p.endswith("/reinstall")]


async def test_the_vnc_password_is_masked_in_the_list_detail_json_and_copy_dialog(live):
    app = make_app(live)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "silicon.servers")
        server = await select(pilot, view, "ios-build-01")
        real = next(s for s in live.silicon.servers["fr-par-1"].values() if s["id"] == server.id)["vnc_url"]
        password = urlsplit(real).password  # the sandbox makes one per server (never the same in two runs)
        assert password and real.startswith(f"vnc://m1:{password}@")
        await pilot.press("enter")
        detail = await screen_named(pilot, app, "DetailScreen")
        await wait_for(pilot, lambda: detail.resource is not None, what="detail")
        fields, raw = text_of(detail.query_one("#fields")), text_of(detail.query_one("#json"))
        assert password not in fields and password not in raw and "m1:•••@" in fields
        await pilot.press("x")  # reveal on request
        shown = await screen_named(pilot, app, "SecretScreen")
        await pilot.press("y")
        assert app.clipboard == real
        await pilot.press("escape", "escape")
        await wait_for(pilot, lambda: app.screen.id == "main", what="back")
        await action(pilot, app, "VNC URL (copy)…")
        dialog = await screen_named(pilot, app, "SecretScreen")
        box = dialog.query_one("OptionList")
        assert password not in str(box.get_option_at_index(0).prompt)
        await pilot.press("v")
        assert password in str(box.get_option_at_index(0).prompt)
        await pilot.press("y")
        assert app.clipboard == real and shown is not dialog


async def test_the_types_catalogue_counts_like_every_other_list(live):
    """The catalogue sends no total: its title read '· 3' where every other list reads '3/3'."""
    app = make_app(live)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "silicon.types")
        n = view.table.loaded_count
        assert n > 0 and str(view.table.border_title).endswith(f" · {n}/{n}"), str(view.table.border_title)
