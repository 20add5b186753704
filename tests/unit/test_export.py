"""A list written out as CSV or JSON with its declared fields; a formula-looking cell is defused."""

from __future__ import annotations

import csv
import io
import json

import pytest

from tui.products.kit.base import kinds_of
from tui.products.kit.declared import ID, Field
from tui.products.kit.export import as_csv, as_json, resource_json
from tui.products.kit.location import ParentRef
from tui.products.kit.rows import Row

ZONE = ParentRef("z", "example.com", "global")


def record(rid: str, name: str, rtype: str, data: str, ttl: int, **more) -> Row:
    """A DNS record as listed."""
    return Row({"id": rid, "name": name, "type": rtype, "data": data, "ttl": ttl, **more}, "type", "id")


kind = kinds_of(product="G", api="g/v1", scope_type="zone")
SERVERS = kind(
    id="g.servers",
    singular="server",
    fields=(
        ID,
        Field("name", "Name", "name", width=10),
        Field("public_ips.address", "Public IPs", "ip"),
        Field("tags", "Tags", "tags"),
        Field("", "Computed", show=lambda r: "x"),
    ),
    columns=("name",),
)
ROWS = [
    Row(
        {"id": "a1", "name": "web-1", "public_ips": [{"address": "51.15.40.70"}, {"address": "::1"}], "tags": ["p"]},
        "state",
        "id",
    ),
    Row({"id": "b2", "name": '=HYPERLINK("http://evil")', "tags": []}, "state", "id"),
]


def test_csv_has_a_column_per_declared_field_and_no_formula_reaches_a_spreadsheet():
    lines = list(csv.reader(io.StringIO(as_csv(SERVERS, ROWS).decode())))
    assert lines[0] == ["ID", "Name", "Public IPs", "Tags"]  # a computed field is shown, not exported
    assert lines[1] == ["a1", "web-1", "51.15.40.70; ::1", "p"]
    assert lines[2][1].startswith("'=HYPERLINK")


def test_json_keeps_the_values_as_they_are():
    data = json.loads(as_json(SERVERS, ROWS))
    # each by the API's own key path, as a script reads it (not a column's short key beside raw ones)
    assert data[0] == {"id": "a1", "name": "web-1", "public_ips.address": ["51.15.40.70", "::1"], "tags": ["p"]}
    assert data[1]["name"] == '=HYPERLINK("http://evil")' and data[1]["public_ips.address"] is None  # data, not a sheet
    assert json.loads(resource_json(ROWS[0]))["public_ips"][1]["address"] == "::1"


def test_a_zone_file_names_records_relative_to_the_zone_with_their_priority():
    from tui.products.dns.zone_file import dump

    records = [
        record("1", "", "A", "192.0.2.1", 300),
        record("2", "", "MX", "mail.example.com.", 3600, priority=10),
        record("3", "evil", "TXT", '"a\x1b[31m"', 60),
    ]
    lines = dump(records, ZONE).splitlines()
    assert lines[1:] == [
        "$ORIGIN example.com.",
        "$TTL 3600",
        "@ 300 IN A 192.0.2.1",
        "@ 3600 IN MX 10 mail.example.com.",
        'evil 60 IN TXT "a\\027[31m"',  # the zone file's own escape: read back as the same byte
    ]


def test_a_zone_file_read_back_gives_the_records_it_was_written_from():
    from tui.products.dns.identity import key
    from tui.products.dns.zone_file import dump, load

    zone = ZONE
    records = [
        record("1", "", "A", "192.0.2.1", 300),
        record("2", "", "MX", "mail.example.com.", 3600, priority=10),
        record("3", "www", "CNAME", "example.com.", 60),
        record("4", "t", "TXT", "v=DMARC1; p=none", 60),
    ]
    read = load(dump(records, zone), zone)
    assert len(read) == 4 and {key(r, zone) for r in read} == {key(row.data, zone) for row in records}
    assert {"name": "", "type": "MX", "data": "mail.example.com.", "ttl": 3600, "priority": 10, "_line": 5} in read


@pytest.mark.parametrize(
    "bad, line",
    [
        ("mx1 3600 IN A 203.0.113.256", "line 4: mx1 3600 IN A 203.0.113.256"),  # the parser names the line after
        ("mx1 3600 IN BOGUS 1.2.3.4", "line 4: mx1 3600 IN BOGUS"),
        ("   3600 IN MX 10", "line 4: 3600 IN MX 10"),  # a line that keeps the owner above
    ],
)
def test_a_zone_file_that_cannot_be_read_is_refused_with_the_line_it_is_on(bad, line):
    from tui.products.dns.zone_file import load
    from tui.products.kit.flows import Refused

    text = f"$ORIGIN example.com.\n$TTL 3600\n@ 3600 IN A 192.0.2.1\n{bad}\nok 3600 IN A 192.0.2.2\n"
    with pytest.raises(Refused) as refused:
        load(text, ZONE)
    assert line in str(refused.value) and "<string>" not in str(refused.value)


def test_a_record_a_rule_refuses_is_named_by_its_line():
    from tui.products.dns.zone_file import load, where

    text = '$ORIGIN example.com.\n$TTL 3600\n@ 3600 IN A 192.0.2.1\n\nttlbad 30 IN A 192.0.2.9\n  30 IN TXT "x"\n'
    read = load(text, ZONE)
    bad = next(r for r in read if r["name"] == "ttlbad" and r["type"] == "A")
    assert where(text, bad) == "line 5: ttlbad 30 IN A 192.0.2.9"
    txt = next(r for r in read if r["type"] == "TXT")
    assert where(text, txt).startswith("line 6:")


def test_a_zone_file_is_ascii_an_international_name_in_punycode():
    from tui.products.dns.zone_file import ascii_name, dump

    rows = [record("1", "xn--bcher-kva", "A", "192.0.2.1", 300)]
    text = dump(rows, ZONE)
    assert "xn--bcher-kva 300 IN A 192.0.2.1" in text and text.isascii()
    assert ascii_name("bücher.example") == "xn--bcher-kva.example"
