"""The activity journal's entries: the curl line (quoted, the key from the environment, secrets in the
body masked), what a look after a lost answer adds, and the file (JSON lines, rotated)."""

from __future__ import annotations

import json
import shlex

from tui.api.journal import Journal


def test_the_curl_line_is_quoted_reads_the_key_from_the_environment_and_masks_secrets():
    journal = Journal(lambda: "prod")
    body = {"name": "it's; rm -rf /", "password": "Hunter2-secret", "user": {"password": "x"}, "n": 3}
    with journal.act("Create", "Databases", "orders") as act:
        entry = journal.sent(
            "POST", "https://api.example.com/rdb/v1/regions/fr-par/instances?a=1&b=2", body, "X-Auth-Token", act=act
        )
    journal.answered(entry, 200)
    curl = entry.curl()
    words = shlex.split(curl)  # a shell reads it back as the same words
    assert words[:4] == ["curl", "-X", "POST", "https://api.example.com/rdb/v1/regions/fr-par/instances?a=1&b=2"]
    assert words[5] == "X-Auth-Token: $CLOUDTUI_SECRET_KEY" and '"X-Auth-Token: $CLOUDTUI_SECRET_KEY"' in curl
    sent = json.loads(words[-1])
    assert sent["name"] == "it's; rm -rf /" and sent["password"] == "•••" and sent["user"]["password"] == "•••"
    assert "Hunter2" not in curl and "Hunter2" not in entry.as_line()
    assert (entry.outcome, entry.status, entry.doing.resource, entry.profile) == ("done", 200, "orders", "prod")
    bearer = journal.sent("POST", "https://api.example.com/v1/x", None, "Authorization").curl()
    assert '"Authorization: Bearer $CLOUDTUI_SECRET_KEY"' in bearer and "--data-raw" not in bearer


def test_a_lost_answer_is_may_have_been_applied_until_the_look_says():
    from tui.api.errors import OutcomeUnknown, Conflict

    journal = Journal(lambda: "demo")
    act = journal.act("Power off", "Instance", "web-01")
    entry = journal.sent("POST", "https://a.example/x/action", {"action": "poweroff"}, "X-Auth-Token", act=act)
    journal.failed(entry, OutcomeUnknown(503, "no answer"), unknown=True)
    assert entry.outcome == "maybe" and not entry.retryable
    act.looked("it is still running: it was not applied, and may be asked again", False)
    assert entry.outcome == "failed" and entry.retryable and "not applied" in entry.looked
    busy = journal.sent("DELETE", "https://a.example/x", None, "X-Auth-Token")
    journal.failed(busy, Conflict(409, "resource is in a transient state"), unknown=False)
    assert busy.outcome == "failed" and busy.retryable and list(journal.entries)[0] is busy  # newest first


def test_the_file_holds_a_json_line_per_entry_and_rotates(tmp_path):
    path = tmp_path / "journal.jsonl"
    journal = Journal(lambda: "demo")
    journal.write_to(str(path), max_bytes=600, keep=2)
    for i in range(6):
        journal.answered(journal.sent("DELETE", f"https://a.example/x/{i}", None, "X-Auth-Token"), 204)
    journal.close()  # what is queued is written
    lines = [json.loads(x) for f in sorted(tmp_path.iterdir()) for x in f.read_text().splitlines()]
    assert {x["url"] for x in lines} <= {f"https://a.example/x/{i}" for i in range(6)} and len(lines) >= 3
    assert (tmp_path / "journal.jsonl.1").exists() and all(x["outcome"] == "done" for x in lines)


