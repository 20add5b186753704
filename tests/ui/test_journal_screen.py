"""The activity journal on J: what was sent this session, newest first, with its outcome; a failed
call copied as curl without the key; a safe retry from there."""

from __future__ import annotations

import pytest

from helpers import (
    confirm_yes,
    form_ready,
    loaded,
    make_app,
    notified,
    open_view,
    row_named,
    screen_named,
    typed,
    wait_for,
)
from tui.sandbox import DEMO_SECRET_KEY, Sandbox

pytestmark = pytest.mark.anyio


async def retry_from_journal(pilot, app, older: int = 0) -> None:
    """`J`, the entry `older` lines down (0: the newest), `enter`, then Retry (Cancel has the focus)."""
    await pilot.press("J")
    journal = await screen_named(pilot, app, "JournalScreen")
    await wait_for(pilot, lambda: len(journal.shown) > older, what="listed")
    await pilot.press(*["j"] * older, "enter")
    await screen_named(pilot, app, "ResultScreen")
    await pilot.press("tab", "enter")


async def test_changes_are_journalled_newest_first_copied_as_curl_and_a_busy_one_retried():
    sandbox = Sandbox()
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        web = row_named(view, "web-01")
        view._do_action(web, next(a for a in view.kind.actions if a.name == "poweroff"))
        await wait_for(pilot, lambda: app.journal.entries and app.journal.entries[0].outcome == "done", what="sent")
        stopped = row_named(view, "worker-batch-2")
        sandbox.inject(409, f"/servers/{stopped.id}", method="DELETE", times=1)  # busy: refused, nothing done
        view.writes.delete(stopped)
        await confirm_yes(pilot, app)
        await wait_for(pilot, lambda: len(app.journal.entries) == 2 and app.journal.entries[0].outcome == "failed")
        view.focus_table()
        await pilot.press("J")
        journal = await screen_named(pilot, app, "JournalScreen")
        await wait_for(pilot, lambda: len(journal.shown) == 2, what="listed")
        lines = [str(p) for p in (journal.query_one("#journal-lines").get_option_at_index(i).prompt for i in (0, 1))]
        assert "✗ 409" in lines[0] and "Delete · worker-batch-2" in lines[0]
        assert "DELETE /instance/v1/zones/fr-par-1/servers/" in lines[0]
        assert "✓ 202" in lines[1] and " ms  Power off · web-01" in lines[1] and "Instance" in lines[1]
        await pilot.press("y")
        assert "$CLOUDTUI_SECRET_KEY" in app.clipboard and DEMO_SECRET_KEY not in app.clipboard
        assert app.clipboard.startswith("curl -X DELETE http://sandbox/instance/v1/zones/fr-par-1/servers/")
        await pilot.press("enter")
        dialog = await screen_named(pilot, app, "ResultScreen")
        assert "409" in dialog.text and DEMO_SECRET_KEY not in dialog.text
        await pilot.press("tab", "enter")  # Retry (Cancel had the focus)
        await wait_for(pilot, lambda: len(app.journal.entries) == 3, what="the retry journalled")
        await wait_for(pilot, lambda: app.journal.entries[0].outcome == "done", what="the retry answered")
        assert app.journal.entries[0].doing.what == "Retry: Delete"
        assert stopped.id not in sandbox.instance.servers["fr-par-1"]
        # its list reads it again, as after a first send: gone, without a refresh (walk: it stayed until r)
        await wait_for(pilot, lambda: view.table.get(stopped.id) is None, what="the row gone from its list")
        assert any(n.message == "Retry: Delete · worker-batch-2 — done; its list reads it again." for n in app.notes)
        await wait_for(pilot, lambda: len(journal.shown) == 3, what="the journal follows")
        await wait_for(pilot, lambda: app.screen is journal, what="back in the journal")
        await pilot.press("g", "j")  # as in every list: the second line, the one retried
        await pilot.press("enter")
        again = await screen_named(pilot, app, "ResultScreen")
        assert again.confirm_label is None and "Retried at" in again.text  # offered once
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is journal, what="back in the journal")
        await pilot.press("j", "enter")  # the power-off: accepted (202), as its body and its line say, not done
        power = await screen_named(pilot, app, "ResultScreen")
        assert power.title_text == "POST · ✓ accepted" and "accepted" in power.text


async def test_a_retry_whose_answer_is_lost_looks_as_the_first_send_does():
    sandbox = Sandbox()
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        stopped = row_named(view, "worker-batch-2")
        sandbox.inject(409, f"/servers/{stopped.id}", method="DELETE", times=1)  # busy: refused
        view.writes.delete(stopped)
        await confirm_yes(pilot, app)
        await wait_for(pilot, lambda: app.journal.entries and app.journal.entries[0].retryable, what="refused")
        sandbox.inject(503, f"/servers/{stopped.id}", method="DELETE", times=1)  # the retry's answer lost
        view.focus_table()
        await retry_from_journal(pilot, app)
        await wait_for(pilot, lambda: len(app.journal.entries) == 2 and app.journal.entries[0].looked, what="looked")
        retry = app.journal.entries[0]
        assert retry.outcome == "failed" and "still there" in retry.looked  # the look says it was not applied
        assert stopped.id in sandbox.instance.servers["fr-par-1"]


