"""Deterministic demo data: a small, believable fleet spread over several zones."""

from __future__ import annotations

import random

from . import catalog
from .instance import InstanceStore

DAY = 86400.0

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


def _volumes(store: InstanceStore, ctype: str, image: dict) -> dict[str, dict]:
    t = store.types[ctype]
    if catalog.supports_local(t):
        return {"0": {"size": t["volumes_constraint"]["max_size"], "volume_type": "l_ssd", "boot": True}}
    return {"0": {"size": image["root_volume"]["size"], "volume_type": "sbs_volume", "boot": True}}


def seed_demo(store: InstanceStore, rng: random.Random) -> None:
    now = store.clock.now()
    for zone, servers in DEMO_SERVERS.items():
        for name, ctype, label, state, tags in servers:
            image = store.resolve_image(zone, label)
            assert image is not None
            created = now - rng.uniform(2, 400) * DAY
            store.add_server(zone, name, ctype, image, state=state, tags=tags, volumes=_volumes(store, ctype, image), created_at=created)


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
            zone, f"{role}-{i:05d}", ctype, image, state="running", tags=[role, "fleet"],
            volumes=_volumes(store, ctype, image), created_at=now - (count - i) * 60.0,
        )
