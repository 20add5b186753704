"""The Instance API of the sandbox (`/instance/v1/zones/{zone}`), every endpoint of spec 1 §4.2.

The domain is `state` (the store: servers, volumes, snapshots, images, IPs, security groups,
placement groups, NICs, user data, each kind's timed steps), `server_state` and `actions`; `seed`
fills it. The route modules are thin HTTP layers over the domain, which never imports them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.routing import Route

from ..registry import SandboxProduct
from . import groups, images, ips, network, servers, volumes
from .server_state import ALLOWED_ACTIONS
from .state import InstanceStore, Timings

if TYPE_CHECKING:
    import random

    from ..app import Sandbox

__all__ = ["ALLOWED_ACTIONS", "InstanceStore", "PRODUCT", "Timings", "routes"]


def routes(store: InstanceStore) -> list[Route]:
    return [
        *servers.routes(store),
        *volumes.routes(store),
        *images.routes(store),
        *ips.routes(store),
        *network.routes(store),
        *groups.routes(store),
    ]


def _make(sandbox: Sandbox) -> InstanceStore:
    return InstanceStore(
        sandbox.clock, sandbox.ids, sandbox.organization_id, sandbox.project_id, sandbox.options.get("timings")
    )


def _seed_demo(store: InstanceStore, rng: random.Random) -> None:
    from .seed import seed_demo

    seed_demo(store, rng)


def _seed_scale(store: InstanceStore, rng: random.Random, scale: int) -> None:
    from .seed import seed_scale

    seed_scale(store, rng, scale)


PRODUCT = SandboxProduct("instance", "/instance/", _make, routes, seed_demo=_seed_demo, seed_scale=_seed_scale)
