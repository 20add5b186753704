"""DNS and domains of the sandbox (`/domain/v2beta1`, global): spec 3 §1, §2.1, §3, §4.1, §7, §8 and
spec/4 "DNS", with the paths the public clients call where the spec is silent.

`seed_demo` shows each state and rule worth seeing: a registered domain with every record type and
one record of each dynamic kind, an internationalised name, several versions and a certificate; a
domain about to expire; an external domain whose zone uses other name servers (its records cannot
be edited here); an external domain still `checking`; a sub-zone of 2,000 records. `seed_scale`
puts `count` records in the zone `SCALE_ZONE`, the product's most numerous kind.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..demo_links import address_of
from ..registry import SandboxProduct
from . import changes
from .routes import routes
from .store import DnsStore, Timings

if TYPE_CHECKING:
    import random

__all__ = ["DnsStore", "PRODUCT", "SCALE_ZONE", "Timings"]

SCALE_ZONE = "scale.example.com"
BULK_ZONE = "bulk.example.com"
DAY = 86_400.0
TLSA_HASH = "a3b1" * 16
OTHER_NS = ["ns1.other-dns.example", "ns2.other-dns.example"]

EXAMPLE_COM: list[dict[str, Any]] = [
    {"name": "", "type": "A", "data": "203.0.113.10"},
    {"name": "", "type": "AAAA", "data": "2001:db8::10"},
    {"name": "www", "type": "CNAME", "data": "example.com."},
    {"name": "", "type": "MX", "data": "mx1.example.com.", "priority": 10},
    {"name": "", "type": "MX", "data": "mx2.example.com.", "priority": 20},
    {"name": "mx1", "type": "A", "data": "203.0.113.25"},
    {"name": "mx2", "type": "A", "data": "203.0.113.26"},
    {"name": "", "type": "TXT", "data": "v=spf1 mx ~all"},
    {"name": "_dmarc", "type": "TXT", "data": "v=DMARC1; p=quarantine; rua=mailto:dmarc@example.com"},
    {"name": "_sip._tcp", "type": "SRV", "data": "5 5060 sip.example.com.", "priority": 10},
    {"name": "_443._tcp.www", "type": "TLSA", "data": f"3 1 1 {TLSA_HASH}"},
    {"name": "", "type": "CAA", "data": '0 issue "letsencrypt.org"'},
    {"name": "10.113.0.203.in-addr", "type": "PTR", "data": "example.com."},
    {"name": "edge", "type": "ALIAS", "data": "lb.example.net."},
    {"name": "lab", "type": "NS", "data": "ns1.lab-dns.example.", "ttl": 86_400},
    {"name": "xn--bcher-kva", "type": "A", "data": "203.0.113.30", "comment": "bücher"},
]
DYNAMIC = [
    {
        "name": "geo",
        "type": "A",
        "data": "203.0.113.40",
        "geo_ip_config": {
            "matches": [
                {"countries": ["FR", "BE"], "continents": [], "data": "203.0.113.41"},
                {"countries": [], "continents": ["NA"], "data": "198.51.100.41"},
            ],
            "default": "203.0.113.40",
        },
    },
    {
        "name": "api",
        "type": "A",
        "data": "203.0.113.50",
        "http_service_config": {
            "ips": ["203.0.113.50", "203.0.113.51"],
            "must_contain": "ok",
            "url": "https://api.example.com/health",
            "user_agent": "dns-check",
            "strategy": "random",
        },
    },
    {
        "name": "lb",
        "type": "A",
        "data": "203.0.113.60",
        "weighted_config": {
            "weighted_ips": [{"ip": "203.0.113.60", "weight": 80}, {"ip": "203.0.113.61", "weight": 20}]
        },
    },
    {
        "name": "intranet",
        "type": "A",
        "data": "203.0.113.70",
        "view_config": {
            "views": [{"subnet": "10.0.0.0/8", "data": "10.1.2.3"}, {"subnet": "192.168.0.0/16", "data": "192.168.1.3"}]
        },
    },
]


def _edit(store: DnsStore, zone: dict[str, Any], edits: list[dict[str, Any]], age: float) -> None:
    """A seeded edit, applied as a request would (a version of its own, `age` seconds ago)."""
    records, _ = changes.apply(zone["_records"], edits, store.uuid, store.iso(store.clock.now() - age))
    store.commit(zone, records, at=store.clock.now() - age)


def _record_id(zone: dict[str, Any], name: str, rtype: str) -> str:
    return next(r["id"] for r in zone["_records"].values() if r["name"] == name and r["type"] == rtype)


def seed_demo(store: DnsStore, rng: random.Random) -> None:
    now = store.clock.now()
    store.add_domain("example.com", external=False, age=400 * DAY, expires_in=330 * DAY)
    com = store.add_zone("example.com", "", age=400 * DAY)
    store.put_records(com, EXAMPLE_COM, at=now - 399 * DAY)
    _edit(store, com, [{"add": {"records": DYNAMIC}}], age=30 * DAY)
    _edit(
        store,
        com,
        [{"set": {"id": _record_id(com, "www", "CNAME"), "records": [{"ttl": 600, "data": "example.com."}]}}],
        age=7 * DAY,
    )
    _edit(store, com, [{"add": {"records": [{"name": "old", "type": "A", "data": "203.0.113.99"}]}}], age=3 * DAY)
    _edit(
        store,
        com,
        [
            {"delete": {"id_fields": {"name": "old", "type": "A"}}},
            {"add": {"records": [{"name": "status", "type": "CNAME", "data": "status.provider.example."}]}},
        ],
        age=DAY,
    )
    store.create_certificate(com, ["www.example.com"], age=20 * DAY)
    shop = store.add_zone("example.com", "shop", age=90 * DAY)
    store.put_records(
        shop,
        [
            {"name": "", "type": "A", "data": "203.0.113.80"},
            # the demo's Instance servers by name (the load balancer sends to the same addresses)
            {"name": "web1", "type": "A", "data": address_of(store.sandbox, "web-01", "203.0.113.81")},
            {"name": "api", "type": "A", "data": address_of(store.sandbox, "api-gateway", "203.0.113.82")},
            {"name": "www", "type": "CNAME", "data": "shop.example.com."},
        ],
        at=now - 90 * DAY,
    )
    bulk = store.add_zone("example.com", "bulk", age=60 * DAY)
    store.put_records(
        bulk,
        [{"name": f"host-{n:04d}", "type": "A", "data": f"10.0.{n // 250}.{n % 250 + 1}"} for n in range(2000)],
        at=now - 60 * DAY,
    )

    store.add_domain(
        "example.org", external=False, status="expiring", age=700 * DAY, expires_in=12 * DAY, auto_renew="disabled"
    )
    org = store.add_zone("example.org", "", age=700 * DAY)
    store.put_records(
        org,
        [
            {"name": "", "type": "A", "data": "198.51.100.20"},
            {"name": "", "type": "MX", "data": "mail.example.org.", "priority": 10},
            {"name": "", "type": "TXT", "data": "v=spf1 a mx -all"},
        ],
        at=now - 700 * DAY,
    )
    mail = store.add_zone("example.org", "mail", age=200 * DAY)
    store.put_records(
        mail,
        [{"name": "", "type": "A", "data": "198.51.100.25"}, {"name": "", "type": "AAAA", "data": "2001:db8:25::1"}],
        at=now - 200 * DAY,
    )
    store.create_certificate(mail, [], age=75 * DAY)  # issued 75 days ago, for 90: expiring (the advisor says so)

    store.add_domain("example.net", external=True, age=120 * DAY)
    net = store.add_zone("example.net", "", age=120 * DAY)
    store.put_records(
        net,
        [{"name": "", "type": "A", "data": "192.0.2.10"}, {"name": "lb", "type": "A", "data": "192.0.2.11"}],
        at=now - 119 * DAY,
    )
    store.set_nameservers(
        net, [(OTHER_NS[0], ["192.0.2.53"]), (OTHER_NS[1], [])]
    )  # records are edited at its own name servers

    store.register_external("xn--bcher-kva.example", None, age=2 * 3600, auto=False)  # bücher.example, still checking
    store.create_certificate(shop, [], age=0)  # pending, then success


def seed_scale(store: DnsStore, rng: random.Random, count: int) -> None:
    """`count` records in `SCALE_ZONE`, its two NS records included (made, with its domain, if the
    demo did not seed them)."""
    if "example.com" not in store.domains:
        store.add_domain("example.com", external=False, age=400 * DAY, expires_in=330 * DAY)
        store.add_zone("example.com", "", age=400 * DAY)
    zone = store.zones.get(SCALE_ZONE) or store.add_zone("example.com", "scale", age=DAY)
    store.put_records(
        zone,
        (
            {"name": f"host-{n:05d}", "type": "A", "data": f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"}
            for n in range(max(0, count - 2))
        ),
    )


PRODUCT = SandboxProduct("dns", "/domain/", DnsStore, routes, seed_demo=seed_demo, seed_scale=seed_scale)
