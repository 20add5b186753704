"""The shared foundation, through a product of the tests' own ("Gadgets", `gadgets_client.py` and
`gadgets_sandbox.py`): a regional kind with a child kind, a global singleton panel, and a kind with a
secret field behind an endpoint of its own — declared in one module per side, with nothing in
`tui/ui` or the shared service knowing it."""

from __future__ import annotations

import random

import json
import subprocess
import sys
from pathlib import Path

import pytest

import gadgets_client
import gadgets_sandbox
from helpers import demo_settings, loaded, make_app, open_view, pick, screen_named, wait_for
from tui.products import manifest
from tui.sandbox import Sandbox
from tui.products.kit.refresh_plan import RefreshPolicy

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.anyio


@pytest.fixture
def gadgets():
    manifest.register(*gadgets_client.ENTRIES)
    yield
    manifest.unregister(*gadgets_client.ENTRIES)


@pytest.fixture
def gsandbox(clock, gadgets):
    return Sandbox(clock=clock, products=[gadgets_sandbox.PRODUCT])


def writes(sandbox):
    return [(m, p) for m, p in sandbox.requests if m != "GET"]


async def open_entry(pilot, app, entry_id):
    """Sidebar by keyboard to any entry (a list or a panel)."""
    from tui.ui.widgets.sidebar import Sidebar

    sidebar = app.main.query_one(Sidebar)
    sidebar.focus()
    await pilot.pause()
    target = [kid for kid, _ in sidebar.entries].index(entry_id)
    for _ in range(len(sidebar.entries)):
        if sidebar.highlighted == target:
            break
        await pilot.press("j" if target > sidebar.highlighted else "k")
    await pilot.press("enter")
    await wait_for(pilot, lambda: app.main.current_entry.id == entry_id and app.main.view is not None, what=entry_id)
    view = app.main.view
    await wait_for(
        pilot, lambda: app.focused is not None and view in app.focused.ancestors_with_self, what=f"{entry_id} focused"
    )
    return view


async def test_a_regional_list_follows_the_region_apart_from_the_zone(gsandbox):
    app = make_app(gsandbox, settings=demo_settings(zone="fr-par-1", region="fr-par"))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "gadgets.gadgets")
        assert str(view.table.border_title) == "Gadgets · fr-par · 2/2"
        assert gsandbox.gadgets.project_params[-1] == gsandbox.project_id  # list parameters from the context
        # `z` is worded by the scope type and offers "all regions"
        await pilot.press("z")
        await wait_for(pilot, lambda: app.screen.id == "zone-picker", what="region picker")
        assert app.screen.title_text == "Region"
        assert app.screen.choices[0][0] == "all regions"
        await pilot.press("home", "enter")  # the picker opens on the current region
        await wait_for(
            pilot,
            lambda: view.scope == "all" and not view.model.listing and view.table.loaded_count == 3,
            what="all regions",
        )

        assert str(view.table.border_title) == "Gadgets · all regions · 3/3"
        # one request per region, never a zone name on a regional path
        paths = [p for m, p in gsandbox.requests if "/gadgets/v1/" in p]
        assert not any("/zones/" in p for p in paths)
        assert {p.split("/")[4] for p in paths if p.endswith("/gadgets")} == {"fr-par", "nl-ams", "pl-waw"}
        # the zone did not move: Instance servers are still in fr-par-1
        servers = await open_view(pilot, app, "instance.servers")
        assert servers.scope == "fr-par-1"
        assert app.main.scopes == {"zone": "fr-par-1", "region": "all"}
        again = await open_view(pilot, app, "gadgets.gadgets")
        assert again is view and view.scope == "all"


async def open_parts(pilot, app, gadget_name):
    view = await open_view(pilot, app, "gadgets.gadgets")
    gadget = next(r for r in view.table.resources() if r.name == gadget_name)
    view.table.move_to(gadget.id)
    await pilot.press("a")
    await wait_for(pilot, lambda: app.screen.id == "actions-menu", what="actions")
    await pick(pilot, app, lambda label: label == "Parts ›")
    await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ChildScreen", what="child screen")
    child = app.screen.view
    await wait_for(pilot, lambda: not child.model.listing and child.model.last_attempt is not None, what="parts listed")
    child.focus_table()
    await pilot.pause()
    return gadget, child


