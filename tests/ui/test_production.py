"""A production profile: its own accent on every screen, PRODUCTION in the status bar, and every change
confirmed by typing its name (the count, for several rows); read_only per profile."""

from __future__ import annotations

import pytest

from helpers import demo_settings, loaded, make_app, open_view, row_named, screen_named, typed, wait_for, zone_records
from tui.sandbox import Sandbox

pytestmark = pytest.mark.anyio


async def test_a_production_profile_is_coloured_and_every_change_asks_for_its_name():
    sandbox = Sandbox()
    app = make_app(sandbox, settings=demo_settings(profile="prod", production=True))
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        assert app.get_css_variables()["accent"].upper() == "#E5484D"
        view.focus_table()
        await pilot.pause()
        assert view.table.styles.border_top[1].hex.upper() == "#E5484D", "drawn so from the start"
        app.theme = "terminal"  # the terminal's 16 colours: its own red
        assert app.get_css_variables()["accent"] == "ansi_red"
        app.theme = "textual-dark"
        assert str(app.main.query_one("StatusBar").render()).startswith("PRODUCTION")
        web = row_named(view, "web-01")
        view.table.move_to(web.id)
        view.focus_table()
        await pilot.press("a")
        await wait_for(pilot, lambda: app.screen.id == "actions-menu", what="actions")
        options = [c[0] for c in app.screen.choices]
        app.screen.query_one("#choices").highlighted = options.index("Reboot")
        await pilot.press("enter")
        asked = await screen_named(pilot, app, "ConfirmScreen")
        assert asked.require_text == "web-01" and "is production" in asked.message
        assert str(asked.query_one("#dialog-title").render()).endswith("· PRODUCTION")  # said on top too
        await pilot.press(*"web-0", "enter")  # not the name: nothing sent
        assert app.screen is asked and not [p for m, p in sandbox.requests if m == "POST"]
        await pilot.press("1", "enter")
        await wait_for(pilot, lambda: [p for m, p in sandbox.requests if m == "POST"], what="sent once typed")
        await wait_for(pilot, lambda: app.journal.entries and app.journal.entries[0].outcome == "done")
        assert (app.journal.entries[0].doing.what, app.journal.entries[0].doing.resource) == ("Reboot", "web-01")

        await pilot.press("e")  # an edit too
        form = await screen_named(pilot, app, "FormScreen")
        await wait_for(pilot, lambda: form.ready, what="the form")
        await typed(pilot, app, name="web-01-renamed")
        await pilot.press("ctrl+s")
        asked = await screen_named(pilot, app, "ConfirmScreen")
        assert asked.require_text == "web-01"
        await pilot.press("escape")  # not sent: the form stays, with what was typed
        await wait_for(pilot, lambda: app.screen is form, what="back to the form")
        assert not [p for m, p in sandbox.requests if m == "PATCH"]


def test_read_only_and_production_are_a_profiles_own(tmp_path):
    from tui.config import Profile, resolve, save_profile

    save_profile(
        Profile(name="prod", project_id="7f6e5d4c-3b2a-4190-8f7e-6d5c4b3a2910", production=True, read_only=True)
    )
    settings = resolve({"profile": "prod"})
    assert settings.production and settings.read_only
    assert not resolve({"profile": "other"}).production


def test_demo_takes_its_profiles_flags_from_the_config():
    from tui import cli
    from tui.config import Profile, save_profile

    save_profile(Profile(name="demo", production=True, journal_file="~/demo-journal.jsonl"))
    kept = cli._kept_ui({"read_only": False}, "demo")
    assert kept["production"] and not kept["read_only"] and kept["journal_file"].endswith("/demo-journal.jsonl")
    assert not cli._kept_ui({"read_only": True}, "demo-staging")["production"]


