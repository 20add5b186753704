"""Columns of the operator's own (issue 51, item 4), below the console: `[columns]` read leniently and
written back round-trip, a profile's own entry over the one for all, a list's candidates (its columns, then
its other declared fields, none twice), and rows that keep what the chosen columns read."""

from __future__ import annotations

import pytest

from tui.config import ConfigFile, resolve, save_columns
from tui.products.instance.servers import SERVERS
from tui.products.kit import own_columns
from tui.products.kit.own_columns import Chosen, candidates, columns, parse, unknown


@pytest.fixture(autouse=True)
def none_chosen():
    own_columns.use({})
    yield
    own_columns.use({})


def test_entries_are_keys_with_an_optional_width_and_the_wrong_ones_are_said():
    good, problems = parse({"instance.servers": ["name", "private_ip:16", " zone "]}, "cfg")
    assert good == {"instance.servers": (Chosen("name"), Chosen("private_ip", 16), Chosen("zone"))}
    assert problems == []
    good, problems = parse({"a.b": ["name:0"], "c.d": "name", "e.f": [], "g.h": ["x y"], "i.j": ["ok"]}, "cfg")
    assert good == {"i.j": (Chosen("ok"),)}
    assert len(problems) == 4 and all(p.startswith("cfg: columns.") for p in problems)
    assert "columns.e.f is empty" in problems[2]
    good, problems = parse({"a.b": ["name", "size:abc", "state", "state", "zone:999", "id"]}, "cfg")
    assert good == {"a.b": (Chosen("name"), Chosen("state"), Chosen("id"))}  # each wrong one left out, and said
    assert problems == [
        "cfg: columns.a.b: 'size:abc' is not a key or key:width (3–60); state is given twice; 'zone:999' is not a "
        "key or key:width (3–60) (left out)"
    ]
    assert parse(["name"], "cfg") == ({}, ["cfg: columns is list, not a table of lists"])


def test_a_list_offers_its_columns_then_its_other_fields_each_once():
    offered = candidates(SERVERS)
    keys = [c.key for c in offered]
    own = [c.key for c in SERVERS.columns]  # type: ignore[union-attr]
    assert keys[: len(own)] == own
    assert "private_ip" in keys and "hostname" in keys
    titles = [c.title for c in offered]
    assert len(titles) == len(set(titles)), "a field the detail reads its own way is not offered beside its column"
    assert all(c.width for c in offered), "every column offered has a width"


def test_columns_come_in_the_order_and_widths_chosen_and_unknown_keys_are_named():
    chosen = (Chosen("private_ip", 16), Chosen("name"), Chosen("nope"), Chosen("zone"))
    shown = columns(SERVERS, chosen)
    assert [(c.key, c.width) for c in shown] == [("name", 20), ("private_ip", 16), ("zone", 8)]  # the name first
    assert unknown(SERVERS, chosen) == ["nope"]
    assert columns(SERVERS, (Chosen("nope"),)) == SERVERS.columns  # nothing left: the list's own


def test_rows_keep_what_the_chosen_columns_read():
    server = {"id": "s1", "name": "web", "state": "running", "private_ip": "10.1.2.3", "hostname": "web"}
    assert "private_ip" not in SERVERS.make_row(server).raw  # a list's rows are slim
    own_columns.use({"instance.servers": (Chosen("name"), Chosen("private_ip"))})
    row = SERVERS.make_row(server)
    assert row.raw["private_ip"] == "10.1.2.3" and "hostname" not in row.raw
    assert [c.value(row) for c in own_columns.shown(SERVERS)] == ["web", "10.1.2.3"]


def test_a_profiles_own_columns_win_and_are_written_back_round_trip(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(
        '# mine\n[columns]\n"instance.servers" = ["name", "state"]\n"dns.zones" = ["domain"]\n\n'
        '[profiles.prod]\nproject_id = "7f6e5d4c-3b2a-4190-8f7e-6d5c4b3a2910"\n'
        '[profiles.prod.columns]\n"instance.servers" = ["name", "ip:20"]\n'
    )
    cfg = ConfigFile.load(path)
    assert resolve({"profile": "prod"}, env={}, cfg=cfg).columns == {
        "instance.servers": (Chosen("name"), Chosen("ip", 20)),
        "dns.zones": (Chosen("domain"),),
    }
    assert resolve({"profile": "other"}, env={}, cfg=cfg).columns["instance.servers"] == (
        Chosen("name"),
        Chosen("state"),
    )
    save_columns("instance.servers", (Chosen("zone"), Chosen("name", 30)), "other", path)
    save_columns("instance.servers", (), "prod", path)  # none chosen: the entry goes
    text = path.read_text()
    assert text.startswith("# mine") and 'project_id = "7f6e5d4c' in text
    cfg = ConfigFile.load(path)
    assert cfg.profile_columns == {"other": {"instance.servers": (Chosen("zone"), Chosen("name", 30))}}
    assert "[profiles.prod.columns]" not in path.read_text(), "no header left standing for nothing"
    assert cfg.columns["instance.servers"] == (Chosen("name"), Chosen("state"))


def test_columns_wrong_in_a_profile_are_said_and_the_rest_kept(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[profiles.p]\n[profiles.p.columns]\n"instance.servers" = ["name:999"]\n"dns.zones" = ["domain"]\n')
    cfg = ConfigFile.load(path)
    assert cfg.profile_columns == {"p": {"dns.zones": (Chosen("domain"),)}}
    assert cfg.column_problems == [
        f"{path} [profiles.p]: columns.instance.servers: 'name:999' is not a key or key:width (3–60) (left out)"
    ]