async def test_a_child_list_opens_from_its_parent_and_uses_its_own_paths(gsandbox):
    app = make_app(gsandbox, settings=demo_settings(region="fr-par"))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        alpha, child = await open_parts(pilot, app, "alpha")
        assert str(child.table.border_title) == "alpha › Parts · fr-par · 3/3"
        assert ("GET", f"/gadgets/v1/regions/fr-par/gadgets/{alpha.id}/parts") in gsandbox.requests
        assert [r.id for r in child.table.resources()] == [
            "alpha-part-1",
            "alpha-part-2",
            "alpha-part-3",
        ]  # id field: name
        assert child.table.get("alpha-part-1").get("count") == 1
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.id == "main", what="back to the parent list")


async def fill(pilot, app, **values):
    from textual.widgets import Input

    await wait_for(pilot, lambda: app.screen.__class__.__name__ == "FormScreen", what="form")
    await pilot.pause()
    for name, value in values.items():
        app.screen.query_one(f"#f-{name}", Input).value = value
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: app.screen.__class__.__name__ != "FormScreen", what="form closed")


async def test_staged_edits_survive_a_refresh_are_reviewed_as_a_diff_and_kept_when_the_send_fails(gsandbox):
    app = make_app(gsandbox, settings=demo_settings(region="fr-par"))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        gadget, child = await open_parts(pilot, app, "alpha")
        await pilot.press("c")
        await fill(pilot, app, name="alpha-part-9", count="4")
        child.table.move_to("alpha-part-1")
        await pilot.press("e")
        await fill(pilot, app, count="7")
        child.table.move_to("alpha-part-3")
        await pilot.press("d")
        await pilot.pause()
        marks = {r.id: r.get("_staged") for r in child.table.resources()}
        assert marks == {"alpha-part-1": "~", "alpha-part-2": None, "alpha-part-3": "-", "+1": "+"}
        assert child.table.get("alpha-part-1").get("count") == 7
        assert writes(gsandbox) == []  # nothing sent yet
        # a refresh neither loses nor hides them
        await pilot.press("r")
        await wait_for(pilot, lambda: not child.model.listing, what="re-listed")
        await pilot.pause()
        assert {r.id: r.get("_staged") for r in child.table.resources()} == marks
        # review: the diff, then a send that fails keeps everything staged
        gsandbox.inject(400, "/parts", "PATCH", times=1)
        await pilot.press("w")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "DiffScreen", what="review")
        assert "1 added, 1 changed, 1 deleted" in app.screen.title_text
        diff = app.screen.text
        assert "+ add     alpha-part-9" in diff and "count=4" in diff
        assert "~ change  alpha-part-1" in diff and "count: 1 → 7" in diff
        assert "- delete  alpha-part-3" in diff
        assert app.focused.id == "cancel"
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: len(writes(gsandbox)) == 1, what="first send")
        await wait_for(pilot, lambda: any("failed" in n.title for n in app.notes), what="failure shown")
        assert len(child.model.changes) == 3 and child.table.get("+1") is not None
        # again: sent in one request, applied, and the list shows the platform's rows
        await pilot.press("w")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "DiffScreen", what="review")
        await pilot.press("tab", "enter")
        await wait_for(
            pilot, lambda: not child.model.changes and child.table.get("alpha-part-9") is not None, what="sent"
        )
        assert writes(gsandbox) == [("PATCH", f"/gadgets/v1/regions/fr-par/gadgets/{gadget.id}/parts")] * 2
        parts = gsandbox.gadgets.parts["fr-par"]
        assert (
            parts["alpha-part-9"]["count"] == 4 and parts["alpha-part-1"]["count"] == 7 and "alpha-part-3" not in parts
        )
        assert all(r.get("_staged") is None for r in child.table.resources())


