"""The container registry of the sandbox (`/registry/v1/regions/{region}`): spec 3 §2.2, §4.2, §7,
§8 and spec/4 "Container registry". Images and tags are made by pushes (`RegistryStore.push`), as
the API itself has no create for them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..registry import SandboxProduct
from .routes import routes
from .store import REGIONS, RegistryStore, Timings, registry_host

if TYPE_CHECKING:
    import random

__all__ = ["PRODUCT", "REGIONS", "RegistryStore", "SCALE_IMAGE", "Timings", "registry_host"]

MB = 1_000_000
SCALE_NAMESPACE, SCALE_IMAGE = "scale", "many-tags"  # where `--scale N` puts N tags (fr-par)


def seed_demo(store: RegistryStore, rng: random.Random) -> None:
    """Namespaces public and private in two regions, images of each visibility, tags sharing a
    digest (`latest` is `v1.4.2`), and a namespace in each state worth seeing."""
    day = 86_400
    web = store.create_namespace("fr-par", "web", "Front-end images", age=200 * day)
    store.push(
        "fr-par",
        web,
        "frontend",
        ["v1.4.1", "v1.4.2", "latest"],
        182 * MB,
        age=30 * day,
        digest_of={"latest": "v1.4.2"},
    )
    store.push(
        "fr-par",
        web,
        "api",
        ["2026.11.02", "2026.11.20", "stable"],
        96 * MB,
        visibility="private",
        age=20 * day,
        digest_of={"stable": "2026.11.20"},
    )
    store.push("fr-par", web, "worker", ["v3"], 240 * MB, visibility="public", age=5 * day)
    tools = store.create_namespace("fr-par", "public-tools", "Tools anyone may pull", is_public=True, age=400 * day)
    store.push("fr-par", tools, "curl-tools", ["8.10", "latest"], 12 * MB, age=90 * day)
    old = store.create_namespace("fr-par", "old-builds", "Retired CI images", age=700 * day)
    store.push("fr-par", old, "ci-runner", ["2024"], 410 * MB, age=600 * day)
    store.namespaces.delete_later(old, 600)  # seen deleting for ten minutes of the demo
    broken = store.create_namespace("fr-par", "quarantine", "Images held for review", age=3 * day)
    broken.update(status="error", status_message="storage quota exceeded: push refused")
    ams = store.create_namespace("nl-ams", "ml-models", "Model serving images", age=60 * day)
    store.push("nl-ams", ams, "inference", ["cuda12", "cpu"], 3_400 * MB, age=10 * day)
    locked = store.create_namespace("pl-waw", "legal-hold", "Kept for an audit", age=100 * day)
    locked.update(status="locked", status_message="locked by the platform: contact support")


def seed_scale(store: RegistryStore, rng: random.Random, count: int) -> None:
    ns = store.create_namespace("fr-par", SCALE_NAMESPACE, "Scale test")
    store.push("fr-par", ns, SCALE_IMAGE, [f"build-{n:05d}" for n in range(count)], 50 * MB)


PRODUCT = SandboxProduct("registry", "/registry/", RegistryStore, routes, seed_demo=seed_demo, seed_scale=seed_scale)
