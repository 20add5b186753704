"""The sandbox's DNS (`/domain/v2beta1`) against spec 3 §2.1, §3, §4.1, §7, §8 and spec/4 "DNS":
each rule once, on the demo seeds, with the manual clock."""

from __future__ import annotations

import base64

import pytest

from helpers import args
from tui.sandbox import ManualClock, Sandbox
from tui.sandbox.dns import SCALE_ZONE
from tui.sandbox.dns.store import NS_DEFAULT, VERSIONS_KEPT
from dns_wire import D, Z, a, add, patch, records, versions

pytestmark = pytest.mark.anyio


async def test_service_information_names_the_version(http):
    info = (await http.get(D)).json()
    assert info["version"] == "v2beta1" and {"name", "description", "documentation_url"} <= set(info)


async def test_lists_page_with_their_totals(http):
    first = (await http.get(f"{Z}/bulk.example.com/records", params={"page_size": 100})).json()
    assert first["total_count"] == 2000 + len(NS_DEFAULT) and len(first["records"]) == 100
    last = (await http.get(f"{Z}/bulk.example.com/records", params={"page_size": 100, "page": 21})).json()
    assert len(last["records"]) == 2 and last["total_count"] == first["total_count"]
    zones = (await http.get(Z, params={"page_size": 2})).json()
    assert len(zones["dns_zones"]) == 2 and zones["total_count"] == 7
    assert (await http.get(Z, params={"order_by": "nope"})).status_code == 400
    domains = (await http.get(f"{D}/domains")).json()
    assert domains["total_count"] == 4 and {d["status"] for d in domains["domains"]} == {
        "active",
        "expiring",
        "checking",
    }
    assert {z["subdomain"] for z in (await http.get(f"{D}/domains/example.com/zones")).json()["dns_zones"]} == {
        "",
        "shop",
        "bulk",
    }
    desc = (await http.get(Z, params={"order_by": "domain_desc", "domain": "example.com"})).json()["dns_zones"]
    assert [z["subdomain"] for z in desc] == ["shop", "bulk", ""]


async def test_a_new_zone_has_its_ns_records_and_becomes_active(http, sandbox, clock):
    made = (
        await http.post(Z, json={"domain": "example.com", "subdomain": "eu", "project_id": sandbox.project_id})
    ).json()
    assert made["status"] == "pending" and made["ns"] == made["ns_default"] == NS_DEFAULT
    recs = await records(http, "eu.example.com")
    assert sorted((r["name"], r["type"], r["data"]) for r in recs) == [("", "NS", f"{ns}.") for ns in NS_DEFAULT]
    clock.advance(10)
    assert (await http.get(Z, params={"dns_zone": "eu.example.com"})).json()["dns_zones"][0]["status"] == "active"
    again = await http.post(Z, json={"domain": "example.com", "subdomain": "eu"})
    assert again.status_code == 409 and again.json()["type"] == "already_exists"
    assert (await http.post(Z, json={"domain": "unknown.example", "subdomain": "x"})).status_code == 404


async def test_changes_apply_in_order_and_answer_what_they_changed(http):
    www = (await records(http, "shop.example.com", name="www"))[0]
    r = await patch(
        http,
        "shop.example.com",
        add(a("x", "192.0.2.1"), a("x", "192.0.2.2")),
        {"set": {"id_fields": {"name": "x", "type": "A", "data": "192.0.2.1"}, "records": [a("x", "192.0.2.3")]}},
        {"delete": {"id_fields": {"name": "x", "type": "A", "data": "192.0.2.2"}}},
        {"set": {"id": www["id"], "records": [{"data": "shop.example.com.", "ttl": 300}]}},
        return_all_records=False,
    )
    assert r.status_code == 200, r.text
    assert [(x["name"], x["data"], x["ttl"]) for x in r.json()["records"]] == [
        ("x", "192.0.2.3", 3600),
        ("www", "shop.example.com.", 300),
    ]
    assert r.json()["records"][1]["id"] == www["id"]  # a set by id keeps the record's id
    assert [x["data"] for x in await records(http, "shop.example.com", name="x")] == ["192.0.2.3"]
    everything = (await patch(http, "shop.example.com", add(a("y", "192.0.2.9")))).json()["records"]
    assert len(everything) == len(await records(http, "shop.example.com"))  # return_all_records defaults to true
    cleared = await patch(http, "shop.example.com", {"clear": {}}, add(a("", "192.0.2.7")))
    assert [(x["name"], x["type"]) for x in cleared.json()["records"]] == [("", "A")]  # clear takes the NS records too


