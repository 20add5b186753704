"""Bare-metal servers of the sandbox (spec 1 §2.7, §3, §4.3; spec/4 "Bare metal v1alpha1"): offers,
OS images, servers whose status and install status advance with the clock, events, management
-controller access and the reverse DNS of their IPs."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from tui.records import record

from ..collection import Collection
from ..core import public
from ..errors import invalid_request, transient_state
from ..lifecycle import Timeline
from ..product_store import ProductStore

if TYPE_CHECKING:
    from ..app import Sandbox

ZONES = ("fr-par-1", "fr-par-2", "nl-ams-1")
MAX_DESCRIPTION = 255
EVENT = "_event"  # a step's entry in the server's events


@record
class Timings:
    deliver: float = 30.0  # undelivered → ready after an order
    install_start: float = 3.0  # to_install → installing
    install: float = 20.0  # installing → completed
    power: float = 5.0  # stopping/starting, each half of a reboot
    delete: float = 5.0  # deleting → gone
    reverse: float = 4.0  # reverse_status pending → active
    remote_access: float = 3600.0  # how long a management-controller session lasts


OFFERS: list[dict[str, Any]] = [
    {
        "name": "EM-A115X-SSD",
        "stock": "available",
        "bandwidth": 1_000_000_000,
        "commercial_range": "aluminium",
        "price_per_sixty_minutes": {"currency_code": "EUR", "units": 0, "nanos": 110_000_000},
        "price_per_month": {"currency_code": "EUR", "units": 59, "nanos": 990_000_000},
        "cpu": [{"name": "AMD Ryzen PRO 3600", "core_count": 6, "thread_count": 12, "frequency": 3600}],
        "memory": [{"type": "DDR4", "capacity": 32_000_000_000, "frequency": 2666, "is_ecc": True}],
        "disk": [{"type": "SSD", "capacity": 1_000_000_000_000}, {"type": "SSD", "capacity": 1_000_000_000_000}],
    },
    {
        "name": "EM-B112X-SSD",
        "stock": "low",
        "bandwidth": 1_000_000_000,
        "commercial_range": "beryllium",
        "price_per_sixty_minutes": {"currency_code": "EUR", "units": 0, "nanos": 200_000_000},
        "price_per_month": {"currency_code": "EUR", "units": 109, "nanos": 990_000_000},
        "cpu": [{"name": "Intel Xeon E-2288G", "core_count": 8, "thread_count": 16, "frequency": 3700}],
        "memory": [{"type": "DDR4", "capacity": 64_000_000_000, "frequency": 2666, "is_ecc": True}],
        "disk": [{"type": "NVMe", "capacity": 1_920_000_000_000}, {"type": "NVMe", "capacity": 1_920_000_000_000}],
    },
    {
        "name": "EM-L105X-SATA",
        "stock": "available",
        "bandwidth": 500_000_000,
        "commercial_range": "lithium",
        "price_per_sixty_minutes": {"currency_code": "EUR", "units": 0, "nanos": 90_000_000},
        "price_per_month": {"currency_code": "EUR", "units": 44, "nanos": 990_000_000},
        "cpu": [{"name": "Intel Xeon E3-1230v6", "core_count": 4, "thread_count": 8, "frequency": 3500}],
        "memory": [{"type": "DDR4", "capacity": 32_000_000_000, "frequency": 2400, "is_ecc": True}],
        "disk": [{"type": "HDD", "capacity": 12_000_000_000_000}, {"type": "HDD", "capacity": 12_000_000_000_000}],
    },
    {
        "name": "EM-T210E-NVME",
        "stock": "empty",
        "bandwidth": 10_000_000_000,
        "commercial_range": "titanium",
        "price_per_sixty_minutes": {"currency_code": "EUR", "units": 0, "nanos": 750_000_000},
        "price_per_month": {"currency_code": "EUR", "units": 399, "nanos": 0},
        "cpu": [{"name": "AMD EPYC 7543", "core_count": 32, "thread_count": 64, "frequency": 2800}],
        "memory": [{"type": "DDR4", "capacity": 256_000_000_000, "frequency": 3200, "is_ecc": True}],
        "disk": [{"type": "NVMe", "capacity": 3_840_000_000_000}],
    },
]
# name, version, the offers' commercial ranges it installs on (None: every one)
OS_IMAGES = [
    ("Ubuntu", "24.04 LTS (Noble Numbat)", None),
    ("Debian", "12 (Bookworm)", None),
    ("Rocky Linux", "9", ("aluminium", "beryllium", "titanium")),
    ("Proxmox VE", "8", ("beryllium", "titanium")),
    ("Windows Server", "2022", ("titanium",)),
]


class BaremetalStore(ProductStore):
    t: Timings

    def __init__(self, sandbox: Sandbox) -> None:
        super().__init__(sandbox, "baremetal_timings", Timings)
        clock = self.clock
        self.offers: dict[str, dict[str, dict[str, Any]]] = {z: {} for z in ZONES}  # zone -> id -> offer
        self.os: dict[str, dict[str, Any]] = {}
        # Steps merge by time (a reverse DNS settles during an install); stamped when read.
        self.timeline = Timeline(clock, stamp_read=True, apply=self._apply_step)
        self.collection = Collection("baremetal_server", ZONES, self.timeline)
        self.servers = self.collection.items
        self.events: dict[str, list[dict[str, Any]]] = {}
        self.remote: dict[str, dict[str, Any]] = {}  # server id -> access
        self.networks: dict[str, dict[str, dict[str, Any]]] = {}  # server id -> private network id -> attachment
        self.gone = self.collection.deleted
        # Private-network attachments (attaching → attached, detaching → gone) and remote-access
        # sessions (gone when they expire).
        self.attachment_steps = Timeline(clock, stamp_read=True, on_gone=self._detached)
        self.access_steps = Timeline(clock, stamp=None, on_gone=lambda access: self.remote.pop(access["_server"], None))
        for z in ZONES:
            for offer in OFFERS:
                o = {"id": self.ids.uuid(), "zone": z, **offer}
                self.offers[z][o["id"]] = o
        for name, version, ranges in OS_IMAGES:
            oid = self.ids.uuid()
            self.os[oid] = {"id": oid, "name": name, "version": version, "_ranges": ranges}

    # ---- catalogue ------------------------------------------------------------------------------
    def offer(self, zone: str, offer_id: str) -> dict[str, Any] | None:
        return self.offers[zone].get(offer_id)

    def os_for(self, zone: str, offer_id: str | None) -> list[dict[str, Any]]:
        offer = self.offer(zone, offer_id) if offer_id else None
        out = []
        for os_ in self.os.values():
            if offer is None or os_["_ranges"] is None or offer["commercial_range"] in os_["_ranges"]:
                out.append(public(os_))
        return out

    # ---- servers --------------------------------------------------------------------------------
    def create(self, zone: str, body: dict[str, Any], status: str = "undelivered") -> dict[str, Any]:
        now = self.clock.now()
        sid = self.ids.uuid()
        s = {
            "id": sid,
            "organization_id": body.get("organization_id") or self.organization_id,
            "name": body["name"],
            "description": body.get("description") or "",
            "created_at": self.clock.iso(),
            "updated_at": self.clock.iso(),
            "status": status,
            "offer_id": body["offer_id"],
            "install": None,
            "tags": list(body.get("tags") or []),
            "ips": [],
            "domain": f"{sid[:8]}.dedibox.example",
            "boot_type": "normal",
            "zone": zone,
            "ping_status": "ping_status_down" if status == "undelivered" else "ping_status_up",
            "protected": bool(body.get("protected")),
            "user_data": body.get("user_data"),
            "_seq": sum(len(v) for v in self.servers.values()) + len(self.gone),
        }
        if status == "undelivered":
            self.timeline.plan(
                s, (self.t.deliver, {"status": "ready", "ping_status": "ping_status_up", EVENT: "delivered"}), start=now
            )
        rng = random.Random(sid)
        s["ips"] = [
            {
                "id": self.ids.uuid(),
                "address": f"51.159.{rng.randint(1, 254)}.{rng.randint(1, 254)}",
                "reverse": f"{sid[:8]}.dedibox.example",
                "version": "Ipv4",
                "reverse_status": "active",
                "reverse_status_message": None,
            },
            {
                "id": self.ids.uuid(),
                "address": f"2001:bc8:{rng.randint(4096, 65535):x}::1",
                "reverse": "",
                "version": "Ipv6",
                "reverse_status": "unknown",
                "reverse_status_message": None,
            },
        ]
        self.collection.add(s)
        self.event(sid, "order")
        return s

    def event(self, sid: str, action: str) -> None:
        self.events.setdefault(sid, []).append(
            {"id": sid, "action": action, "created_at": self.clock.iso(), "updated_at": self.clock.iso()}
        )

    def _apply_step(self, s: dict[str, Any], changes: dict[str, Any]) -> None:
        """A step's fields; `install` merges into the install, `ip:<id>` into that IP, and an
        `EVENT` is logged in the server's events."""
        for key, value in changes.items():
            if key == "install":
                s["install"] = {**(s["install"] or {}), **value}
            elif key.startswith("ip:"):
                for ip in s["ips"]:
                    if ip["id"] == key[3:]:
                        ip.update(value)
            elif key != EVENT:
                s[key] = value
        if changes.get(EVENT):
            self.event(s["id"], changes[EVENT])

    def plan(self, s: dict[str, Any], *steps: tuple[float, dict[str, Any]]) -> None:
        """Steps (each a delay after the one before) merged by time with what is under way."""
        self.timeline.plan(s, *steps, queue=False)
        s["updated_at"] = self.clock.iso()

    def get(self, zone: str, sid: str) -> dict[str, Any]:
        return self.collection.get(zone, sid)

    def busy(self, s: dict[str, Any]) -> bool:
        return self.timeline.planned(s) and s["status"] != "undelivered"

    def _detached(self, a: dict[str, Any]) -> None:
        self.networks.get(a["server_id"], {}).pop(a["private_network_id"], None)

    def delivered(self, s: dict[str, Any]) -> None:
        if s["status"] == "undelivered":
            raise invalid_request("Server is not delivered")
        if s["status"] in ("deleting", "locked"):
            raise transient_state("baremetal_server", s["id"], s["status"])

    def all(self) -> list[dict[str, Any]]:
        self.timeline.settle_due()
        return [s for zone in ZONES for s in self.servers[zone].values()]
