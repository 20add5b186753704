"""What the console offers to copy (issue 32): a command it will not build from a hostile API
value is refused in words, with nothing to copy (the builder and each product's commands:
tests/unit/test_commands.py)."""

from __future__ import annotations

import pytest

from helpers import (
    act,
    demo_settings,
    loaded,
    make_app,
    notified,
    open_view,
    screen_named,
    text_of,
    to_named_row,
    wait_for,
)

pytestmark = pytest.mark.anyio


async def test_a_refused_login_command_says_why_and_copies_nothing(sandbox):
    web = next(n for n in sandbox.registry.namespaces.items["fr-par"].values() if n["name"] == "web")
    web["endpoint"] = "rg.fr-par.cr.example;id>pwned.txt;#/web"
    app = make_app(sandbox, settings=demo_settings(region="fr-par"))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "registry.namespaces")
        await to_named_row(pilot, view, "web")
        await act(pilot, app, "Log in with docker")
        dialog = await screen_named(pilot, app, "ResultScreen")
        said = text_of(dialog.query_one("#result-text"))
        assert "Not offered: the registry host 'rg.fr-par.cr.example;id>pwned.txt;#' is not a host name" in said
        assert "docker login" not in said and dialog.copy_text == ""
        await pilot.press("y")
        await wait_for(pilot, lambda: notified(app, "Nothing here to copy"), what="said")
        assert "pwned" not in (app.clipboard or "")