async def test_a_refused_change_applies_nothing(http):
    before, count = await records(http, "shop.example.com"), (await versions(http, "shop.example.com"))["total_count"]
    r = await patch(
        http,
        "shop.example.com",
        add(a("new", "192.0.2.1")),
        {"set": {"id": "00000000-0000-4000-8000-000000000000", "records": [a("z", "192.0.2.2")]}},
    )
    assert r.status_code == 400 and args(r) == {"changes.1.set.id": "constraint"}
    r = await patch(
        http, "shop.example.com", {"clear": {}}, {"delete": {"id_fields": {"name": "nothing", "type": "A"}}}
    )
    assert args(r) == {"changes.1.delete.id_fields": "constraint"}
    r = await patch(http, "shop.example.com", add(a("new", "192.0.2.1")), add(a("new", "192.0.2.1")))
    assert args(r) == {"changes.1.add.records.0": "constraint"}  # the same record twice
    assert await records(http, "shop.example.com") == before
    assert (await versions(http, "shop.example.com"))["total_count"] == count


async def test_the_shape_rules_of_a_change(http):
    both = await patch(http, "shop.example.com", {"add": {"records": [a("q", "192.0.2.1")]}, "clear": {}})
    assert args(both) == {"changes.0": "constraint"}
    ids = await patch(http, "shop.example.com", {"delete": {"id": "x", "id_fields": {"name": "www", "type": "CNAME"}}})
    assert args(ids) == {"changes.0.delete": "constraint"}
    none = await patch(http, "shop.example.com", {"set": {"records": [a("q", "192.0.2.1")]}})
    assert args(none) == {"changes.0.set.id": "required"}
    two = await patch(
        http,
        "shop.example.com",
        add(
            a(
                "q",
                "192.0.2.1",
                weighted_config={"weighted_ips": [{"ip": "192.0.2.1", "weight": 1}]},
                view_config={"views": [{"subnet": "10.0.0.0/8", "data": "192.0.2.2"}]},
            )
        ),
    )
    assert args(two) == {"changes.0.add.records.0": "constraint"}
    assert "weighted_config" in two.text and "view_config" in two.text