async def test_a_detail_tab_lists_a_child_kind_and_refreshes_on_its_own(gsandbox):
    app = make_app(gsandbox, settings=demo_settings(region="fr-par"), policy=RefreshPolicy(fast=3600, slow=0.1))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "gadgets.gadgets")
        alpha = next(r for r in view.table.resources() if r.name == "alpha")
        view.table.move_to(alpha.id)
        await pilot.press("enter")
        detail = await screen_named(pilot, app, "DetailScreen")
        await pilot.press("v", "v")  # fields → JSON → Events
        events = detail.query_one("ResourceView")
        await wait_for(
            pilot,
            lambda: str(events.table.border_title) == "alpha › Events · fr-par · 1/1 · by At ↓",
            what="events listed, titled",
        )
        assert ("GET", f"/gadgets/v1/regions/fr-par/gadgets/{alpha.id}/events") in gsandbox.requests
        gsandbox.gadgets.event(alpha.id, "restart")  # something happens on the platform
        shown = lambda: [events.table.get(k).get("what") for k in events.table.shown_keys]  # noqa: E731
        await wait_for(pilot, lambda: shown() == ["restart", "created"], what="the new event first, without a key")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.id == "main", what="back")


async def test_a_global_panel_shows_one_object_acts_and_polls_until_settled(gsandbox, clock):
    app = make_app(gsandbox, policy=RefreshPolicy(fast=0.05, slow=3600))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        panel = await open_entry(pilot, app, "gadgets.account")
        await wait_for(pilot, lambda: panel.row is not None, what="account loaded")
        assert ("GET", "/gadgets/v1/account") in gsandbox.requests
        assert not app.main.check_action("scope", ("zone",)) and not app.main.check_action("scope", ("region",))  # no z
        await wait_for(pilot, lambda: "basic" in app.export_screenshot(), what="the plan shown")
        await pilot.press("a")
        await wait_for(pilot, lambda: app.screen.id == "actions-menu", what="actions")
        await pick(pilot, app, lambda label: label == "Upgrade to pro")
        await wait_for(pilot, lambda: panel.row is not None and panel.row.state == "upgrading", what="upgrading")
        clock.advance(2.5)  # the platform settles; the panel sees it without a key press
        await wait_for(pilot, lambda: panel.row.state == "active" and panel.row.get("plan") == "pro", what="settled")
        await wait_for(
            pilot,
            lambda: "pro" in app.export_screenshot() and "basic" not in app.export_screenshot(),
            what="the new plan shown",
        )
        assert writes(gsandbox) == [("POST", "/gadgets/v1/account/upgrade")]


async def test_a_secret_is_shown_once_on_request_and_never_kept(gsandbox, tmp_path, caplog):
    app = make_app(gsandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "gadgets.keys")
        assert str(view.table.border_title) == "Keys · 0/0"  # global: no scope in the title
        await pilot.press("c")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "FormScreen", what="form")
        await pilot.press(*"deploy", "ctrl+s")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "SecretScreen", what="secret dialog")
        key = next(iter(gsandbox.gadgets.keys.values()))
        # the value exists only in the dialog: masked until asked
        screen = app.screen
        box = screen.query_one("OptionList")
        secret = f"sk-{key['id'][:8]}-{random.Random(key['id']).getrandbits(64):016x}"  # as the sandbox made it
        shown = lambda: "".join(str(box.get_option_at_index(i).prompt) for i in range(box.option_count))  # noqa: E731
        assert secret not in shown()
        await pilot.press("v")
        await pilot.pause()
        assert secret in shown()
        await pilot.press("y")
        assert app.clipboard == secret
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.id == "main", what="closed")
        row = view.table.get(key["id"])
        assert "secret_key" not in row.data and secret not in json.dumps(row.data)
        assert view.service.take_secrets(key["id"]) == {}  # given once
        assert secret not in caplog.text
        # the detail (fields and JSON) never has it either
        assert secret not in json.dumps(await view.service.get_data("global", key["id"]))
    # the keys endpoint took a bearer token: an X-Auth-Token there is refused
    import httpx

    async with httpx.AsyncClient(transport=httpx.ASGITransport(gsandbox.app), base_url="http://sb") as http:
        assert (
            await http.get("/gadget-keys/v1/keys", headers={"X-Auth-Token": gsandbox.secret_key})
        ).status_code == 401
        assert (
            await http.get("/gadget-keys/v1/keys", headers={"Authorization": f"Bearer {gsandbox.secret_key}"})
        ).status_code == 200


