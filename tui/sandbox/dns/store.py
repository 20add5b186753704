"""The DNS sandbox's state (`/domain/v2beta1`, global): domains, zones with their records and
versions, name servers, TSIG keys and TLS certificates (spec 3 §2.1, §3, §8; spec/4 "DNS").

Time-driven changes go through three `Timeline`s, settled before every request is answered:
- a zone created by a request is `pending`, then `active` after `Timings.zone_ready`;
- a certificate is `pending`, then `success` (with its key and chain) after `Timings.certificate`;
- an external domain is `checking` after registration, its root zone `pending`. The owner proves
  ownership by publishing a TXT record holding the registration's `validation_token` in the
  domain's root zone (the sandbox stands in for the public DNS): `Timings.check` seconds after the
  first records change that publishes it, the domain is `active` and its root zone too. Without
  it, the domain is `expired` 48 hours after registration (spec 3 §8), its root zone in `error`.
  With `Timings.auto_validate` set, a registration also validates by itself after that many
  seconds (off by default).
Every change of a zone's records (a PATCH, a clear, an import, a restore, a clone onto it, a change
of its name servers) is a new version; a zone keeps its last 100 (spec 3 §8). A version holds the
zone's records as of then; records are never changed in place, so versions share them.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from typing import TYPE_CHECKING, Any, Iterable

from tui.records import record

from ..core import Ids
from ..errors import HttpError, or_not_found, precondition_failed
from ..lifecycle import Timeline
from ..product_store import ProductStore
from .names import same_hosts, zone_name

if TYPE_CHECKING:
    from ..app import Sandbox

Obj = dict[str, Any]

NS_DEFAULT = ["ns0.dns.sandbox.example", "ns1.dns.sandbox.example"]  # spec 3's {dns_server_1}, {dns_server_2}
NS_TTL = 86_400
VERSIONS_KEPT = 100  # spec 3 §8
VALIDATION_WINDOW = 48 * 3600.0  # spec 3 §3, §8
CERT_LIFETIME = 90 * 86_400.0
TSIG_ALGORITHM = "hmac-sha512"


@record
class Timings:
    zone_ready: float = 10.0  # a created zone: pending → active
    certificate: float = 30.0  # a certificate: pending → success
    check: float = 60.0  # validation TXT record published → domain active
    auto_validate: float | None = None  # a registration validates by itself after this long (None: only by TXT record)


def not_default_ns(zone: Obj) -> HttpError:
    """412: records are edited only in a zone that uses the default name servers (spec 3 §4.1)."""
    return precondition_failed(
        "default_name_servers_required",
        f"the zone {zone['_name']} does not use the default name servers ({', '.join(zone['ns_default'])}): "
        f"its records are edited at its own name servers ({', '.join(zone['ns'])})",
    )


def pem(kind: str, seed: str, lines: int = 6) -> str:
    """A PEM block of the right shape (not a real key or certificate), the same for the same seed."""
    raw = b"".join(hashlib.sha512(f"{seed}:{n}".encode()).digest() for n in range(lines))
    body = base64.b64encode(raw).decode()
    return (
        f"-----BEGIN {kind}-----\n"
        + "\n".join(body[i : i + 64] for i in range(0, len(body), 64))
        + f"\n-----END {kind}-----\n"
    )


class DnsStore(ProductStore):
    t: Timings

    def __init__(self, sandbox: Sandbox) -> None:
        super().__init__(sandbox, "dns_timings", Timings)
        self.ids = Ids("dns")  # its own ids: seeding thousands of records moves no other product's ids
        self.domains: dict[str, Obj] = {}
        self.zones: dict[str, Obj] = {}  # by full name: "shop.example.com"
        self.versions: dict[str, tuple[Obj, Obj]] = {}  # version id -> (zone, version)
        self.certificates: dict[str, Obj] = {}  # by zone name
        self.tsig: dict[str, Obj] = {}  # by zone name
        self.domain_line = Timeline(self.clock, stamp=None, apply=self._domain_step)
        self.zone_line = Timeline(self.clock)
        self.cert_line = Timeline(self.clock, stamp=None)

    def uuid(self) -> str:
        """A version-4 UUID from the product's seeded generator (formatted directly: seeding makes
        thousands of them)."""
        n = self.ids.rng.getrandbits(128) & ~(0xF000 << 64) & ~(0xC000 << 48) | (0x4000 << 64) | (0x8000 << 48)
        h = f"{n:032x}"
        return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"

    def iso(self, at: float | None = None) -> str:
        return self.clock.iso(at)

    def settle(self) -> None:
        """Apply every step the clock has reached (called before each request is answered)."""
        for line in (self.domain_line, self.zone_line, self.cert_line):
            line.settle_due()

    # ---- domains --------------------------------------------------------------------------------
    def add_domain(
        self,
        name: str,
        *,
        external: bool,
        status: str = "active",
        age: float = 0.0,
        expires_in: float | None = None,
        project_id: str | None = None,
        auto_renew: str = "enabled",
    ) -> Obj:
        at = self.clock.now() - age
        d = {
            "domain": name,
            "organization_id": self.organization_id,
            "project_id": project_id or self.project_id,
            "auto_renew_status": "feature_status_unknown" if external else auto_renew,
            "dnssec_status": "disabled",
            "epp_code": [] if external else ["clientTransferProhibited"],
            "expired_at": None if expires_in is None else self.iso(self.clock.now() + expires_in),
            "updated_at": self.iso(at),
            "registrar": "EXTERNAL" if external else "SANDBOX",
            "is_external": external,
            "status": status,
            "created_at": self.iso(at),
        }
        self.domains[name] = d
        return d

    def domain_of(self, name: str) -> Obj | None:
        """The registered domain a name belongs to (the domain itself or one of its sub-names)."""
        labels = name.split(".")
        for i in range(len(labels) - 1):
            d = self.domains.get(".".join(labels[i:]))
            if d is not None:
                return d
        return None

    def register_external(self, name: str, project_id: str | None, *, age: float = 0.0, auto: bool = True) -> Obj:
        d = self.add_domain(name, external=True, status="checking", age=age, project_id=project_id)
        token = self.uuid()
        d["_token"] = token
        d["external_domain_registration_status"] = {"validation_token": token}
        start = self.clock.now() - age
        self.domain_line.plan(d, (VALIDATION_WINDOW, {"status": "expired"}), start=start)
        if auto and self.t.auto_validate is not None:
            self.domain_line.plan(d, (self.t.auto_validate, {"status": "active"}), start=start, queue=False)
        self.add_zone(name, "", status="pending", age=age, project_id=project_id)
        return d

    def _domain_step(self, d: Obj, changes: dict[str, Any]) -> None:
        """Validation or expiry of an external domain: only one of them happens."""
        if d["status"] != "checking":
            return
        d["status"] = changes["status"]
        d["updated_at"] = self.iso()
        d.pop("external_domain_registration_status", None)
        root = self.zones.get(d["domain"])
        if root is not None:
            self.zone_line.cancel(root)
            valid = changes["status"] == "active"
            root["status"] = "active" if valid else "error"
            root["message"] = None if valid else "the domain was not validated within 48 hours of its registration"
            root["updated_at"] = d["updated_at"]

    def _published(self, zone: Obj) -> None:
        """Plan the validation of a `checking` domain once its root zone holds its token."""
        d = self.domains.get(zone["domain"])
        if d is None or d["status"] != "checking" or d.get("_published") or zone["subdomain"]:
            return
        if any(r["type"] == "TXT" and r["data"].strip().strip('"') == d["_token"] for r in zone["_records"].values()):
            d["_published"] = True
            self.domain_line.plan(d, (self.t.check, {"status": "active"}), queue=False)

    def delete_domain(self, d: Obj) -> None:
        self.domain_line.cancel(d)
        del self.domains[d["domain"]]
        for z in [z for z in self.zones.values() if z["domain"] == d["domain"]]:
            self.drop_zone(z)

    # ---- zones ----------------------------------------------------------------------------------
    def add_zone(
        self,
        domain: str,
        subdomain: str,
        *,
        status: str = "active",
        age: float = 0.0,
        project_id: str | None = None,
        ns: list[str] | None = None,
    ) -> Obj:
        """A zone holding its automatic NS records (its first version)."""
        at = self.clock.now() - age
        name = zone_name(domain, subdomain)
        z: Obj = {
            "domain": domain,
            "subdomain": subdomain,
            "ns": list(ns or NS_DEFAULT),
            "ns_default": list(NS_DEFAULT),
            "ns_master": [],
            "status": status,
            "message": None,
            "updated_at": self.iso(at),
            "project_id": project_id or self.project_id,
            "linked_products": [],
            "_name": name,
            "_records": {},
            "_versions": [],
            "_glue": {},
            "_created": at,
            "_rev": 0,
            "_sorted": {},
        }
        self.zones[name] = z
        self.commit(z, self.with_ns(z, {}), at=at)
        return z

    def create_zone(self, domain: str, subdomain: str, project_id: str | None) -> Obj:
        z = self.add_zone(domain, subdomain, status="pending", project_id=project_id)
        self.zone_line.plan(z, (self.t.zone_ready, {"status": "active"}))
        return z

    def zone(self, name: str) -> Obj:
        return or_not_found(self.zones.get(name), "dns_zone", name)

    def sub_zones(self, z: Obj) -> list[Obj]:
        return [s for s in self.zones.values() if s["_name"].endswith("." + z["_name"])]

    def drop_zone(self, z: Obj) -> None:
        self.zone_line.cancel(z)
        self.zones.pop(z["_name"], None)
        for v in z["_versions"]:
            self.versions.pop(v["id"], None)
        cert = self.certificates.pop(z["_name"], None)
        if cert is not None:
            self.cert_line.cancel(cert)
        self.tsig.pop(z["_name"], None)

    def rename(self, z: Obj, new_name: str) -> None:
        old = z["_name"]
        del self.zones[old]
        z["_name"], z["subdomain"] = new_name, new_name[: -len(z["domain"]) - 1]
        z["updated_at"] = self.iso()
        self.zones[new_name] = z
        if old in self.certificates:
            cert = self.certificates[new_name] = self.certificates.pop(old)
            cert["dns_zone"] = new_name  # the same object: its timeline still settles it
        if old in self.tsig:
            self.tsig[new_name] = self.tsig.pop(old)

    def uses_default_ns(self, z: Obj) -> bool:
        return same_hosts(z["ns"], z["ns_default"])

    def editable(self, z: Obj) -> Obj:
        """The zone, if its records may be edited here (412 otherwise)."""
        if not self.uses_default_ns(z):
            raise not_default_ns(z)
        return z

    # ---- records and versions -------------------------------------------------------------------
    def ns_record(self, z: Obj, host: str) -> Obj:
        rid = self.uuid()
        return {
            "id": rid,
            "name": "",
            "data": host.removesuffix(".") + ".",
            "type": "NS",
            "ttl": NS_TTL,
            "priority": 0,
            "comment": None,
            "updated_at": self.iso(),
        }

    def with_ns(self, z: Obj, records: dict[str, Obj], drop: Iterable[str] = ()) -> dict[str, Obj]:
        """`records` with the zone's automatic NS records (one per name server at the root), the root
        NS records of the servers in `drop` removed."""
        gone = {h.lower().removesuffix(".") for h in drop}
        out = {
            rid: r
            for rid, r in records.items()
            if not (r["name"] == "" and r["type"] == "NS" and r["data"].removesuffix(".") in gone)
        }
        have = {r["data"].removesuffix(".") for r in out.values() if r["name"] == "" and r["type"] == "NS"}
        for host in z["ns"]:
            if host.removesuffix(".") not in have:
                rec = self.ns_record(z, host)
                out[rec["id"]] = rec
        return out

    def commit(self, z: Obj, records: dict[str, Obj], at: float | None = None) -> Obj:
        """The zone's records become `records`: a new version, the oldest dropped beyond 100."""
        when = self.clock.now() if at is None else at
        z["_records"] = records
        z["_rev"] += 1
        z["_sorted"] = {}
        z["updated_at"] = self.iso(when)
        v: Obj = {"id": self.uuid(), "created_at": self.iso(when), "_records": tuple(records.values())}
        z["_versions"].append(v)
        self.versions[v["id"]] = (z, v)
        while len(z["_versions"]) > VERSIONS_KEPT:
            self.versions.pop(z["_versions"].pop(0)["id"], None)
        self._published(z)
        return v

    def put_records(self, z: Obj, contents: Iterable[dict[str, Any]], at: float | None = None) -> Obj:
        """Seeds: add records already known to be valid, as one version."""
        stamp = self.iso(at)
        records = dict(z["_records"])
        for c in contents:
            rid = self.uuid()
            rec = {
                "id": rid,
                "name": c["name"],
                "data": c["data"],
                "type": c["type"],
                "ttl": c.get("ttl", 3600),
                "priority": c.get("priority", 0),
                "comment": c.get("comment"),
                "updated_at": stamp,
            }
            if len(c) > 3:
                rec.update((k, v) for k, v in c.items() if k.endswith("_config"))
            records[rid] = rec
        return self.commit(z, records, at)

    def sorted_records(self, z: Obj, descending: bool) -> list[Obj]:
        """The zone's records by name (then type, data), kept until the zone next changes."""
        cached = z["_sorted"].get(descending)
        if cached is None:
            cached = sorted(z["_records"].values(), key=lambda r: (r["name"], r["type"], r["data"]), reverse=descending)
            z["_sorted"][descending] = cached
        return cached

    def version(self, vid: str) -> tuple[Obj, Obj]:
        return or_not_found(self.versions.get(vid), "dns_zone_version", vid)

    # ---- name servers, TSIG, certificates -------------------------------------------------------
    def nameservers(self, z: Obj) -> list[Obj]:
        return [{"name": n, "ip": list(z["_glue"].get(n, []))} for n in z["ns"]]

    def set_nameservers(self, z: Obj, entries: list[tuple[str, list[str]]]) -> None:
        old = list(z["ns"])
        z["ns"] = [name for name, _ in entries]
        z["_glue"] = {name: ips for name, ips in entries if ips}
        self.commit(z, self.with_ns(z, z["_records"], drop=old))

    def tsig_key(self, z: Obj) -> Obj:
        key = self.tsig.get(z["_name"])
        if key is None:
            secret = secrets.token_bytes(64)  # a key: never from the seeded generator the ids come from
            key = {
                "name": f"axfr-{self.uuid()[:8]}.{z['_name']}.",
                "key": base64.b64encode(secret).decode(),
                "algorithm": TSIG_ALGORITHM,
            }
            self.tsig[z["_name"]] = key
        return key

    def create_certificate(self, z: Obj, alternatives: list[str], age: float = 0.0) -> Obj:
        """A new certificate for the zone (or the one it has: create or get)."""
        existing = self.certificates.get(z["_name"])
        if existing is not None:
            return existing
        at = self.clock.now() - age
        c = {
            "dns_zone": z["_name"],
            "alternative_dns_zones": alternatives,
            "status": "pending",
            "private_key": "",
            "certificate_chain": "",
            "created_at": self.iso(at),
            "expired_at": None,
        }
        seed = f"{z['_name']}:{at}"
        done = {
            "status": "success",
            "private_key": pem("PRIVATE KEY", seed, 8),
            "certificate_chain": pem("CERTIFICATE", seed + ":leaf") + pem("CERTIFICATE", "sandbox-intermediate"),
            "expired_at": self.iso(at + self.t.certificate + CERT_LIFETIME),
        }
        self.cert_line.plan(c, (self.t.certificate, done), start=at)
        self.certificates[z["_name"]] = c
        return c
