"""Key-value cache conversations (tests/scripted_ui.py): the whole-set editors of a cluster, against the
sandbox over ASGI. The record editor's keys are driven in tests/ui (the databases' ACL set)."""

from __future__ import annotations

import pytest

from scripted_ui import ScriptedUI, records
from tui.products.kvcache.clusters import CLUSTERS
from tui.sandbox import ManualClock, Sandbox

pytestmark = pytest.mark.anyio


def cluster(sandbox, name):
    return next(c for c in sandbox.kvcache.clusters["fr-par-1"].values() if c["name"] == name)


def writes(sandbox):
    return [(m, p) for m, p in sandbox.requests if m != "GET" and p.startswith("/kvcache/")]


async def test_acl_rules_get_one_more_and_the_whole_set_is_put_once():
    sandbox = Sandbox(clock=ManualClock())
    sessions = cluster(sandbox, "sessions")
    ui = ScriptedUI(sandbox, CLUSTERS, "fr-par-1")
    await ui.act("sessions", "ACL rules", records(lambda rules: [*rules, {"ip_cidr": "192.168.7.0/24"}]))
    assert [r["ip_cidr"] for r in ui.asked[0][2]] == ["10.0.0.0/8"]  # the set as it was, to edit
    assert [a["ip_cidr"] for a in sessions["acl_rules"]] == ["10.0.0.0/8", "192.168.7.0/24"]
    assert [m for m, p in writes(sandbox) if p.endswith("/acls")] == ["PUT"]
    await ui.aclose()


async def test_a_setting_chosen_among_the_versions_own_is_sent_with_the_set():
    sandbox = Sandbox(clock=ManualClock())
    sessions = cluster(sandbox, "sessions")
    ui = ScriptedUI(sandbox, CLUSTERS, "fr-par-1")
    added = {"name": "tcp-keepalive", "value": "60"}
    await ui.act("sessions", "Settings", records(lambda settings: [*settings, added]))
    assert {"name": "tcp-keepalive", "value": "60"} in sessions["cluster_settings"]
    with pytest.raises(AssertionError, match="not among its choices"):  # only the version's own settings
        await ui.act("sessions", "Settings", records(lambda settings: [*settings, {"name": "no-such", "value": "1"}]))
    await ui.aclose()
