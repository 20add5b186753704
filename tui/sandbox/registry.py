"""The sandbox's products, each registered once: its store, its routes, its auth scheme, its seeds.

A product is one package under `tui/sandbox/` exposing `PRODUCT` (a `SandboxProduct`); the
`Sandbox` builds every registered product's store (reachable as `sandbox.<name>`), mounts its
routes, checks its auth scheme on its path prefix, and seeds it. Tests register a product of their
own the same way (`register`, or `Sandbox(products=[...])`).
"""

from __future__ import annotations

import importlib
import random
from typing import TYPE_CHECKING, Any, Callable, Literal, Sequence

from tui.records import record

if TYPE_CHECKING:
    from starlette.responses import Response
    from starlette.routing import BaseRoute

    from .app import Sandbox

# The products every sandbox serves, by module (each exposes PRODUCT).
PRODUCT_MODULES = [
    "tui.sandbox.instance",
    "tui.sandbox.baremetal",
    "tui.sandbox.silicon",
    "tui.sandbox.flexible_ip",  # after bare metal: its seeds attach to bare-metal servers
    "tui.sandbox.rdb",
    "tui.sandbox.kvcache",
    "tui.sandbox.container_registry",
    "tui.sandbox.lb",
    "tui.sandbox.dns",
    "tui.sandbox.monitoring",
    "tui.sandbox.inference",
    "tui.sandbox.genai",
]


@record(frozen=True)
class SandboxProduct:
    name: str  # the store's attribute on the Sandbox: `sandbox.instance`
    prefix: str  # the path prefix it serves: "/instance/"
    make: Callable[[Sandbox], Any]  # (sandbox) -> its store
    routes: Callable[[Any], Sequence[BaseRoute]]  # (store) -> starlette routes
    auth: Literal["X-Auth-Token", "Bearer"] = "X-Auth-Token"
    seed_demo: Callable[[Any, random.Random], None] | None = None
    seed_scale: Callable[[Any, random.Random, int], None] | None = None
    # Other path prefixes it serves with their own scheme (an API reached with a bearer token).
    extra_auth: tuple[tuple[str, Literal["X-Auth-Token", "Bearer"]], ...] = ()
    # How a missing or wrong key is answered on its prefixes, when not with the platform's 401 body
    # (an API with error bodies of its own): (store, request path) -> the response.
    denied: Callable[[Any, str], Response] | None = None


_extra: list[SandboxProduct] = []


def register(product: SandboxProduct) -> None:
    if all(p.name != product.name for p in _extra):
        _extra.append(product)


def unregister(product: SandboxProduct) -> None:
    if product in _extra:
        _extra.remove(product)


def products() -> list[SandboxProduct]:
    found = [importlib.import_module(m).PRODUCT for m in PRODUCT_MODULES]
    return found + [p for p in _extra if p.name not in {f.name for f in found}]
