"""A zone file read back (issue: zone-file import, items 4, 6, 9 and a Low item): what it makes is
counted before it is generated, a line at fault is found reading the file once, a record outside
the zone or a CNAME beside another is refused with its line, TXT strings keep their boundaries, and
an unedited export read back changes nothing, every standard type included."""

from __future__ import annotations

import pytest

from tui.products.dns.kinds import RECORDS
from tui.products.dns.zone_file import dump, load
from tui.products.kit.flows import Refused
from tui.products.kit.location import ParentRef
from tui.products.kit.rows import Row
from tui.sandbox import Sandbox

ZONE = ParentRef("example.com", "example.com", "global")
HEAD = "$ORIGIN example.com.\n$TTL 3600\n@ 3600 IN A 192.0.2.1\n"


def refusal(text: str) -> str:
    with pytest.raises(Refused) as refused:
        load(text, ZONE)
    return str(refused.value)


def test_a_file_generating_more_records_than_an_import_takes_is_refused_with_its_count():
    said = refusal("$TTL 3600\n$GENERATE 1-20000 host$ 300 IN A 192.0.2.1\n")  # 53 bytes: counted, not generated
    assert "20,000 records" in said and "10,000" in said and "nothing was staged" in said


def test_a_line_that_cannot_be_read_is_found_reading_the_file_once(monkeypatch):
    import dns.zonefile

    reads = []
    read = dns.zonefile.Reader.read
    monkeypatch.setattr(dns.zonefile.Reader, "read", lambda self: reads.append(1) or read(self))
    text = HEAD + "".join(f"h{n} 300 IN A 192.0.2.{n % 250 + 1}\n" for n in range(2000)) + "bad 300 IN A 192.0.2\n"
    assert "line 2004: bad 300 IN A 192.0.2: " in refusal(text)
    assert len(reads) <= 3  # the file, then the line at fault alone: not every line again


def test_a_record_outside_the_zone_is_refused_with_its_line_not_dropped():
    said = refusal(HEAD + "$ORIGIN attacker.example.\nwww IN A 192.0.2.66\n")
    assert "line 5: www.attacker.example. is not in example.com" in said


def test_a_cname_beside_another_record_is_refused_with_both_lines():
    said = refusal(HEAD + "www IN A 192.0.2.4\nok IN A 192.0.2.5\nwww IN CNAME web.example.net.\n")
    assert said.startswith("line 6: www IN CNAME web.example.net.: a CNAME stands alone")
    assert "line 4: www IN A 192.0.2.4" in said


def test_txt_strings_keep_their_boundaries_quotes_and_semicolons():
    text = HEAD + 'spf IN TXT "v=spf1 include:_spf.example.com; -all" "say \\"hi\\"; ok"\n'
    text += 'plain IN TXT "v=spf1 mx ~all"\n'
    records = {r["name"]: r["data"] for r in load(text, ZONE)}
    assert records["spf"] == '"v=spf1 include:_spf.example.com; -all" "say \\"hi\\"; ok"'
    assert records["plain"] == "v=spf1 mx ~all"  # one plain string: as the record form takes it


def rows_of(records: list[dict]) -> list[Row]:
    return [Row({"id": f"r{n}", "ttl": 3600, **r}, "type", "id") for n, r in enumerate(records)]


EVERY_TYPE = rows_of(
    [
        {"name": "", "type": "A", "data": "192.0.2.1"},
        {"name": "v6", "type": "AAAA", "data": "2001:db8::1"},
        {"name": "www", "type": "CNAME", "data": "example.com."},
        {"name": "", "type": "MX", "data": "mx1", "priority": 10},  # a host name read against the zone
        {"name": "", "type": "NS", "data": "ns0.dom.example.", "ttl": 86400},
        {"name": "1.2", "type": "PTR", "data": "host.example.com."},
        {"name": "_sip._tcp", "type": "SRV", "data": "5 5060 sip.example.com.", "priority": 10},
        {"name": "_443._tcp", "type": "TLSA", "data": "3 0 0 " + "ab" * 150},  # dnspython cuts it at 128
        {"name": "", "type": "CAA", "data": '0 issue "letsencrypt.org"'},
        {"name": "", "type": "TXT", "data": "v=spf1 mx ~all"},
        {"name": "form", "type": "TXT", "data": '"v=spf1 include:_spf.example.com; -all" "say \\"hi\\"; ok"'},
        {"name": "dkim", "type": "TXT", "data": "v=DKIM1; k=rsa; p=" + "A" * 400},  # published in strings of 255
        {"name": "odd", "type": "TXT", "data": 'café, "quoted" \\ and\ttab'},
        {"name": "geo", "type": "A", "data": "192.0.2.7", "geo_ip_config": {"matches": [], "default": "192.0.2.7"}},
        {"name": "edge", "type": "ALIAS", "data": "lb.example.net."},
    ]
)


def demo_zones() -> list[tuple[ParentRef, list[Row]]]:
    sandbox = Sandbox()
    return [
        (ParentRef(name, name, "global"), [Row(dict(r), "type", "id") for r in zone["_records"].values()])
        for name, zone in sandbox.dns.zones.items()
    ]


DYNAMIC = ("geo_ip_config", "http_service_config", "weighted_config", "view_config")
ZONES = [(ZONE, EVERY_TYPE), *demo_zones()]


@pytest.mark.parametrize("zone, rows", ZONES, ids=["every type", *(z.name for z, _ in ZONES[1:])])
def test_an_unedited_export_read_back_stages_nothing(zone, rows):
    from tui.products.kit.file_plan import plan

    text = dump(rows, zone)
    assert len(plan(RECORDS.rows.file, load(text, zone), rows, zone, lambda obj: obj)) == 0
    lines = text.splitlines()
    for row in rows:  # a dynamic answer or an ALIAS has no zone-file form: a comment saying so
        if any(row.get(k) for k in DYNAMIC) or row.get("type") == "ALIAS":
            assert any(x.startswith(f"; {row.get('name') or '@'} ") and "not in the file" in x for x in lines)


def test_a_record_of_the_file_standing_for_a_dynamic_one_is_never_staged():
    from tui.products.kit.file_plan import plan

    text = dump(EVERY_TYPE, ZONE) + "geo 3600 IN A 192.0.2.7\n"  # its comment taken out: its plain data
    read = load(text, ZONE)
    planned = plan(RECORDS.rows.file, read, EVERY_TYPE, ZONE, lambda obj: obj, "record", RECORDS.writing.staged.label)
    assert len(planned) == 0 and planned.left == ["geo A 192.0.2.7"]