async def test_read_only_hides_mutating_verbs_and_keeps_the_others(gsandbox):
    app = make_app(gsandbox, settings=demo_settings(region="fr-par", read_only=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "gadgets.gadgets")
        assert not view.may("create") and not view.may("delete") and view.may("actions")
        alpha = next(r for r in view.table.resources() if r.name == "alpha")
        view.table.move_to(alpha.id)
        await pilot.press("d")  # gone: nothing happens
        await pilot.press("a")
        await wait_for(pilot, lambda: app.screen.id == "actions-menu", what="actions")
        labels = [c[0] for c in app.screen.choices]
        # Restart, Tune: not offered; what only reads stays (a prediction tried changes nothing; the labels open to be
        # read)
        assert labels == [
            "Check (changes nothing)",
            "Labels (read-only)…",
            "Address (copy)…",
            "Try a prediction…",
            "Compare with a version…",
            "Parts ›",
        ]
        await pick(pilot, app, lambda label: label.startswith("Check"))
        await wait_for(pilot, lambda: writes(gsandbox), what="check sent")
        assert writes(gsandbox) == [("POST", f"/gadgets/v1/regions/fr-par/gadgets/{alpha.id}/check")]
        panel = await open_entry(pilot, app, "gadgets.account")
        await wait_for(pilot, lambda: panel.row is not None, what="account")
        assert not panel.may("actions")  # its one action changes something
        await pilot.press("a")
        await pilot.pause()
        assert app.screen.id == "main"
        assert writes(gsandbox) == [("POST", f"/gadgets/v1/regions/fr-par/gadgets/{alpha.id}/check")]


START_PROBE = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import httpx
from tui.products import manifest
import gadgets_client
manifest.register(*gadgets_client.ENTRIES)
from helpers import make_app
from tui.sandbox import Sandbox
import gadgets_sandbox
app = make_app(Sandbox(products=[gadgets_sandbox.PRODUCT]))
async def go(pilot):
    while app.main is None or app.main.view is None or app.main.view.table.loaded_count == 0:
        await pilot.pause(0.02)
import asyncio
async def main():
    async with app.run_test() as pilot:
        await go(pilot)
asyncio.run(main())
print(json.dumps(sorted(m for m in sys.modules if m.startswith(("tui.products", "pydantic", "gadgets")))))
"""


def test_start_up_with_another_product_registered_loads_only_the_start_view():
    out = subprocess.run(
        [sys.executable, "-c", START_PROBE, str(ROOT / "tests")], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert out.returncode == 0, out.stderr[-2000:]
    loaded = json.loads(out.stdout.strip().splitlines()[-1])
    assert "tui.products.instance.servers" in loaded
    assert "tui.products.instance.volumes" not in loaded  # other views load when opened
    assert not any(m.startswith("pydantic") for m in loaded)  # no models or forms at start


async def test_create_in_all_zones_asks_where_and_the_palette_offers_zones_and_regions(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "instance.volumes")
        # the palette offers both scope types; a region changes nothing for a zonal view
        await pilot.press("colon")
        await pilot.press(*"Region: nl-ams")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.main.scopes["region"] == "nl-ams", what="region set")
        assert view.scope == "fr-par-1"
        await pilot.press("colon")
        await pilot.press(*"Zone: all zones")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_for(pilot, lambda: view.scope == "all" and not view.model.listing, what="all zones")
        view.focus_table()
        await pilot.press("c")
        picker = await screen_named(pilot, app, "PickerScreen")
        assert picker.title_text == "Create a volume in which zone?"
        await pick(pilot, app, lambda label: label == "nl-ams-1")
        form = await screen_named(pilot, app, "FormScreen")
        assert form.title_text == "Create volume in nl-ams-1"
