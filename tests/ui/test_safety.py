"""Safety that is consistent: what deletes asks first or is refused with why, what cannot work is
greyed with its reason, a refused list edit keeps the edits, a success without its object is not
a success; and a start that cannot work says so in one line."""

from __future__ import annotations

import pytest

from helpers import action, loaded, make_app, open_view, screen_named, select, wait_for
from test_ui_servers import fill_create_form
from tui import cli

pytestmark = pytest.mark.anyio
Z = "/instance/v1/zones/fr-par-1"


async def test_a_refused_rule_list_keeps_the_edits_in_the_editor(sandbox):
    store = sandbox.instance
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "instance.security_groups")
        sg = await select(pilot, view, "web-public")
        await action(pilot, app, "Rules…")
        editor = await screen_named(pilot, app, "RecordListScreen")
        del editor.records[0]  # as `d` does
        editor.changed = True
        editor._fill(0)
        sandbox.inject(412, "/rules", method="PUT", times=1)
        sandbox.faults[-1].body = {
            "type": "precondition_failed",
            "message": "precondition is not respected",
            "help_message": "the group is syncing",
        }
        await pilot.press("ctrl+s")
        status = editor.query_one("#records-status")
        await wait_for(pilot, lambda: "412" in str(status.render()), what="refusal shown in the editor")
        assert app.screen is editor and len(editor.records) == 2, "the edits are still there"
        assert len(store.security_groups["fr-par-1"][sg.id]["rules"]) == 3
        await pilot.press("ctrl+s")  # the platform accepts it now
        await wait_for(pilot, lambda: app.screen is not editor, what="saved")
        assert len(store.security_groups["fr-par-1"][sg.id]["rules"]) == 2


async def test_deleting_a_flexible_ip_in_use_names_the_server_that_loses_it(sandbox):
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "instance.ips")
        ip = next(r for r in view.table.resources() if r.text("address") == "163.172.10.11")
        view.table.move_to(ip.id)
        await pilot.press("d")
        confirm = await screen_named(pilot, app, "ConfirmScreen")
        message = str(confirm.query_one("#confirm-message").render())
        assert "web-01 loses its public address 163.172.10.11" in message
        assert app.focused.id == "cancel"


async def test_a_protected_server_cannot_be_terminated_from_the_console_or_the_api(sandbox, http):
    server = next(s for s in sandbox.instance.servers["fr-par-1"].values() if s["name"] == "bastion")
    server["protected"] = True
    sandbox.instance._touch("fr-par-1", server["id"])
    refused = await http.post(f"{Z}/servers/{server['id']}/action", json={"action": "terminate"})
    assert refused.status_code == 400 and "protected" in refused.json()["message"]
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        view.table.move_to(server["id"])
        await pilot.press("a")
        menu = await screen_named(pilot, app, "PickerScreen")
        terminate = next(c for c in menu.choices if c[0].startswith("Terminate"))
        assert "protected" in terminate[2], "greyed, with why"
        await pilot.press("escape")
        await pilot.press("d")
        await pilot.pause()
        assert app.screen.id == "main"
        await wait_for(pilot, lambda: any("protected" in n.message for n in app.notes), what="delete refused with why")
    assert server["id"] in sandbox.instance.servers["fr-par-1"]


async def test_a_create_answered_without_its_object_is_not_reported_created(sandbox):
    sandbox.inject(201, "/servers", method="POST", times=1)
    sandbox.faults[-1].raw = b"{}"
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        await fill_create_form(pilot, app, name="no-body")
        await pilot.press("ctrl+s")
        form = app.screen
        status = form.query_one("#form-status")
        await wait_for(pilot, lambda: "Looked again" in str(status.render()), what="looked")
        assert "it was not created" in str(status.render())
        assert view.table.loaded_count == 8 and all(r.id for r in view.table.resources()), "no blank row"


def test_an_unwritable_debug_log_is_one_line(tmp_path, capsys):
    assert cli.main(["--debug-log", str(tmp_path / "no" / "such" / "dir" / "log.txt"), "--demo"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("cloudtui: cannot write the debug log") and "\n" not in err


def test_a_project_id_that_is_not_a_uuid_is_refused_at_start(monkeypatch, capsys):
    monkeypatch.setenv("CLOUDTUI_API_URL", "https://api.example.test")
    monkeypatch.setenv("CLOUDTUI_PROJECT_ID", "my-project")
    assert cli.main([]) == 2
    assert "'my-project' is not a UUID" in capsys.readouterr().err


def test_a_missing_ca_bundle_is_named_at_start(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("CLOUDTUI_API_URL", "https://api.example.test")
    monkeypatch.setenv("CLOUDTUI_PROJECT_ID", "7f6e5d4c-3b2a-4190-8f7e-6d5c4b3a2f1e")
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "corp-ca.pem"))
    assert cli.main([]) == 2
    assert f"the CA bundle {tmp_path / 'corp-ca.pem'} (from SSL_CERT_FILE) does not exist" in capsys.readouterr().err


def test_faults_spec_errors_are_one_line(capsys):
    assert cli.main(["--demo", "--faults", "5xx=2"]) == 2
    assert "probability is between 0 and 1" in capsys.readouterr().err


def test_an_unknown_zone_or_region_is_refused_at_start(capsys):
    assert cli.main(["--demo", "--zone", "fr-par"]) == 2  # a region is not a zone
    assert "unknown zone 'fr-par'" in capsys.readouterr().err
    assert cli.main(["--demo", "--region", "fr-par-1"]) == 2  # nor a zone a region
    assert "unknown region 'fr-par-1'" in capsys.readouterr().err


async def test_a_read_only_list_dialog_edits_nothing_and_closes_without_asking(sandbox):
    from tui.products.kit.base import Column
    from tui.products.instance.network_forms import RuleForm
    from tui.ui.screens.records import RecordListScreen

    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        rules = [{"protocol": "TCP", "direction": "inbound", "action": "accept", "ip_range": "0.0.0.0/0"}]
        columns = (Column("protocol", "Protocol", lambda r: str(r.get("protocol")), width=10),)
        app.push_screen(RecordListScreen("Rules", RuleForm, rules, columns, read_only=True))
        editor = await screen_named(pilot, app, "RecordListScreen")
        await pilot.press("c", "e", "d", "enter", "right_square_bracket")
        await pilot.pause()
        assert app.screen is editor and editor.records == rules and not editor.changed, "nothing editable"
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is not editor, what="closed, nothing asked")
        assert type(app.screen).__name__ != "ConfirmScreen"
