"""The Instance product (spec 1 §4.2): servers, volumes, snapshots, images, flexible IPs, security
groups, placement groups and instance types. Each kind's module holds what its list needs and
nothing that imports pydantic; forms and flows load on first use."""

from __future__ import annotations

from .network import IPS, PLACEMENT_GROUPS, SECURITY_GROUPS
from .servers import SERVERS
from .snapshots import IMAGES, SNAPSHOTS
from .types import TYPES
from .volumes import VOLUMES

KINDS = (SERVERS, VOLUMES, SNAPSHOTS, IMAGES, IPS, SECURITY_GROUPS, PLACEMENT_GROUPS, TYPES)
