"""The sandbox's DNS (`/domain/v2beta1`) against spec 3 §2.1, §3, §4.1, §7, §8 and spec/4 "DNS":
each rule once, on the demo seeds, with the manual clock."""

from __future__ import annotations

import base64

import pytest

from helpers import args
from tui.sandbox import ManualClock, Sandbox
from tui.sandbox.dns import SCALE_ZONE
from tui.sandbox.dns.store import NS_DEFAULT, VERSIONS_KEPT, Timings

pytestmark = pytest.mark.anyio
D = "/domain/v2beta1"
Z = f"{D}/dns-zones"


async def records(http, zone, **params):
    r = await http.get(f"{Z}/{zone}/records", params={"page_size": 1000, **params})
    assert r.status_code == 200, r.text
    return r.json()["records"]


async def patch(http, zone, *changes, **extra):
    return await http.patch(f"{Z}/{zone}/records", json={"changes": list(changes), **extra})


def add(*recs):
    return {"add": {"records": list(recs)}}


def a(name, ip, **extra):
    return {"name": name, "type": "A", "data": ip, "ttl": 3600, **extra}


async def versions(http, zone):
    return (await http.get(f"{Z}/{zone}/versions", params={"page_size": 1000})).json()


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


@pytest.mark.parametrize("path", ["/domains/external-domain", "/external-domains"])
async def test_an_external_domain_validates_once_its_txt_record_is_published(http, sandbox, clock, path):
    made = (await http.post(f"{D}{path}", json={"domain": "My-Shop.example", "project_id": sandbox.project_id})).json()
    assert made["domain"] == "my-shop.example" and made["validation_token"] and made["project_id"] == sandbox.project_id
    assert {"organization_id", "created_at"} <= set(made)
    domain = (await http.get(f"{D}/domains/my-shop.example")).json()
    assert (domain["status"], domain["is_external"]) == ("checking", True)
    assert domain["external_domain_registration_status"]["validation_token"] == made["validation_token"]
    assert domain["dns_zones"][0]["status"] == "pending"
    await patch(http, "my-shop.example", add({"name": "_challenge", "type": "TXT", "data": made["validation_token"]}))
    clock.advance(59)
    assert (await http.get(f"{D}/domains/my-shop.example")).json()["status"] == "checking"
    clock.advance(1)
    assert (await http.get(f"{D}/domains/my-shop.example")).json()["status"] == "active"
    assert (await http.get(Z, params={"dns_zone": "my-shop.example"})).json()["dns_zones"][0]["status"] == "active"
    clock.advance(48 * 3600)
    assert (await http.get(f"{D}/domains/my-shop.example")).json()["status"] == "active"  # validated: it never expires


async def test_an_external_domain_not_validated_in_48_hours_expires(http, clock):
    assert (await http.post(f"{D}/external-domains", json={"domain": "late.example"})).status_code == 200
    clock.advance(48 * 3600 - 1)
    assert (await http.get(f"{D}/domains/late.example")).json()["status"] == "checking"
    clock.advance(1)
    listed = (await http.get(f"{D}/domains", params={"domain": "late.example"})).json()["domains"]
    assert listed[0]["status"] == "expired"
    zone = (await http.get(f"{D}/domains/late.example/zones")).json()["dns_zones"][0]
    assert zone["status"] == "error" and "48 hours" in zone["message"]
    assert (await http.delete(f"{D}/external-domains/late.example")).json() == {}
    assert (await http.get(f"{D}/domains/late.example")).status_code == 404


async def test_a_registration_can_validate_by_itself_when_the_sandbox_is_told_so(clock):
    store = Sandbox(clock=clock, seed="empty", options={"dns_timings": Timings(auto_validate=120)}).dns
    store.register_external("auto.example", None)
    clock.advance(120)
    store.settle()
    assert store.domains["auto.example"]["status"] == "active" and store.zones["auto.example"]["status"] == "active"


async def test_registration_refuses_a_bad_name_and_a_registered_domain(http):
    assert args(await http.post(f"{D}/external-domains", json={"domain": "not a domain"})) == {"domain": "format"}
    assert args(await http.post(f"{D}/domains/external-domain", json={})) == {"domain": "required"}
    for name in ("example.com", "shop.example.com"):
        r = await http.post(f"{D}/domains/external-domain", json={"domain": name})
        assert r.status_code == 409 and r.json()["type"] == "already_exists" and r.json()["resource"] == "domain"


async def test_a_root_zone_cannot_be_deleted(http, sandbox):
    r = await http.delete(f"{Z}/example.com", params={"project_id": sandbox.project_id})
    assert r.status_code == 403 and r.json() == {"message": "root zone can't be deleted"}
    assert (await http.delete(f"{Z}/shop.example.com", params={"project_id": sandbox.project_id})).json() == {}
    assert (await http.get(f"{Z}/shop.example.com/records")).status_code == 404


