"""Leniency and resilience: unknown states and fields are shown; bugs become notifications."""

import pytest

from helpers import loaded, make_app, wait_for
from tui.products.instance.server_forms import Server

pytestmark = pytest.mark.anyio


def test_server_model_is_lenient():
    s = Server.model_validate(
        {"id": "x", "state": "hibernating", "tags": None, "public_ip": "1.2.3.4", "brand_new": {"a": 1}}
    )
    assert s.state == "hibernating" and s.tags == [] and s.public_ip is None
    assert s.raw["brand_new"] == {"a": 1} and s.raw["public_ip"] == "1.2.3.4"  # the JSON view shows it all


async def test_unknown_state_and_fields_are_shown_not_fatal(sandbox):
    server = next(s for s in sandbox.instance.servers["fr-par-1"].values() if s["name"] == "bastion")
    server["state"] = "hibernating"
    sandbox.instance.wire_overrides[server["id"]] = {"tags": None, "brand_new": {"nested": [1, 2]}, "volumes": "oops"}
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        row = view.table.get(server["id"])
        assert row.state == "hibernating"
        assert "○ hibernating" in app.export_screenshot().replace("&#160;", " ")
        view.table.move_to(server["id"])
        await pilot.press("a")  # allowed_actions is [] for an unknown state: no power action offered
        await wait_for(pilot, lambda: app.screen.id == "actions-menu")
        labels = [c[0] for c in app.screen.choices]
        assert not any(label.startswith(("Power", "Reboot", "Stop", "Terminate", "Back up")) for label in labels)
        assert "Volumes: attach, detach, order…" in labels
        await pilot.press("escape")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "DetailScreen")
        await pilot.press("v")
        await wait_for(pilot, lambda: "brand_new" in app.export_screenshot(), what="the unknown state in its JSON")


async def test_a_bug_in_a_handler_becomes_a_notification(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)

        def broken(resource):
            raise RuntimeError("kaboom")

        object.__setattr__(view.writes, "confirm_delete", broken)
        await pilot.press("d")
        await wait_for(pilot, lambda: any("kaboom" in n.message for n in app.notes), what="notified")
        assert app.is_running
        await pilot.press("z")  # the console still answers
        await wait_for(pilot, lambda: app.screen.id == "zone-picker")


async def test_a_failing_worker_becomes_a_notification(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)

        async def broken(*args, **kwargs):
            raise ValueError("unexpected shape")
            yield  # pragma: no cover

        view.service.iter_list = broken
        await pilot.press("r")
        await wait_for(pilot, lambda: any("unexpected shape" in n.message for n in app.notes), what="notified")
        assert view.table.loaded_count == 8 and not view.model.listing


async def test_a_notification_of_several_lines_shows_them_as_lines(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await loaded(pilot, app)
        from tui.api.errors import InvalidArguments
        from tui.ui.errors import notify_error

        notify_error(
            app, InvalidArguments(400, "invalid argument(s): name", method="POST", url="/servers"), "Creating x"
        )  # summary, then what to do
        await wait_for(pilot, lambda: bool(app.screen.query("Toast")), what="the failure shown")
        shown = "\n".join(str(t.render().plain) for t in app.screen.query("Toast"))
        assert "\\n" not in shown and len(shown.splitlines()) >= 2, shown


async def test_every_failure_shown_is_in_the_log_file(sandbox, tmp_path, monkeypatch):
    from tui import cli

    monkeypatch.setenv("CLOUDTUI_LOG_DIR", str(tmp_path / "logs"))
    assert cli._logging(None) is None  # as a start-up without --debug-log sets it up
    sandbox.inject(503, "/servers", method="GET")
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: any("503" in n.message for n in app.notes), timeout=15, what="the failure shown")
    logged = (tmp_path / "logs" / "cloudtui.log").read_text()
    assert "503" in logged and "Listing servers" in logged
