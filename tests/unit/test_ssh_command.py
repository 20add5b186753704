"""Reach the machine: a server's SSH command from its public address, checked and quoted, to copy or run."""

from __future__ import annotations

import pytest

from scripted_ui import ScriptedUI
from tui.products.kit.commands import CommandRefused
from tui.products.instance.servers import SERVERS
from tui.products.kit.ssh_command import ssh_argv

pytestmark = pytest.mark.anyio


async def test_a_servers_ssh_command_is_shown_to_copy_and_run_in_the_terminal_when_asked(sandbox):
    ui = ScriptedUI(sandbox, SERVERS, "fr-par-1")
    await ui.act("web-01", "SSH to it")
    assert ui.asked[-1][2]["text"] == "ssh 163.172.10.11" and ui.ran == []  # shown; run only when asked
    ui.dialog_answer = True
    await ui.act("web-01", "SSH to it")
    assert ui.ran == [["ssh", "163.172.10.11"]]
    rows = {r.name: r for r in await ui.service().list_rows("fr-par-1")}
    spec = next(a for a in SERVERS.actions if a.name == "ssh")
    assert spec.why_not(rows["worker-batch-2"]) == "it has no public address"
    await ui.client.aclose()


def test_a_value_that_is_no_address_or_user_never_reaches_the_command():
    assert ssh_argv("2001:db8::1", "ubuntu") == ["ssh", "-l", "ubuntu", "2001:db8::1"]
    for address, user in (("1.2.3.4; rm -rf /", ""), ("1.2.3.4", "-oProxyCommand=x"), ("-p22", "")):
        with pytest.raises(CommandRefused):
            ssh_argv(address, user)
    assert ssh_argv("fe80::1%eth0.1_a-b") == ["ssh", "fe80::1%eth0.1_a-b"]  # a scope id: an interface's name
    for scoped in ("2001:4860::1%$(touch x)", "fe80::1%a b", "fe80::1%`id`", "fe80::1%;id"):
        with pytest.raises(CommandRefused, match="scope id"):
            ssh_argv(scoped)


def test_ssh_greyed_says_an_address_is_invalid_not_absent(monkeypatch):
    import tui.products.kit.ssh_command as reach

    held = {"a": ["not-an-ip;id"], "b": [], "c": ["10.0.0.1"]}
    monkeypatch.setattr(reach, "addresses", lambda kind, row: held[row])
    assert reach.no_address(None, "a") == "its address 'not-an-ip;id' is not a valid IP address"
    assert reach.no_address(None, "b") == "it has no public address"
    assert reach.no_address(None, "c") == "it has no public address"  # a private one reaches nothing from here
