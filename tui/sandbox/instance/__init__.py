"""The Instance API of the sandbox (`/instance/v1/zones/{zone}`), every endpoint of spec 1 §4.2.

`state` holds the platform (servers, volumes, snapshots, images, IPs, security groups, placement
groups, NICs, user data) and its timed transitions; the route modules are thin HTTP layers over it.
"""

from __future__ import annotations

from starlette.routing import Route

from . import groups, network, servers, storage
from .state import ALLOWED_ACTIONS, GONE, InstanceStore, Timings

__all__ = ["ALLOWED_ACTIONS", "GONE", "InstanceStore", "Timings", "routes"]


def routes(store: InstanceStore) -> list[Route]:
    return [*servers.routes(store), *storage.routes(store), *network.routes(store), *groups.routes(store)]
