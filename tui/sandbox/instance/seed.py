"""Deterministic demo data: a small, believable fleet spread over several zones, with volumes,
snapshots, flexible IPs, security groups, a placement group, private NICs and user data."""

from __future__ import annotations

import random
import uuid
from typing import Any

from .. import catalog
from .state import InstanceStore

DAY = 86400.0
GB = catalog.GB

# zone -> (name, type, image label, state, tags)
DEMO_SERVERS: dict[str, list[tuple[str, str, str, str, list[str]]]] = {
    "fr-par-1": [
        ("web-01", "PRO2-XS", "ubuntu_noble", "running", ["web", "prod"]),
        ("web-02", "PRO2-XS", "ubuntu_noble", "running", ["web", "prod"]),
        ("api-gateway", "PRO2-S", "debian_bookworm", "running", ["api", "prod"]),
        ("worker-batch-1", "GP1-XS", "ubuntu_jammy", "running", ["batch"]),
        ("worker-batch-2", "GP1-XS", "ubuntu_jammy", "stopped", ["batch"]),
        ("ci-runner", "DEV1-L", "docker", "running", ["ci"]),
        ("staging-web", "DEV1-M", "ubuntu_noble", "stopped in place", ["staging"]),
        ("bastion", "PLAY2-NANO", "debian_bookworm", "running", ["ops"]),
    ],
    "fr-par-2": [
        ("db-replica", "PRO2-XS", "rockylinux_9", "running", ["db", "prod"]),
        ("gpu-train-1", "GPU-3070-S", "ubuntu_jammy", "stopped", ["ml"]),
        ("legacy-crm", "DEV1-S", "debian_bookworm", "locked", ["legacy"]),
    ],
    "nl-ams-1": [
        ("web-ams-01", "PRO2-XXS", "ubuntu_noble", "running", ["web", "prod"]),
        ("web-ams-02", "PRO2-XXS", "ubuntu_noble", "running", ["web", "prod"]),
        ("cache-warm", "DEV1-M", "fedora_41", "stopped", ["cache"]),
        ("arm-builder", "COPARM1-2C-8G", "ubuntu_noble_arm", "running", ["ci", "arm"]),
    ],
    "pl-waw-1": [
        ("monitoring", "PRO2-XXS", "debian_bookworm", "running", ["ops"]),
        ("backup-target", "DEV1-L", "rockylinux_9", "stopped", ["ops", "backup"]),
    ],
}
# Private networks belong to another API; the demo's NICs use these stable IDs.
PN_BACKEND = str(uuid.uuid5(uuid.NAMESPACE_URL, "demo-pn-backend"))
PN_ADMIN = str(uuid.uuid5(uuid.NAMESPACE_URL, "demo-pn-admin"))


def _volumes(store: InstanceStore, ctype: str, image: dict) -> dict[str, dict]:
    t = store.types[ctype]
    if catalog.supports_local(t):
        return {"0": {"size": t["volumes_constraint"]["max_size"], "volume_type": "l_ssd", "boot": True}}
    return {"0": {"size": image["root_volume"]["size"], "volume_type": "sbs_volume", "boot": True}}


def seed_demo(store: InstanceStore, rng: random.Random) -> None:
    now = store.clock.now()
    by_name = {}
    for zone, servers in DEMO_SERVERS.items():
        for name, ctype, label, state, tags in servers:
            image = store.resolve_image(zone, label)
            assert image is not None
            created = now - rng.uniform(2, 400) * DAY
            volumes = _volumes(store, ctype, image)
            if name in ("api-gateway", "db-replica"):
                volumes["1"] = {"name": f"{name}-data", "size": 100 * GB, "volume_type": "b_ssd"}
            by_name[name] = store.add_server(
                zone, name, ctype, image, state=state, tags=tags, volumes=volumes, created_at=created
            )
    _extras(store, by_name)


