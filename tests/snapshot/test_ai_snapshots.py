"""SVG snapshots of monitoring and model inference: each page, list and form as it opens, and a
model's life-cycle stepper. Seeded sandbox on a manual clock. (The chat's answers carry their own
timing, so its looks are in screenshots/, not here.)
Update after an intended visual change with `uv run pytest tests/snapshot --snapshot-update`."""

import pytest

from helpers import FIXED_WALL, child_list, form_ready, loaded, make_app, open_view, to_named_row, wait_for
from tui.sandbox import DEMO_PROJECT_ID, ManualClock, Sandbox


def app_and_sandbox():
    sandbox = Sandbox(clock=ManualClock(FIXED_WALL))
    sandbox.clock.advance(10)
    return make_app(sandbox, clock=sandbox.clock.now), sandbox


def activate(sandbox):
    found, _ = sandbox.monitoring.activate(DEMO_PROJECT_ID)
    sandbox.clock.advance(60)
    sandbox.monitoring.add_token(found, "prometheus-prod", {"write_metrics": True})
    found.contact_points.append({"email": {"to": "ops@example.com"}})
    sandbox.monitoring.add_user(found, "alice", "editor")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_monitoring_absent(snap_compare, size):
    app, _ = app_and_sandbox()

    async def ready(pilot):
        await loaded(pilot, app)
        panel = await open_view(pilot, app, "monitoring.cockpit")
        await wait_for(pilot, lambda: panel.absent, what="absent")
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=ready)


MONITORING = ["page", "Tokens", "Contact points", "Dashboard users", "token-create", "user-create", "contact-create"]


@pytest.mark.parametrize("what", MONITORING)
def test_monitoring(snap_compare, what):
    app, sandbox = app_and_sandbox()
    activate(sandbox)

    async def ready(pilot):
        await loaded(pilot, app)
        panel = await open_view(pilot, app, "monitoring.cockpit")
        await wait_for(pilot, lambda: panel.row is not None and panel.row.state == "ready", what="ready")
        child = {"token-create": "Tokens", "user-create": "Dashboard users", "contact-create": "Contact points"}.get(
            what, what
        )
        if what != "page":
            await child_list(pilot, app, child)
        if what.endswith("-create"):
            await pilot.press("c")
            await form_ready(pilot, app)
        await pilot.pause()

    assert snap_compare(app, terminal_size=(100, 28), run_before=ready)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_inference_models(snap_compare, size):
    app, _ = app_and_sandbox()

    async def ready(pilot):
        await loaded(pilot, app)
        await open_view(pilot, app, "inference.models")
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=ready)


@pytest.mark.parametrize("what", ["create", "rename", "stepper", "error"])
def test_inference(snap_compare, what):
    app, _ = app_and_sandbox()

    async def ready(pilot):
        await loaded(pilot, app)
        view = await open_view(pilot, app, "inference.models")
        if what == "create":
            await pilot.press("c")
            await form_ready(pilot, app)
        else:
            await to_named_row(
                pilot, view, {"rename": "sentiment", "stepper": "fraud-detector", "error": "sales-forecast"}[what]
            )
            await pilot.press("e" if what == "rename" else "enter")
            if what == "rename":
                await form_ready(pilot, app)
            else:
                await wait_for(pilot, lambda: app.screen.__class__.__name__ == "DetailScreen", what="detail")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(100, 28), run_before=ready)