async def test_a_delete_kept_only_as_its_request_is_read_before_a_retry_and_looked_at_after_a_lost_answer():
    """Walk 23 F11: a server deleted as a row of an act on many is journalled as its request only; its
    retry's lost answer was "nothing can tell". What its URL names is read first (gone already: not sent)
    and again after a lost answer."""
    from tui.api.journal import Act, Doing

    sandbox = Sandbox()
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        stopped = row_named(view, "worker-batch-2")
        url = f"{app.client.api_url}/instance/v1/zones/fr-par-1/servers/{stopped.id}"
        sandbox.inject(409, f"/servers/{stopped.id}", method="DELETE", times=1)  # busy: refused, offered again
        with Act(app.journal, Doing("Delete", "Instance", stopped.name, True, None, None)) as act:
            try:
                await app.client.request_data("DELETE", url, act=act)
            except Exception:
                pass
        sandbox.inject(503, f"/servers/{stopped.id}", method="DELETE", times=1)  # the retry's answer lost
        view.focus_table()
        await retry_from_journal(pilot, app)
        await wait_for(pilot, lambda: len(app.journal.entries) == 2 and app.journal.entries[0].looked, what="looked")
        assert "still there" in app.journal.entries[0].looked and stopped.id in sandbox.instance.servers["fr-par-1"]


async def test_a_retried_create_whose_answer_is_lost_looks_for_what_is_new_since_just_before_it():
    sandbox = Sandbox()
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await open_view(pilot, app, "instance.security_groups")
        sandbox.inject(409, "/security_groups", method="POST", times=1)  # refused: nothing created
        await pilot.press("c")
        form = await form_ready(pilot, app)
        form.query_one("#f-name").value = "temp"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.journal.entries and app.journal.entries[0].retryable, what="refused")
        app.pop_screen()  # the form, kept with what was typed, left
        await wait_for(pilot, lambda: app.screen.id == "main", what="back")
        sandbox.inject(503, "/security_groups", method="POST", times=1)  # the retry's answer lost
        await retry_from_journal(pilot, app)
        await wait_for(pilot, lambda: len(app.journal.entries) == 2 and app.journal.entries[0].looked, what="looked")
        assert "it was not created" in app.journal.entries[0].looked


async def test_a_create_is_not_retried_when_one_of_its_name_is_there_now():
    sandbox = Sandbox()
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        groups = await open_view(pilot, app, "instance.security_groups")
        sandbox.inject(503, "/security_groups", method="POST", times=1)  # lost: the look finds it not created
        await pilot.press("c")
        form = await form_ready(pilot, app)
        form.query_one("#f-name").value = "temp"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.journal.entries and app.journal.entries[0].retryable, what="not created")
        await pilot.press("ctrl+s")  # sent again from the form: made this time
        await wait_for(pilot, lambda: any(r.name == "temp" for r in groups.table.resources()), what="created")
        await wait_for(pilot, lambda: app.screen.id == "main", what="back")
        posts = len([m for m, p in sandbox.requests if m == "POST"])
        await retry_from_journal(pilot, app, older=1)  # the first, lost one: still offered
        await wait_for(pilot, lambda: notified(app, "is there now: not created again"), what="refused")
        assert len([m for m, p in sandbox.requests if m == "POST"]) == posts, "nothing sent"


async def test_an_action_done_since_another_way_is_not_retried():
    from tui.sandbox import ManualClock

    clock = ManualClock()
    sandbox = Sandbox(clock=clock)
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        web = row_named(view, "web-01")
        power_off = next(a for a in view.kind.actions if a.name == "poweroff")
        sandbox.inject(409, f"/servers/{web.id}/action", method="POST", times=1)  # busy: refused
        view._do_action(web, power_off)
        await wait_for(pilot, lambda: app.journal.entries and app.journal.entries[0].retryable, what="refused")
        view._do_action(web, power_off)  # then done from the list
        await wait_for(pilot, lambda: app.journal.entries[0].outcome == "done", what="powered off")
        clock.advance(60)
        posts = len([m for m, p in sandbox.requests if m == "POST"])
        view.focus_table()
        await retry_from_journal(pilot, app, older=1)  # the refused one
        await wait_for(pilot, lambda: notified(app, "is stopped now; not sent again"), what="refused")
        assert len([m for m, p in sandbox.requests if m == "POST"]) == posts, "nothing sent"