def _extras(store: InstanceStore, servers: dict[str, dict]) -> None:
    z = "fr-par-1"
    archive = store.new_volume(z, "archive-2025", "b_ssd", 200 * GB, tags=["archive"])
    store.new_volume(z, "scratch", "l_ssd", 20 * GB)
    data = next(v for v in store.volumes[z].values() if v["name"] == "api-gateway-data")
    for name, vol in (("api-gateway-data-nightly", data), ("archive-2025-initial", archive)):
        snap: dict[str, Any] = {
            "id": store.ids.uuid(),
            "name": name,
            "volume_type": vol["volume_type"],
            "size": vol["size"],
            "state": "available",
            "base_volume": {"id": vol["id"], "name": vol["name"]},
            "organization": store.organization,
            "project": store.project,
            "tags": [],
            "creation_date": store.clock.iso(),
            "modification_date": store.clock.iso(),
            "error_reason": None,
            "zone": z,
        }
        store.snapshots[z][snap["id"]] = snap
    # Flexible IPs: one on web-01 (it replaced the dynamic one), one spare.
    for address, server in (("163.172.10.11", servers["web-01"]), ("163.172.10.12", None)):
        ip: dict[str, Any] = {
            "id": store.ids.uuid(),
            "address": address,
            "reverse": "web-01.example.com" if server else None,
            "server": None,
            "organization": store.organization,
            "project": store.project,
            "zone": z,
            "type": "routed_ipv4",
            "state": "detached",
            "tags": ["prod"] if server else [],
            "prefix": None,
        }
        store.ips[z][ip["id"]] = ip
        if server is not None:
            ip["server"] = {"id": server["id"], "name": server["name"]}
            ip["state"] = "attached"
            server["flexible_ips"] = [ip["id"]]
            server["dynamic_ips"] = []
    # A security group for the web servers, dropping inbound traffic except HTTP(S) and SSH.
    sg = store.new_security_group(
        z,
        store.ids.uuid(),
        "web-public",
        "HTTP and HTTPS from anywhere, SSH from the office",
        inbound_default_policy="drop",
        tags=["web"],
    )
    for i, (proto, port, ip_range) in enumerate(
        (("TCP", 80, "0.0.0.0/0"), ("TCP", 443, "0.0.0.0/0"), ("TCP", 22, "198.51.100.0/24")), 1
    ):
        sg["rules"].append(
            {
                "id": store.ids.uuid(),
                "protocol": proto,
                "direction": "inbound",
                "action": "accept",
                "ip_range": ip_range,
                "dest_port_from": port,
                "dest_port_to": None,
                "position": i,
                "editable": True,
                "zone": z,
            }
        )
    pg: dict[str, Any] = {
        "id": store.ids.uuid(),
        "name": "web-spread",
        "organization": store.organization,
        "project": store.project,
        "policy_type": "max_availability",
        "policy_mode": "optional",
        "tags": ["web"],
        "creation_date": store.clock.iso(),
        "modification_date": store.clock.iso(),
        "zone": z,
    }
    store.placement_groups[z][pg["id"]] = pg
    for name in ("web-01", "web-02"):
        servers[name]["security_group"] = sg["id"]
        servers[name]["placement_group"] = pg["id"]
    for name, pn in (("api-gateway", PN_BACKEND), ("worker-batch-1", PN_BACKEND), ("api-gateway", PN_ADMIN)):
        nic: dict[str, Any] = {
            "id": store.ids.uuid(),
            "server_id": servers[name]["id"],
            "private_network_id": pn,
            "mac_address": "02:00:00:00:%02x:%02x" % (len(store.nics[z]), 1),
            "state": "available",
            "tags": [],
            "creation_date": store.clock.iso(),
            "modification_date": store.clock.iso(),
            "zone": z,
        }
        store.nics[z][nic["id"]] = nic
    store.user_data[servers["web-01"]["id"]] = {"cloud-init": b"#cloud-config\npackages:\n  - nginx\n"}
    # A private image of the project (made from a nightly snapshot): editable, unlike the marketplace's.
    base = next(s for s in store.snapshots[z].values() if s["name"] == "api-gateway-data-nightly")
    golden = {**base, "id": store.ids.uuid(), "name": "gateway-golden-root", "tags": ["golden"]}
    store.snapshots[z][golden["id"]] = golden
    store.new_image(
        z,
        "gateway-golden",
        "x86_64",
        {"id": golden["id"], "name": golden["name"], "size": golden["size"], "volume_type": golden["volume_type"]},
        public=False,
        tags=["golden"],
    )
    # An open door for the advisor: SSH opened to every address "for a test" on nl-ams-1's default group,
    # and left. Its id is made, not drawn, so that the demo's other ids stay as they were.
    ams = next((g for g in store.security_groups["nl-ams-1"].values() if g["project_default"]), None)
    if ams is not None:
        ams["rules"].append(
            {
                "id": "5ec0a11e-0000-4000-8000-000000000022",
                "protocol": "TCP",
                "direction": "inbound",
                "action": "accept",
                "ip_range": "0.0.0.0/0",
                "dest_port_from": 22,
                "dest_port_to": None,
                "position": len(ams["rules"]) + 1,
                "editable": True,
                "zone": "nl-ams-1",
            }
        )
    for server in servers.values():
        store._touch(server["zone"], server["id"])


def seed_scale(store: InstanceStore, rng: random.Random, count: int, zone: str = "fr-par-1") -> None:
    """`count` stable running servers in one zone, for benchmarks."""
    now = store.clock.now()
    image = store.resolve_image(zone, "ubuntu_noble")
    assert image is not None
    types = ["PRO2-XXS", "PRO2-XS", "DEV1-S", "DEV1-M", "PLAY2-NANO"]
    roles = ["web", "api", "worker", "cache", "db", "batch", "edge"]
    for i in range(count):
        ctype = types[i % len(types)]
        role = roles[i % len(roles)]
        store.add_server(
            zone,
            f"{role}-{i:05d}",
            ctype,
            image,
            state="running",
            tags=[role, "fleet"],
            volumes=_volumes(store, ctype, image),
            created_at=now - (count - i) * 60.0,
        )
