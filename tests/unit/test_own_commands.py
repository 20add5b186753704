"""Commands of the operator's own (`[[commands]]`, issue 51 item 3): an argv made from a row's declared
fields, each value one argument checked against its field's role, never through a shell; a value that
could be read as an option refused, and nothing run."""

from __future__ import annotations

import pytest

from tui.products.instance.servers import SERVERS
from tui.products.kit.commands import CommandRefused
from tui.products.kit.own_commands import argv_for, parse, unknown_keys

SERVER = {"id": "11111111-2222-3333-4444-555555555555", "name": "web-01", "zone": "fr-par-1", "tags": ["web", "prod"]}


def one(**entry):
    made, problems = parse([{"title": "Try", "key": "S", "kinds": ["instance.servers"], **entry}])
    assert not problems, problems
    return made[0]


def server(**data):
    return SERVERS.make_row({**SERVER, **data})


def test_a_name_beginning_with_a_dash_is_refused_and_a_shell_line_is_one_argument():
    ssh = one(argv=["ssh", "{name}"])
    with pytest.raises(CommandRefused, match="would be read as an option"):
        argv_for(ssh, SERVERS, server(name="-oProxyCommand=touch /tmp/x"))
    assert argv_for(ssh, SERVERS, server(name="x; rm -rf ~")) == ["ssh", "x; rm -rf ~"]  # one argument, no shell


def test_a_value_within_a_larger_argument_or_after_dashes_is_not_an_option():
    assert argv_for(one(argv=["ssh", "root@{name}"]), SERVERS, server(name="-x")) == ["ssh", "root@-x"]
    assert argv_for(one(argv=["grep", "--", "{name}"]), SERVERS, server(name="-x")) == ["grep", "--", "-x"]


def test_each_value_is_checked_against_its_fields_role():
    mtr = one(argv=["mtr", "{ip}"])
    assert argv_for(mtr, SERVERS, server(public_ips=[{"address": "51.15.40.70"}])) == ["mtr", "51.15.40.70"]
    with pytest.raises(CommandRefused, match="is not an address"):
        argv_for(mtr, SERVERS, server(public_ips=[{"address": "1.2.3.4;id"}]))
    with pytest.raises(CommandRefused, match="has no public ip"):
        argv_for(mtr, SERVERS, server())
    with pytest.raises(CommandRefused, match="control or invisible"):
        argv_for(one(argv=["echo", "{name}"]), SERVERS, server(name="web\x1b[2J"))


def test_several_values_give_one_argument_each_or_the_first():
    assert argv_for(one(argv=["tag", "{tags...}"]), SERVERS, server()) == ["tag", "web", "prod"]
    assert argv_for(one(argv=["tag", "{tags}"]), SERVERS, server()) == ["tag", "web"]


def test_a_command_declared_wrong_is_left_out_and_said():
    made, problems = parse(
        [
            {"title": "Shell", "key": "x", "kinds": ["instance.servers"], "argv": "ssh {name}"},
            {"title": "Program", "key": "x", "kinds": ["instance.servers"], "argv": ["{name}"]},
            {"title": "Many", "key": "x", "kinds": ["instance.servers"], "argv": ["a", "b{tags...}"]},
            {"title": "Odd", "key": "x", "kinds": ["instance.servers"], "argv": ["a"], "run": "now"},
            {"title": "Fine", "key": "x", "kinds": ["instance.servers"], "argv": ["mtr", "{ip}"], "changes": False},
        ]
    )
    assert [c.title for c in made] == ["Fine"] and not made[0].changes and len(problems) == 4
    assert "a shell line is not taken" in problems[0] and "the program" in problems[1]
    assert "a whole argument" in problems[2] and "no setting run" in problems[3]
    assert unknown_keys(one(argv=["a", "{nothing}", "{ip}"]), SERVERS) == ["nothing"]


def test_commands_are_read_from_the_config_and_those_left_out_said(tmp_path, monkeypatch):
    from tui.config import ConfigFile, resolve

    path = tmp_path / "commands.toml"
    path.write_text(
        '[[commands]]\ntitle = "Trace"\nkey = "T"\nkinds = ["instance.servers"]\nargv = ["mtr", "{ip}"]\n'
        'changes = false\noutput = "screen"\n\n'
        '[[commands]]\ntitle = "Broken"\nkey = "B"\nkinds = ["instance.servers"]\nargv = "ssh {name}"\n'
    )
    settings = resolve({}, env={}, cfg=ConfigFile.load(path))
    assert [(c.title, c.argv, c.changes, c.output) for c in settings.commands] == [
        ("Trace", ("mtr", "{ip}"), False, "screen")
    ]
    assert len(settings.command_problems) == 1 and "Broken" in settings.command_problems[0]


def test_the_menu_offers_a_command_as_it_will_run_and_leaves_out_one_naming_what_the_list_lacks():
    from tui.products.kit.own_commands import actions_for

    echo, taken, lost = one(argv=["echo", "{name}"]), one(argv=["echo", "{name}"], key="d"), one(argv=["x", "{nope}"])
    offered = actions_for((echo,), SERVERS) + actions_for((taken,), SERVERS, taken=frozenset({"d"}))
    assert [a.label for a in offered] == ["Try (S)", "Try"]  # a key the list binds is not named as its key
    assert offered[0].shows(server(name="x; rm -rf ~")) == "Runs: echo 'x; rm -rf ~'"  # as a production ask shows it
    assert offered[0].shows(server(name="-x")).startswith("Refused: ")
    assert actions_for((lost,), SERVERS) == ()
