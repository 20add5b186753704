"""One-time secrets (issue 32): closing one before it was copied asks first (Cancel focused), and
once closed it is gone; a configuration reads with its own indentation, unwrapped, scrolled sideways."""

from __future__ import annotations

import pytest

from helpers import loaded, make_app, screen_named, wait_for

pytestmark = pytest.mark.anyio

KEY = "0f3c6a1e-5b7d-4c2a-9e8f-112233445566"
CONFIG = (
    'remote_write:\n  - url: "https://metrics.fr-par.cockpit.example/a-rather-long/api/v1/push"\n'
    f'    headers:\n      X-Token: "{KEY}"'
)


async def secret_dialog(pilot, app, **kw):
    from tui.ui.screens.secret import SecretScreen

    await loaded(pilot, app)
    app.push_screen(SecretScreen("Token ci", **kw))
    return await screen_named(pilot, app, "SecretScreen")


async def test_closing_a_one_time_secret_not_copied_asks_and_cancel_keeps_it(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        dialog = await secret_dialog(pilot, app, secrets={"password": "s3cret-once"}, once=("password",))
        await pilot.press("escape")
        ask = await screen_named(pilot, app, "ConfirmScreen")
        assert ask.title_text == "Copied it? It will not be shown again" and app.focused.id == "cancel"
        await pilot.press("enter")  # Cancel, the default: back to the secret, still there
        await wait_for(pilot, lambda: app.screen is dialog, what="back to the secret")
        await pilot.press("y", "escape")  # copied: closes at once
        await wait_for(pilot, lambda: app.screen.id == "main", what="closed")
        assert app.clipboard == "s3cret-once"


async def test_a_one_time_secret_closed_without_copying_is_gone(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        dialog = await secret_dialog(
            pilot, app, secrets={"secret_key": KEY, "metrics push": CONFIG}, once=("secret_key",)
        )
        await pilot.press("escape")
        await screen_named(pilot, app, "ConfirmScreen")
        await pilot.press("tab", "enter")  # Close without it
        await wait_for(pilot, lambda: app.screen.id == "main", what="closed")
        assert dialog.uncopied() == [] and KEY not in repr(vars(dialog))  # nothing kept to show again


async def test_copying_a_configuration_that_holds_the_key_counts_as_copying_it(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await secret_dialog(pilot, app, secrets={"secret_key": KEY, "metrics push": CONFIG}, once=("secret_key",))
        await pilot.press("down", "y", "escape")
        await wait_for(pilot, lambda: app.screen.id == "main", what="closed without asking")
        assert app.clipboard == CONFIG


async def test_a_configuration_is_shown_unwrapped_with_its_indentation(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await secret_dialog(pilot, app, secrets={"metrics push (prometheus.yml)": CONFIG})
        await pilot.press("v")
        await wait_for(pilot, lambda: "X-Token" in app.export_screenshot(), what="revealed")
        box = dialog.query_one("#secret-list")
        lines = [box.render_line(y).text.rstrip() for y in range(box.size.height)]
        assert "metrics push (prometheus.yml):" in lines[0] and lines[1].strip() == "remote_write:"
        start = len(lines[1]) - len(lines[1].lstrip())  # the configuration's own column 0
        assert [line[start : start + 15] for line in lines[2:5]] == [
            '  - url: "https',
            "    headers:",
            "      X-Token: ",
        ]
        assert len(lines) == 5  # the long URL line is not wrapped: it ends in … and scrolls sideways
        assert lines[2].endswith("…")
        await pilot.press("right")
        await wait_for(pilot, lambda: box.render_line(2).text.startswith("…"), what="scrolled sideways")
        assert box.render_line(2).text.rstrip() != lines[2]


DASHBOARD = (
    "https://dashboard.cockpit.fr-par.example/grafana/d/a-rather-long-dashboard-path/overview?orgId=1&from=now-1h"
)


@pytest.mark.parametrize("where", ["extra", "secrets"])
async def test_a_single_long_line_ends_in_an_ellipsis_and_scrolls_sideways_to_its_end(sandbox, where):
    """The activation's dashboard_url and the token's push addresses were cut at the right edge, unmarked."""
    app = make_app(sandbox)
    async with app.run_test(size=(80, 24)) as pilot:
        values = {"dashboard_url": DASHBOARD}
        given = {"extra": values, "secrets": {}} if where == "extra" else {"secrets": values}
        dialog = await secret_dialog(pilot, app, **given)
        if where == "secrets":
            await pilot.press("v")
        await wait_for(pilot, lambda: bool(dialog.query("#secret-list")), what="the list")
        box = dialog.query_one("#secret-list")
        await wait_for(pilot, lambda: "dashboard_url: https://" in box.render_line(0).text, what="shown")
        first = box.render_line(0).text.rstrip()
        assert first.endswith("…") and len(first) < len("dashboard_url: " + DASHBOARD)
        for _ in range(20):
            await pilot.press("right")
        shown = box.render_line(0).text.rstrip()
        assert shown.startswith("…") and shown.endswith("from=now-1h"), shown
        for _ in range(20):
            await pilot.press("left")
        assert box.render_line(0).text.rstrip() == first
        await pilot.press("y")
        assert app.clipboard == DASHBOARD
