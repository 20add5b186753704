"""The sandbox's DNS domains and zones (`/domain/v2beta1`) against spec 3 §3, §7, §8 and spec/4 "DNS":
external domains validated or expiring, registration, a root zone kept, clone, zones served by other name
servers, rename, refresh, TSIG and certificates — each rule once, on the demo seeds, with the manual clock."""

from __future__ import annotations

import base64

import pytest

from helpers import args
from tui.sandbox import Sandbox
from tui.sandbox.dns.store import NS_DEFAULT, Timings
from dns_wire import D, Z, a, add, patch, records

pytestmark = pytest.mark.anyio


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
    # the zone's, and its sub-zones' (the demo's mail.example.org has one): no other zone's
    assert [c["dns_zone"] for c in listed["certificates"]] == ["example.org", "mail.example.org"]
    assert listed["total_count"] == 2
    bad = await http.post(
        f"{D}/ssl-certificates", json={"dns_zone": "example.org", "alternative_dns_zones": ["elsewhere.example"]}
    )
    assert args(bad) == {"alternative_dns_zones.0": "constraint"}
    assert (await http.delete(f"{D}/ssl-certificates/example.org")).json() == {}
    assert (await http.get(f"{D}/ssl-certificates/example.org")).status_code == 404