async def test_clone_overwrites_only_when_asked(http, sandbox):
    body = {"dest_dns_zone": "shop.example.com", "overwrite": False, "project_id": sandbox.project_id}
    r = await http.post(f"{Z}/example.org/clone", json=body)
    assert r.status_code == 409 and r.json()["type"] == "already_exists"
    cloned = await http.post(f"{Z}/example.org/clone", json={**body, "overwrite": True})
    assert cloned.status_code == 200 and cloned.json()["subdomain"] == "shop"
    src = {(x["name"], x["type"], x["data"]) for x in await records(http, "example.org")}
    dest = await records(http, "shop.example.com")
    assert {(x["name"], x["type"], x["data"]) for x in dest} == src  # the same NS servers: the same records
    assert not {x["id"] for x in dest} & {x["id"] for x in await records(http, "example.org")}
    fresh = await http.post(f"{Z}/example.org/clone", json={**body, "dest_dns_zone": "copy.example.org"})
    assert fresh.json()["subdomain"] == "copy" and len(await records(http, "copy.example.org")) == len(src)
    assert args(await http.post(f"{Z}/example.org/clone", json={**body, "dest_dns_zone": "elsewhere.example"})) == {
        "dest_dns_zone": "constraint"
    }


async def test_records_are_not_edited_where_other_name_servers_serve_the_zone(http):
    zone = (await http.get(Z, params={"dns_zone": "example.net"})).json()["dns_zones"][0]
    assert zone["ns"] != zone["ns_default"]
    assert len(await records(http, "example.net")) > 0  # listing still works
    r = await patch(http, "example.net", add(a("x", "192.0.2.1")))
    assert r.status_code == 412 and "does not use the default name servers" in r.json()["help_message"]
    assert (await http.delete(f"{Z}/example.net/records")).status_code == 412
    bad = await http.put(
        f"{Z}/example.net/nameservers", json={"ns": [{"name": "ns0.dns.sandbox.example", "ip": ["300.1.1.1"]}]}
    )
    assert args(bad) == {"ns.0.ip.0": "format"}
    back = await http.put(f"{Z}/example.net/nameservers", json={"ns": [{"name": n, "ip": []} for n in NS_DEFAULT]})
    assert back.json() == {"ns": [{"name": n, "ip": []} for n in NS_DEFAULT]}
    assert (await patch(http, "example.net", add(a("x", "192.0.2.1")))).status_code == 200
    ns = sorted(x["data"] for x in await records(http, "example.net", type="NS"))
    assert ns == [f"{n}." for n in NS_DEFAULT]  # the automatic NS records follow the name servers


async def test_rename_refresh_and_tsig_key(http, sandbox, clock):
    assert (await http.get(f"{D}/ssl-certificates/shop.example.com")).json()["status"] == "pending"
    renamed = await http.patch(
        f"{Z}/shop.example.com", json={"new_dns_zone": "store.example.com", "project_id": sandbox.project_id}
    )
    assert (
        renamed.json()["subdomain"] == "store" and (await http.get(f"{Z}/shop.example.com/records")).status_code == 404
    )
    clock.advance(30)
    assert (await http.get(f"{D}/ssl-certificates/store.example.com")).json()[
        "status"
    ] == "success"  # the certificate follows its zone
    assert args(await http.patch(f"{Z}/example.com", json={"new_dns_zone": "other.example.com"})) == {
        "new_dns_zone": "constraint"
    }
    await http.delete(f"{Z}/store.example.com/records")
    refreshed = (
        await http.post(f"{Z}/example.com/refresh", json={"recreate_dns_zone": False, "recreate_sub_dns_zone": True})
    ).json()
    assert {z["subdomain"] for z in refreshed["dns_zones"]} == {"", "store", "bulk"}
    assert len(await records(http, "store.example.com", type="NS")) == len(NS_DEFAULT)  # recreated
    key = (await http.get(f"{Z}/example.com/tsig-key")).json()
    assert key["algorithm"] == "hmac-sha512" and len(base64.b64decode(key["key"])) == 64
    assert (await http.get(f"{Z}/example.com/tsig-key")).json() == key
    assert (await http.delete(f"{Z}/example.com/tsig-key")).status_code == 200
    assert (await http.get(f"{Z}/example.com/tsig-key")).json()["key"] != key["key"]


async def test_a_certificate_is_issued_with_the_clock(http, clock):
    made = (
        await http.post(
            f"{D}/ssl-certificates", json={"dns_zone": "example.org", "alternative_dns_zones": ["mail.example.org"]}
        )
    ).json()
    assert made["status"] == "pending" and made["private_key"] == ""
    clock.advance(30)
    done = (await http.get(f"{D}/ssl-certificates/example.org")).json()
    assert done["status"] == "success" and "BEGIN CERTIFICATE" in done["certificate_chain"] and done["expired_at"]
    assert (await http.post(f"{D}/ssl-certificates", json={"dns_zone": "example.org"})).json() == done  # create or get
    listed = (await http.get(f"{D}/ssl-certificates", params={"dns_zone": "example.org"})).json()
    assert [c["dns_zone"] for c in listed["certificates"]] == ["example.org"] and listed["total_count"] == 1
    bad = await http.post(
        f"{D}/ssl-certificates", json={"dns_zone": "example.org", "alternative_dns_zones": ["elsewhere.example"]}
    )
    assert args(bad) == {"alternative_dns_zones.0": "constraint"}
    assert (await http.delete(f"{D}/ssl-certificates/example.org")).json() == {}
    assert (await http.get(f"{D}/ssl-certificates/example.org")).status_code == 404


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