TYPE_CASES = [  # (record, the refused argument under changes.0.add.records.0, or None when taken)
    (a("v4", "192.0.2.1"), None),
    (a("v4", "2001:db8::1"), "data"),
    ({"name": "v6", "type": "AAAA", "data": "2001:DB8:0:0::1"}, None),
    ({"name": "v6", "type": "AAAA", "data": "192.0.2.1"}, "data"),
    ({"name": "mail", "type": "MX", "data": "mx.example.com.", "priority": 10}, None),
    ({"name": "mail", "type": "MX", "data": "mx.example.com."}, "priority"),
    ({"name": "_sip._udp", "type": "SRV", "data": "5 5060 sip.example.com.", "priority": 10}, None),
    ({"name": "_sip._udp", "type": "SRV", "data": "5060 sip.example.com.", "priority": 10}, "data"),
    ({"name": "_sip._udp", "type": "SRV", "data": "5 5060 sip.example.com."}, "priority"),
    ({"name": "alias", "type": "CNAME", "data": "target.example.com."}, None),
    ({"name": "alias", "type": "CNAME", "data": "not a host!"}, "data"),
    ({"name": "", "type": "CNAME", "data": "target.example.com."}, ""),  # no CNAME at the root
    ({"name": "www", "type": "A", "data": "192.0.2.1"}, ""),  # www holds a CNAME already
    ({"name": "note", "type": "TXT", "data": 'any text: «quoted» "or not"'}, None),
    (
        {"name": "open", "type": "TXT", "data": 'v=spf1 "include:_spf.example.com ~all'},
        "data",
    ),  # a quote left open (issue 32 item 20)
    ({"name": "inside", "type": "TXT", "data": '"say \\"hi\\""'}, None),  # a quote inside, escaped
    ({"name": "", "type": "CAA", "data": '0 issuewild "ca.example.net"'}, None),
    ({"name": "", "type": "CAA", "data": "0 issue ca.example.net"}, "data"),
    ({"name": "_25._tcp.mail", "type": "TLSA", "data": "3 1 1 " + "ab" * 32}, None),
    ({"name": "_25._tcp.mail", "type": "TLSA", "data": "3 1 1"}, "data"),
    ({"name": "x", "type": "A", "data": "192.0.2.1", "ttl": 59}, "ttl"),
    ({"name": "x", "type": "A", "data": "192.0.2.1", "ttl": 2_592_001}, "ttl"),
    ({"name": "x", "type": "BOGUS", "data": "192.0.2.1"}, "type"),
    ({"name": "x", "type": "unknown", "data": "192.0.2.1"}, "type"),
    ({"name": "bad name", "type": "A", "data": "192.0.2.1"}, "name"),
    (
        {
            "name": "hc",
            "type": "TXT",
            "data": "x",
            "http_service_config": {"ips": ["192.0.2.1"], "url": "https://x.example", "strategy": "all"},
        },
        "http_service_config",
    ),
    (
        {
            "name": "hc",
            "type": "A",
            "data": "192.0.2.1",
            "http_service_config": {"ips": ["192.0.2.1"], "url": "ftp://x", "strategy": "all"},
        },
        "http_service_config.url",
    ),
    (
        {
            "name": "v",
            "type": "A",
            "data": "192.0.2.1",
            "view_config": {"views": [{"subnet": "10.0.0.0/33", "data": "192.0.2.2"}]},
        },
        "view_config.views.0.subnet",
    ),
]


@pytest.mark.parametrize(("record", "refused"), TYPE_CASES, ids=[f"{c[0]['type']}-{c[1]}" for c in TYPE_CASES])
async def test_record_data_is_checked_per_type(http, record, refused):
    r = await patch(http, "shop.example.com", add(record))
    if refused is None:
        assert r.status_code == 200, r.text
    else:
        where = "changes.0.add.records.0" + (f".{refused}" if refused else "")
        assert r.status_code == 400 and where in args(r), r.text


async def test_names_are_stored_as_punycode(http):
    r = await patch(
        http,
        "shop.example.com",
        add(a("bücher", "192.0.2.5"), {"name": "wörter", "type": "CNAME", "data": "bücher.shop.example.com."}),
        return_all_records=False,
    )
    assert [(x["name"], x["data"]) for x in r.json()["records"]] == [
        ("xn--bcher-kva", "192.0.2.5"),
        ("xn--wrter-jua", "xn--bcher-kva.shop.example.com."),
    ]
    assert [x["data"] for x in await records(http, "shop.example.com", name="bücher")] == ["192.0.2.5"]
    zone = (await http.get(f"{Z}/bücher.example/records")).json()  # a zone named in Unicode in the path
    assert zone["total_count"] == len(NS_DEFAULT)
    assert [
        d["domain"] for d in (await http.get(f"{D}/domains", params={"domain": "bücher.example"})).json()["domains"]
    ] == ["xn--bcher-kva.example"]


async def test_a_zone_keeps_its_last_100_versions(http, sandbox):
    await http.post(Z, json={"domain": "example.com", "subdomain": "v", "project_id": sandbox.project_id})
    first = (await versions(http, "v.example.com"))["versions"][-1]
    for n in range(VERSIONS_KEPT + 5):
        assert (await patch(http, "v.example.com", add(a(f"h{n}", "192.0.2.1")))).status_code == 200
    listed = await versions(http, "v.example.com")
    assert listed["total_count"] == VERSIONS_KEPT
    assert listed["versions"][0]["created_at"] >= listed["versions"][-1]["created_at"]  # newest first
    assert (await http.get(f"{Z}/version/{first['id']}")).status_code == 404
    newest = (await http.get(f"{Z}/version/{listed['versions'][0]['id']}", params={"page_size": 1})).json()
    assert newest["total_count"] == VERSIONS_KEPT + 5 + len(NS_DEFAULT)


