"""Read-only over the whole manifest, once: every list and panel of every product, as the operator
reaches it. Its writes are gone from the key bar and do nothing but say why when pressed anyway; its
actions menu holds only what changes nothing; browsing it sends nothing but reads. (The client's
refusal of a mutating request before sending: tests/unit/test_api_client.py.)"""

from __future__ import annotations

import pytest

from helpers import demo_settings, make_app, open_view, wait_for
from tui.products.manifest import entries
from tui.ui.action_runner import offered

pytestmark = pytest.mark.anyio

VIEWS = [e.id for e in entries() if e.opens in ("list", "panel")]


@pytest.mark.parametrize("entry", VIEWS)
async def test_read_only_offers_no_write_and_sends_none(sandbox, entry):
    app = make_app(sandbox, settings=demo_settings(read_only=True, genai_url="http://sandbox/genai"))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.main is not None, what="main screen")
        view = await open_view(pilot, app, entry)
        shown = {b.binding.action for b in app.screen.active_bindings.values() if b.binding.show and b.enabled}
        assert not {"create", "edit", "delete"} & shown, f"{entry}: a write in the key bar"
        for key in ("c", "d", "e", "space"):  # pressed anyway: nothing opens, nothing is marked
            await pilot.press(key)
        await pilot.pause()
        assert app.screen is app.main and not getattr(getattr(view, "table", None), "marked", None)
        assert not view.may("mark")
        kind = view.kind
        row = view.table.cursor_key if hasattr(view, "table") else view.row
        menu = [a for a in kind.actions if offered(a, True)]
        assert all(not a.mutating or getattr(a.shape, "viewable", False) for a in menu)
        if row is not None and view.may("actions"):
            said = len(app.notes)  # (space, pressed above, may have said why marking is off)
            await pilot.press("a")
            await wait_for(pilot, lambda: app.screen.id == "actions-menu" or len(app.notes) > said, what="the menu")
            if app.screen.id == "actions-menu":
                labels = {c[0].removesuffix(" ›") for c in app.screen.choices}
                writes = {a.label for a in kind.actions if not offered(a, True)}
                assert not labels & writes, f"{entry}: a write in the menu"
                await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is app.main, what="back")
        assert [(m, p) for m, p in sandbox.requests if m != "GET"] == []


async def test_marking_pressed_anyway_says_why_it_is_off(sandbox):
    """Walk: space and M did nothing under --read-only, without a word, unlike c, e and d."""
    app = make_app(sandbox, settings=demo_settings(read_only=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.main is not None, what="main screen")
        view = await open_view(pilot, app, "instance.servers")
        await pilot.press("space")
        await wait_for(pilot, lambda: any("Marking is off" in n.message for n in app.notes), what="why")
        assert not view.table.marked and "--read-only" in app.notes[-1].message


async def test_a_list_of_staged_changes_says_why_send_and_undo_are_off(sandbox):
    """Walk: in a zone's records under --read-only, w and u did nothing without a word, and the column of
    staged marks was drawn, always empty."""
    from helpers import zone_records

    app = make_app(sandbox, settings=demo_settings(read_only=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.main is not None, what="main screen")
        records = await zone_records(pilot, app, "example.com")
        assert "±" not in [c.title for c in records.table.columns]
        for key, what in (("w", "Send changes is off"), ("u", "Undo one is off")):
            await pilot.press(key)
            await wait_for(pilot, lambda: any(what in n.message for n in app.notes), what=what)
        assert [(m, p) for m, p in sandbox.requests if m != "GET"] == []
