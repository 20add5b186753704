"""The key-value cache of the sandbox (`/kvcache/v1/zones/{zone}`): spec 2 §2.1, §3.1, §4.1, §8 and
spec/4 "Key-value cache"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..registry import SandboxProduct
from .routes import routes
from .store import ZONES, KvcacheStore, Timings

if TYPE_CHECKING:
    import random

__all__ = ["KvcacheStore", "PRODUCT", "Timings", "ZONES"]

DEMO_PASSWORD = "Demo-pass-42!"


def seed_demo(store: KvcacheStore, rng: random.Random) -> None:
    """A cluster in each state worth seeing, in three zones."""
    pn = "5b2b0d1e-7c1a-4f8e-9d3b-1a2b3c4d5e6f"
    store.create(
        "fr-par-1",
        {
            "name": "sessions",
            "version": "7.0.5",
            "node_type": "RED1-M",
            "user_name": "app",
            "password": DEMO_PASSWORD,
            "cluster_size": 3,
            "tls_enabled": True,
            "tags": ["prod"],
            "acl_rules": [{"ip_cidr": "10.0.0.0/8", "description": "private"}],
            "endpoints": [
                {"private_network": {"id": pn, "service_ips": ["10.12.0.10/22", "10.12.0.11/22", "10.12.0.12/22"]}}
            ],
            "cluster_settings": [{"name": "maxclients", "value": "20000"}],
        },
        ready=True,
        age=40 * 86_400,
    )
    store.create(
        "fr-par-1",
        {
            "name": "cache-web",
            "version": "6.2.7",
            "node_type": "RED1-S",
            "user_name": "web",
            "password": DEMO_PASSWORD,
            "tags": ["web"],
            "acl_rules": [{"ip_cidr": "0.0.0.0/0", "description": "anywhere"}],
        },
        ready=True,
        age=90 * 86_400,
    )
    store.create(
        "fr-par-2",
        {
            "name": "rate-limits",
            "version": "7.0.5",
            "node_type": "RED1-MICRO",
            "user_name": "rl",
            "password": DEMO_PASSWORD,
            "tls_enabled": True,
        },
        ready=False,
    )
    c = store.create(
        "nl-ams-1",
        {
            "name": "queue-ams",
            "version": "7.0.5",
            "node_type": "RED1-S",
            "user_name": "q",
            "password": DEMO_PASSWORD,
            "cluster_size": 3,
        },
        ready=True,
        age=10 * 86_400,
    )
    store.migrate(c, {"node_type": "RED1-M"})


def seed_scale(store: KvcacheStore, rng: random.Random, count: int) -> None:
    for n in range(max(1, count // 100)):
        store.create(
            "fr-par-1",
            {
                "name": f"kv-{n:05d}",
                "version": "7.0.5",
                "node_type": "RED1-MICRO",
                "user_name": "u",
                "password": DEMO_PASSWORD,
            },
            ready=True,
        )


PRODUCT = SandboxProduct("kvcache", "/kvcache/", KvcacheStore, routes, seed_demo=seed_demo, seed_scale=seed_scale)
