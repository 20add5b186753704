"""A dialog says each thing once: what its key line says (y copies, v reveals) is not said again
above it, and a value listed to copy is not written out a second time in its note."""

from __future__ import annotations

import re

import pytest

from helpers import action, demo_settings, loaded, make_app, open_view, screen_named, select, text_of, wait_for

pytestmark = pytest.mark.anyio
KEYS = re.compile(r"\by cop|\(y\)|\bv reveal|\(v\)")


def said(screen) -> tuple[list[str], list[str]]:
    """The dialog's lines of text, and the values it lists to pick and copy."""
    from textual.widgets import OptionList, Static

    lines = [line.strip() for w in screen.query(Static) for line in text_of(w).splitlines() if line.strip()]
    listed = [
        str(box.get_option_at_index(i).prompt).partition(": ")[2]
        for box in screen.query(OptionList)
        for i in range(box.option_count)
    ]
    return lines, listed


def said_once(screen) -> None:
    lines, listed = said(screen)
    assert sum(bool(KEYS.search(line)) for line in lines) <= 1, lines
    assert not [v for v in listed if v and "•" not in v and any(v in line for line in lines)], (lines, listed)


async def test_remote_access_vnc_and_a_backups_url_say_their_keys_and_values_once(sandbox, clock):
    clock.advance(10)  # the seeded export under way is done
    app = make_app(sandbox, settings=demo_settings(region="fr-par"))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        servers = await open_view(pilot, app, "baremetal.servers")
        await select(pilot, servers, "edge-par")
        await action(pilot, app, "Remote access (management controller)…")
        form = await screen_named(pilot, app, "FormScreen")
        await wait_for(pilot, lambda: form.ready, what="form")
        form.query_one("#f-ip").value = "203.0.113.9"
        await pilot.press("ctrl+s")
        said_once(await screen_named(pilot, app, "SecretScreen"))  # the URL and login were written above their list too
        await pilot.press("escape")
        silicon = await open_view(pilot, app, "silicon.servers")
        await select(pilot, silicon, "ios-build-01")
        await action(pilot, app, "VNC URL (copy)…")
        said_once(await screen_named(pilot, app, "SecretScreen"))
        await pilot.press("escape")
        backups = await open_view(pilot, app, "rdb.backups")
        await select(pilot, backups, "orders-export")
        await action(pilot, app, "Download URL (copy)…")
        result = await screen_named(pilot, app, "ResultScreen")
        said_once(result)
        await pilot.press("y")
        assert app.clipboard.startswith("https://") and "\n" not in app.clipboard  # the URL alone