async def test_a_retry_is_offered_only_under_the_profile_that_sent_it():
    """Two profiles may share one API (other projects, other keys): an entry sent under one is not
    retried under the other; its dialog says which profile to switch to, and nothing is sent."""
    from helpers import demo_settings

    sandbox = Sandbox()
    app = make_app(sandbox, settings=demo_settings(profile="prod"))
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        stopped = row_named(view, "worker-batch-2")
        sandbox.inject(409, f"/servers/{stopped.id}", method="DELETE", times=1)  # busy: refused, retryable
        view.writes.delete(stopped)
        await confirm_yes(pilot, app)
        await wait_for(pilot, lambda: app.journal.entries and app.journal.entries[0].retryable, what="refused")
        app.settings.profile = "stage"  # the same API URL, another profile in use
        view.focus_table()
        await pilot.press("J")
        await screen_named(pilot, app, "JournalScreen")
        await pilot.press("enter")
        dialog = await screen_named(pilot, app, "ResultScreen")
        assert dialog.confirm_label is None, "no Retry under another profile"
        assert "sent under profile prod" in dialog.text and "switch to prod" in dialog.text


async def test_a_text_body_is_retried_as_sent_and_shown_by_its_length_and_digest():
    """User data goes as text, not JSON: the journal keeps its bytes (in memory) so a retry sends the
    same value, not an empty body; the entry and its curl line never show the text."""
    import hashlib
    import shlex

    sandbox = Sandbox()
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        web = row_named(view, "web-01")
        body = b"#cloud-config\nruncmd: [echo secret-ish]\n"
        sandbox.inject(409, "/user_data/cloud-init", method="PATCH", times=1)  # busy: refused, retryable

        async def send() -> None:
            with app.journal.act("User data", "Instance", "web-01") as act:
                await app.client.request_data(
                    "PATCH",
                    f"/instance/v1/zones/fr-par-1/servers/{web.id}/user_data/cloud-init",
                    content=body,
                    content_type="text/plain",
                    act=act,
                )

        app.run_worker(send(), exit_on_error=False)
        await wait_for(pilot, lambda: app.journal.entries and app.journal.entries[0].retryable, what="refused")
        view.focus_table()
        await pilot.press("J")
        await screen_named(pilot, app, "JournalScreen")
        await pilot.press("enter")
        dialog = await screen_named(pilot, app, "ResultScreen")
        digest = hashlib.sha256(body).hexdigest()
        assert f"{len(body)} bytes, sha256 {digest}" in dialog.text and b"secret-ish" not in dialog.text.encode()
        curl = shlex.split(app.journal.entries[0].curl())
        assert curl[-2:] == ["--data-binary", f"@cloudtui-body-{digest[:12]}.txt"]
        await pilot.press("tab", "enter")  # Retry
        await wait_for(pilot, lambda: app.journal.entries[0].outcome == "done", what="the retry answered")
        assert sandbox.instance.user_data[web.id]["cloud-init"] == body, "the same bytes, not an empty body"
        assert "secret-ish" not in app.journal.entries[0].as_line()


async def test_a_set_whose_answer_is_lost_and_found_not_applied_is_journalled_so_and_offered_again():
    from helpers import rules_edited

    sandbox = Sandbox()
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        sandbox.inject(503, "/rules", method="PUT", times=1)  # the answer lost, nothing applied
        await rules_edited(pilot, app)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.journal.entries and app.journal.entries[0].looked, what="looked")
        entry = app.journal.entries[0]
        assert (entry.outcome, entry.applied, entry.retryable) == ("failed", False, True)
        assert "not applied" in entry.looked and entry.doing.resource == "web-public"


async def test_a_retry_says_what_it_sends_and_one_superseded_by_a_later_change_is_not_offered():
    """Walk 22: an edit refused, then another edit of the same server applied: retried, the first would
    undo the second — it is not offered, and says why; a retry's question shows the request it sends."""
    sandbox = Sandbox()
    app = make_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        web = row_named(view, "web-01")
        sandbox.inject(409, f"/servers/{web.id}", method="PATCH", times=1)  # busy: refused, retryable
        for tags in (["web", "f5"], ["web"]):
            view.writes.open_edit(web)
            await form_ready(pilot, app)
            await typed(pilot, app, tags=", ".join(tags))
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: app.journal.entries and app.journal.entries[0].outcome != "sending")
            if tags == ["web", "f5"]:
                assert app.journal.entries[0].retryable
                await pilot.press("escape", "tab", "enter")  # drop the form kept open (its Drop)
        await wait_for(pilot, lambda: app.screen.id == "main", what="back on the list")
        view.focus_table()
        await pilot.press("J")
        journal = await screen_named(pilot, app, "JournalScreen")
        await wait_for(pilot, lambda: len(journal.shown) == 2, what="both edits")
        await pilot.press("down", "enter")  # the refused one
        dialog = await screen_named(pilot, app, "ResultScreen")
        assert dialog.confirm_label is None and "a later change to the same resource was applied" in dialog.text