async def test_a_version_holds_its_records_diffs_and_restores(http):
    listed = (await versions(http, "example.com"))["versions"]
    assert len(listed) >= 5
    before = listed[0]["id"]
    kept = (await http.get(f"{Z}/version/{before}", params={"page_size": 1000})).json()
    assert kept["records"] == await records(http, "example.com")
    www = (await records(http, "example.com", name="www"))[0]
    status = (await records(http, "example.com", name="status"))[0]
    edit = await patch(
        http,
        "example.com",
        add(a("new", "192.0.2.1")),
        {"delete": {"id": status["id"]}},
        {"set": {"id": www["id"], "records": [{"ttl": 60}]}},
    )
    assert edit.status_code == 200, edit.text  # a set keeps what its records leave out (here name, type, data)
    diff = (await http.get(f"{Z}/version/{before}/diff")).json()["changes"]
    assert diff[0] == {"delete": {"id": status["id"]}}
    assert diff[1]["set"]["id"] == www["id"] and diff[1]["set"]["records"][0]["ttl"] == 60
    assert [x["name"] for x in diff[2]["add"]["records"]] == ["new"]
    assert (await http.post(f"{Z}/version/{before}/restore", json={})).json() == {}
    assert await records(http, "example.com") == kept["records"]
    assert (await http.get(f"{Z}/version/{before}/diff")).json()["changes"] == []
    assert (await versions(http, "example.com"))["total_count"] == len(listed) + 2  # the edit, then the restore


async def test_imports_replace_the_records_as_a_version(http):
    count = (await versions(http, "example.org"))["total_count"]
    imported = (await http.post(f"{Z}/example.org/import-provider", json={"online_v1": {"token": "abc"}})).json()[
        "records"
    ]
    assert {"A", "CNAME", "MX", "TXT", "NS"} <= {x["type"] for x in imported}
    assert args(await http.post(f"{Z}/example.org/import-provider", json={"online_v1": {}})) == {
        "online_v1.token": "required"
    }
    zone_file = (
        "$TTL 600\n@ IN SOA ns0. host. ( 1 2 3\n 4 5 )\n@ IN A 192.0.2.8 ; apex\n"
        'www 300 IN CNAME example.org.\n\tIN TXT "two" " parts"\n'
    )
    raw = (
        await http.post(f"{Z}/example.org/raw", json={"format": "bind", "bind_source": {"content": zone_file}})
    ).json()["records"]
    assert sorted((x["name"], x["type"], x["data"], x["ttl"]) for x in raw if x["type"] != "NS") == [
        ("", "A", "192.0.2.8", 600),
        ("www", "CNAME", "example.org.", 300),
        ("www", "TXT", "two parts", 600),
    ]
    assert (await versions(http, "example.org"))["total_count"] == count + 2
    refused = await http.post(f"{Z}/example.org/raw", json={"bind_source": {"content": "x IN A 999.1.1.1\n"}})
    assert refused.status_code == 400 and "line 1" in refused.text
    exported = (await http.get(f"{Z}/example.org/raw", params={"format": "bind"})).json()
    assert "www 300 IN CNAME example.org." in base64.b64decode(exported["content"]).decode()


async def test_the_scale_seed_fills_one_zone():
    big = Sandbox(clock=ManualClock(), seed="empty", scale=500)
    assert (
        len(big.dns.zones[SCALE_ZONE]["_records"]) == 500
    )  # its NS records included: the benchmark lists exactly `scale`


async def test_a_cname_beside_other_records_names_the_change_that_wrote_it(http):
    """Issue 32 item 19: the 400 names the change that brought the CNAME (here the third), not the
    first change that wrote a record at that name."""
    r = await patch(
        http,
        "shop.example.com",
        add(a("beside", "192.0.2.1")),
        add(a("elsewhere", "192.0.2.2")),
        add({"name": "beside", "type": "CNAME", "data": "target.example.com.", "ttl": 3600}),
    )
    assert r.status_code == 400
    assert list(args(r)) == ["changes.2.add.records.0"]
