"""What the advisor looks for in DNS (`products.kit.advice`): records pointing at addresses no resource
read holds (a released address can be given to someone else: a takeover), domains and certificates
expiring within 30 days."""

from __future__ import annotations

from ..kit.advice import Expiring, PointsAtState, UnheldAddress

# The lists whose resources hold addresses (not those that point at them: records, backends, ACLs).
HOLDERS = (
    "instance.servers",
    "instance.ips",
    "baremetal.servers",
    "flexible_ip.fips",
    "silicon.servers",
    "lb.lbs",
    "rdb.instances",
    "kvcache.clusters",
)

RULES = (
    UnheldAddress(
        "dns.record-unheld-address",
        "A record pointing at an address nothing here holds",
        "Points at nothing we hold",
        "review",
        "dns.records",
        field="address",
        type_field="type",
        types=frozenset({"A", "AAAA"}),
        also=HOLDERS,
    ),
    PointsAtState(
        "dns.record-stopped-server",
        "A record pointing at a stopped server",
        "Broken links",
        "warning",
        "dns.records",
        field="address",
        type_field="type",
        types=frozenset({"A", "AAAA"}),
        states=frozenset({"stopped", "stopped in place"}),
        also=("instance.servers",),
    ),
    Expiring(
        "dns.domain-expiring",
        "A domain expiring",
        "Soon broken",
        "error",
        "dns.domains",
        field="expires",
        days=30,
        states=frozenset({"expiring", "expired"}),
    ),
    Expiring(
        "dns.certificate-expiring",
        "A certificate expiring",
        "Soon broken",
        "warning",
        "dns.certificates",
        field="expires",
        days=30,
        states=frozenset({"expired"}),
    ),
)