def test_a_staged_batch_and_a_retry_are_never_offered_again_and_a_retry_is_offered_once():
    from tui.api.errors import Conflict

    journal = Journal(lambda: "demo")
    with journal.act("Send 2 staged changes", "DNS", "example.com", retry=False) as act:
        batch = journal.sent("PATCH", "https://a.example/zones/z/records", {"changes": []}, "X-Auth-Token", act=act)
    journal.failed(batch, Conflict(409, "busy"), unknown=False)
    assert batch.outcome == "failed" and not batch.retryable  # its changes stay staged: w sends them again
    busy = journal.sent("DELETE", "https://a.example/x", None, "X-Auth-Token")
    journal.failed(busy, Conflict(409, "busy"), unknown=False)
    assert busy.retryable
    journal.retried(busy)
    assert not busy.retryable and busy.retried_at
    with journal.act("Retry: Delete") as act:
        again = journal.sent("DELETE", "https://a.example/x", None, "X-Auth-Token", act=act)
    journal.failed(again, Conflict(409, "busy"), unknown=False)
    assert not again.retryable


def test_an_entry_says_a_lost_answer_and_why_a_staged_batch_is_not_retried_here():
    from tui.api.errors import Conflict, ServerError
    from tui.ui.screens.journal import line, whole

    journal = Journal(lambda: "demo")
    with journal.act("Send 2 staged changes", "DNS", "example.com", retry=False) as act:
        batch = journal.sent("PATCH", "https://a.example/zones/z/records", {"changes": []}, "X-Auth-Token", act=act)
    journal.failed(batch, Conflict(409, "busy"), unknown=False)
    assert "w sends it again" in whole(batch)
    with journal.act("Reboot", "Instance", "bastion") as act:
        lost = journal.sent("POST", "https://a.example/servers/s/action", {"action": "reboot"}, "X-Auth-Token", act=act)
        journal.failed(lost, ServerError(500, "upstream reset"), unknown=True)
        act.looked("it is now stopping: it was applied", True)
    assert lost.outcome == "done" and "Reboot · bastion (lost: applied)" in line(lost).plain


def test_a_create_that_named_nothing_is_journalled_by_what_it_made():

    journal = Journal(lambda: "demo")
    with journal.act("Create", "Instance", "flexible IP") as act:
        entry = journal.sent("POST", "https://a.example/ips", {"project": "p"}, "X-Auth-Token", act=act)
        journal.answered(entry, 201)
        act.made("51.15.1.2")
    assert (entry.doing.what, entry.doing.resource, entry.doing.retry) == ("Create", "51.15.1.2", True)


def test_at_80_columns_a_line_keeps_the_request_in_sight():
    from tui.api.errors import OutcomeUnknown
    from tui.ui.screens.journal import line

    journal = Journal(lambda: "demo")
    with journal.act("Power off", "Instance", "web-01") as act:
        entry = journal.sent(
            "POST", "https://a.example/instance/v1/zones/fr-par-1/servers/s/action", {}, "X-Auth-Token", act=act
        )
    journal.answered(entry, 202)
    narrow = line(entry, 80).plain
    assert "Power off · web-01" in narrow and "POST /zones/fr-par-1/" in narrow[:76]  # in an 80-column list
    with journal.act("Retry: Delete", "Instance", "worker-batch-2") as act:
        lost = journal.sent("DELETE", "https://a.example/instance/v1/zones/fr-par-1/servers/s", None, "X", act=act)
        journal.failed(lost, OutcomeUnknown(503, "reset"), unknown=True)
        act.looked("it is still there: the delete was not applied", False)
    assert "Delete again · worker-batch-2 (lost: not done)" in line(lost, 80).plain[:76]  # walk 23: `Retry: · wor…`
    assert "Instance" not in narrow and "Instance" in line(entry, 120).plain


def test_a_write_sent_outside_any_act_is_named_from_its_request():
    journal = Journal(lambda: "demo")
    entry = journal.sent("PATCH", "https://a.example/instance/v1/zones/z/servers/s1/user_data/cloud-init", None, "X")
    assert (entry.doing.what, entry.doing.resource) == ("Change", "user_data/cloud-init")
    assert json.loads(entry.as_line())["what"] == "Change"


