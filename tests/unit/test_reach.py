"""Reach the machine: a server's SSH command from its public address, checked and quoted, to copy or run."""

from __future__ import annotations

import pytest

from scripted_ui import ScriptedUI
from tui.products.commands import CommandRefused
from tui.products.instance.servers import SERVERS
from tui.products.reach import ssh_argv

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


async def test_a_user_the_api_sends_that_no_shell_should_read_gives_no_command(sandbox):
    from tui.products.reach import ssh_action

    ui = ScriptedUI(sandbox, SERVERS, "fr-par-1")
    row = next(r for r in await ui.service().list_rows("fr-par-1") if r.name == "web-01")
    spec = ssh_action(lambda: SERVERS, lambda r: "-oProxyCommand=touch /tmp/x")
    await spec.runner()(ui, row)
    assert ui.asked == [] and ui.ran == [] and "No SSH command for web-01" in ui.notes[-1]
    await ui.client.aclose()