def test_demo_refuses_a_profile_it_does_not_have_in_one_line(capsys):
    from tui import cli

    assert cli.main(["--demo", "--profile", "nope"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "cloudtui: no profile 'nope' in the demo (it has demo, demo-staging)"


async def test_a_staged_send_on_a_production_profile_asks_for_the_zones_name():
    sandbox = Sandbox()
    app = make_app(sandbox, settings=demo_settings(profile="prod", production=True))
    async with app.run_test(size=(120, 40)) as pilot:
        records = await zone_records(pilot, app, "shop.example.com")
        records.staged.stage_delete(row_named(records, "web1"))
        records.focus_table()
        await pilot.press("w")
        await screen_named(pilot, app, "DiffScreen")
        await pilot.press("tab", "enter")  # Send, after the diff
        asked = await screen_named(pilot, app, "ConfirmScreen")
        assert asked.require_text == "shop.example.com" and "is production" in asked.message
        assert not [m for m, p in sandbox.requests if m != "GET" and "/dns-zones/" in p]
        await pilot.press(*"shop.example.com", "enter")
        await wait_for(pilot, lambda: [m for m, p in sandbox.requests if m == "PATCH"], what="sent once typed")
        await wait_for(pilot, lambda: app.journal.entries and app.journal.entries[0].outcome == "done")
        entry = app.journal.entries[0]
        assert (entry.doing.what, entry.doing.resource) == ("Send 1 staged change", "shop.example.com")


async def test_a_delete_that_asks_its_own_question_takes_the_name_in_that_one_confirmation():
    """A flow that confirms before it sends (a server's delete: its volumes go too) is not preceded by a
    generic confirmation: its own says what goes with the server, that the profile is production, and
    takes the name typed."""
    sandbox = Sandbox()
    app = make_app(sandbox, settings=demo_settings(profile="prod", production=True))
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        stopped = next(r for r in view.table.resources() if r.state == "stopped")
        view.table.move_to(stopped.id)
        view.focus_table()
        await pilot.press("d")
        while (asked := await screen_named(pilot, app, "PickerScreen", "ConfirmScreen")).__class__.__name__ != (
            "ConfirmScreen"
        ):  # block volumes: keep them, or delete all
            await pilot.press("down", "enter")
            await wait_for(pilot, lambda: app.screen is not asked, what="past the question")
        assert asked.require_text == stopped.name and "is production" in asked.message
        assert "deleted" in asked.message and "volumes" in asked.message, "what goes with it is said where it is typed"
        assert f"{stopped.name}-vol-0 l_ssd 150 GB" in asked.message, "each volume named"
        await pilot.press(*stopped.name, "enter")
        sent = lambda: ("DELETE", stopped.id) in [(m, p.rsplit("/", 1)[-1]) for m, p in sandbox.requests]  # noqa: E731
        await wait_for(pilot, sent, what="deleted")
        assert app.screen.__class__.__name__ != "ConfirmScreen", "asked once"


async def test_a_create_and_its_power_on_are_asked_once():
    from helpers import choose

    sandbox = Sandbox()
    app = make_app(sandbox, settings=demo_settings(profile="prod", production=True))
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        await pilot.press("c")
        await wait_for(pilot, lambda: getattr(app.screen, "ready", False), what="form choices")
        await pilot.press(*"web-09", "tab")
        await choose(pilot, "PRO2-XS ")
        await pilot.press("tab")
        await choose(pilot, "Debian")
        await pilot.press("ctrl+s")
        asked = await screen_named(pilot, app, "ConfirmScreen")
        assert "then power on" in asked.message.lower() and asked.require_text == "web-09"
        await pilot.press(*"web-09", "enter")
        await wait_for(pilot, lambda: [p for m, p in sandbox.requests if m == "POST" and p.endswith("/action")])
        assert app.screen.__class__.__name__ != "ConfirmScreen", "the power-on is not asked again"
        assert any(r.name == "web-09" for r in view.table.resources())


def posts(sandbox, tail: str) -> int:
    return sum(1 for m, p in sandbox.requests if m in ("POST", "PUT") and p.endswith(tail))


async def test_a_form_re_sent_after_a_lost_answer_asks_the_name_again_at_the_send():
    """An action's form (Back up) asks the name at its ctrl+s, after the form, not before it; when the
    answer is lost and the form stays open, a second ctrl+s asks again, and nothing is sent unasked.
    Its journal entry names what was done and to which server."""
    from helpers import act, form_ready, text_of

    sandbox = Sandbox()
    app = make_app(sandbox, settings=demo_settings(profile="prod", production=True))
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        batch = row_named(view, "worker-batch-2")
        sandbox.inject(503, f"/servers/{batch.id}/action", method="POST")  # every answer lost
        view.table.move_to(batch.id)
        view.focus_table()
        await act(pilot, app, "Back up")
        form = await form_ready(pilot, app)  # no question before the form
        await pilot.press("ctrl+s")
        asked = await screen_named(pilot, app, "ConfirmScreen")
        assert asked.require_text == "worker-batch-2" and "Back up worker-batch-2" in asked.message
        assert "is production" in asked.message and posts(sandbox, "/action") == 0
        await pilot.press(*"worker-batch-2", "enter")
        status = form.query_one("#form-status")
        await wait_for(pilot, lambda: app.screen is form and "Looked again" in text_of(status), what="the look")
        assert posts(sandbox, "/action") == 1
        entry = app.journal.entries[0]
        assert (entry.doing.what, entry.doing.resource) == ("Back up (image of its volumes)", "worker-batch-2")
        await pilot.press("ctrl+s")  # again, on the same form: asked again
        again = await screen_named(pilot, app, "ConfirmScreen")
        assert again is not asked and again.require_text == "worker-batch-2"
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is form, what="back to the form, kept")
        assert posts(sandbox, "/action") == 1, "nothing sent unasked"


async def test_a_set_editor_asks_the_name_when_it_sends_not_when_it_opens():
    from helpers import rules_edited

    sandbox = Sandbox()
    app = make_app(sandbox, settings=demo_settings(profile="prod", production=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        group, editor = await rules_edited(pilot, app)  # opened with nothing asked (its last rule taken out)
        await pilot.press("ctrl+s")
        asked = await screen_named(pilot, app, "ConfirmScreen")
        assert asked.require_text == group.name and "Rules of web-public: 1 removed, 0 added (2 rules" in asked.message
        assert "Removed:\n  inbound accept TCP 198.51.100.0/24 22" in asked.message, "the rule about to go, named"
        assert not posts(sandbox, "/rules")
        await pilot.press(*group.name, "enter")
        await wait_for(pilot, lambda: posts(sandbox, "/rules") == 1, what="sent once typed")
        await wait_for(pilot, lambda: app.journal.entries and app.journal.entries[0].outcome == "done")
        assert (app.journal.entries[0].doing.what, app.journal.entries[0].doing.resource) == ("Rules", group.name)


async def test_a_data_losing_form_asks_the_name_once_after_the_form_on_production():
    """An OS install (its disks erased) on a production profile: nothing asked before the form; at ctrl+s
    one confirmation says what is lost and that the profile is production, the name typed once."""
    from helpers import act, form_ready

    sandbox = Sandbox()
    app = make_app(sandbox, settings=demo_settings(profile="prod", production=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        metal = await open_view(pilot, app, "baremetal.servers")
        server = row_named(metal, "edge-par")
        metal.table.move_to(server.id)
        await act(pilot, app, "Install")
        form = await form_ready(pilot, app)
        form.query_one("#f-os_id").value = form.form.choices["os_id"][0][1]
        form.query_one("#f-ssh_key_ids").value = "3f2c8a8e-1d4b-4c2e-9b7a-5e6f7a8b9c0d"
        await pilot.press("ctrl+s")
        asked = await screen_named(pilot, app, "ConfirmScreen")
        assert asked.require_text == "edge-par" and "erased" in asked.message and "is production" in asked.message
        await pilot.press(*"edge-par", "enter")
        await wait_for(pilot, lambda: posts(sandbox, "/install") == 1, what="sent once typed")
        assert app.screen is not form and type(app.screen).__name__ != "ConfirmScreen", "asked once"


async def test_list_editors_of_a_server_ask_at_the_send_saying_what_changes():
    """User data and volumes open with nothing asked; ctrl+s with changes asks the name with what is
    sent. A volume map whose answer is lost is read back: not applied, the editor stays with its edits."""
    from helpers import act

    sandbox = Sandbox()
    app = make_app(sandbox, settings=demo_settings(profile="prod", production=True))
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        web = row_named(view, "web-01")
        view.table.move_to(web.id)
        view.focus_table()
        await act(pilot, app, "User data")
        editor = await screen_named(pilot, app, "RecordListScreen")  # nothing asked to open it
        await wait_for(pilot, lambda: editor.records, what="its user data")
        editor.records.append({"key": "motd", "value": "hello"})
        await pilot.press("ctrl+s")
        asked = await screen_named(pilot, app, "ConfirmScreen")
        assert asked.require_text == "web-01" and "User data of web-01: set motd" in asked.message
        await pilot.press(*"web-01", "enter")
        await wait_for(pilot, lambda: sandbox.instance.user_data[web.id].get("motd") == b"hello", what="sent")

        worker = row_named(view, "worker-batch-2")  # stopped: any volume may be attached
        sandbox.inject(503, f"/servers/{worker.id}", method="PATCH")  # every answer lost, nothing applied
        await wait_for(pilot, lambda: app.screen.id == "main", what="back on the list")
        view.table.move_to(worker.id)
        await act(pilot, app, "Volumes")
        editor = await screen_named(pilot, app, "RecordListScreen")
        archive = next(v for v in sandbox.instance.volumes["fr-par-1"].values() if v["name"] == "archive-2025")
        editor.records.append({"id": archive["id"]})
        await pilot.press("ctrl+s")
        asked = await screen_named(pilot, app, "ConfirmScreen")
        assert "Volumes of worker-batch-2: attach archive-2025; then " in asked.message, asked.message
        await pilot.press(*"worker-batch-2", "enter")
        status = editor.query_one("#records-status")
        await wait_for(pilot, lambda: "not applied" in str(status.render()), what="the look, in the editor")
        assert app.screen is editor and {"id": archive["id"]} in editor.records, "the edits stay"
        entry = app.journal.entries[0]
        assert (entry.outcome, entry.applied, entry.retryable) == ("failed", False, True)


async def test_user_data_whose_answer_is_lost_is_read_back_and_the_editor_kept():
    from helpers import act

    sandbox = Sandbox()
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        web = row_named(view, "web-01")
        sandbox.inject(503, "/user_data/motd", method="PATCH")  # the answer lost, nothing applied
        view.table.move_to(web.id)
        view.focus_table()
        await act(pilot, app, "User data")
        editor = await screen_named(pilot, app, "RecordListScreen")
        await wait_for(pilot, lambda: editor.records, what="its user data")
        editor.records.append({"key": "motd", "value": "hello"})
        await pilot.press("ctrl+s")
        status = editor.query_one("#records-status")
        await wait_for(pilot, lambda: "not applied" in str(status.render()), what="read back, said in the editor")
        assert app.screen is editor and {"key": "motd", "value": "hello"} in editor.records
        assert (app.journal.entries[0].outcome, app.journal.entries[0].applied) == ("failed", False)


async def test_nothing_deletable_among_the_marked_is_said():
    from helpers import notified

    sandbox = Sandbox()
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        for name in ("web-01", "web-02"):  # running: not deletable
            view.table.toggle_mark(row_named(view, name).id)
        view.focus_table()
        await pilot.press("d")
        await wait_for(pilot, lambda: notified(app, "none of the 2 marked can be"), what="said")


async def test_cancelling_the_name_at_an_editors_send_keeps_it_open_and_is_no_bug():
    from helpers import rules_edited, text_of

    sandbox = Sandbox()
    app = make_app(sandbox, settings=demo_settings(profile="prod", production=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        _, editor = await rules_edited(pilot, app)
        await pilot.press("ctrl+s")
        await screen_named(pilot, app, "ConfirmScreen")
        await pilot.press("escape")
        status = editor.query_one("#records-status")
        await wait_for(pilot, lambda: "Not confirmed" in text_of(status), what="said in the editor")
        assert "bug" not in text_of(status) and app.screen is editor and not posts(sandbox, "/rules")