def test_an_accepted_asynchronous_write_is_said_accepted_not_done():
    from tui.ui.screens.journal import whole

    journal = Journal(lambda: "demo")
    with journal.act("Power off", "Instance", "web-01") as act:
        entry = journal.sent(
            "POST", "https://a.example/instance/v1/zones/z/servers/s/action", {}, "X-Auth-Token", act=act
        )
    journal.answered(entry, 202)
    assert ": accepted (it is done in the background" in whole(entry) and "done (202)" not in whole(entry)


def test_a_line_keeps_which_resource_and_what_the_look_found_and_cuts_the_acts_words_first():
    from tui.api.errors import OutcomeUnknown
    from tui.ui.screens.journal import line

    journal = Journal(lambda: "demo")
    with journal.act("Back up (image of its volumes)", "Instance", "worker-batch-2") as act:
        entry = journal.sent(
            "POST", "https://a.example/instance/v1/zones/z/servers/s/action", {}, "X-Auth-Token", act=act
        )
    journal.failed(entry, OutcomeUnknown(503, "no answer"), unknown=True)
    act.looked("it is still stopped, which does not tell", None)
    assert "Back up · worker-batch-2 (lost answer)" in line(entry, 120).plain
    narrow = line(entry, 80).plain  # the act and which server, both in sight (walks 22, 23)
    assert "Back up · worker-batch-2 (lost)" in narrow and narrow.count("…") <= 1, narrow
    with journal.act("Power off", "Instance", "worker-batch-1") as act:
        other = journal.sent(
            "POST", "https://a.example/instance/v1/zones/z/servers/t/action", {}, "X-Auth-Token", act=act
        )
    journal.failed(other, OutcomeUnknown(503, "no answer"), unknown=True)
    act.looked("it is still running: it was not applied", False)
    assert "Power off · worker-batch-1 (lost: not applied)" in line(other, 120).plain, "whole at 120 columns"


def test_the_file_has_one_line_per_entry_and_an_update_line_for_what_a_look_found(tmp_path):
    from tui.api.errors import OutcomeUnknown

    path = tmp_path / "journal.jsonl"
    journal = Journal(lambda: "demo")
    journal.write_to(str(path))
    with journal.act("Power on", "Instance", "web-01") as act:
        journal.answered(journal.sent("POST", "https://a.example/x/1/action", {}, "X-Auth-Token", act=act), 202)
    with journal.act("Power off", "Instance", "web-02") as act:
        lost = journal.sent("POST", "https://a.example/x/2/action", {}, "X-Auth-Token", act=act)
        journal.failed(lost, OutcomeUnknown(503, "no answer"), unknown=True)
        act.looked("it is still running: it was not applied", False)
    journal.close()
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert [(x["resource"], x.get("update", False)) for x in lines] == [
        ("web-01", False),
        ("web-02", False),
        ("web-02", True),
    ]
    assert lines[2]["outcome"] == "failed" and "not applied" in lines[2]["looked"]


def test_a_write_applied_later_to_the_same_resource_supersedes_an_older_one_offered_again():
    """Walk 22: an edit refused (or found not applied), then the same edit applied, then another edit: a
    retry of the first would undo the last — it is not offered once a later write to that URL took."""
    from tui.api.errors import Conflict

    journal = Journal(lambda: "demo")
    url = "https://a.example/instance/v1/zones/z/servers/s1"
    first = journal.sent("PATCH", url, {"tags": ["web", "f5"]}, "X-Auth-Token")
    journal.failed(first, Conflict(409, "busy"), unknown=False)
    other = journal.sent("PATCH", "https://a.example/instance/v1/zones/z/servers/s2", {"tags": []}, "X-Auth-Token")
    journal.failed(other, Conflict(409, "busy"), unknown=False)
    assert first.retryable and not first.superseded_at
    later = journal.sent("PATCH", url, {"tags": ["web"]}, "X-Auth-Token")
    journal.answered(later, 200)
    assert first.superseded_at == later.at and not other.superseded_at, "only the same resource's"
