"""The Instance product's views (imports nothing: targets load on first open)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..manifest import Entry

if TYPE_CHECKING:
    from ..kit.location import ScopeType

SECTION = "Compute"

_P = "tui.products.instance."
G = "Instance"  # the heading
Z: ScopeType = "zone"  # the scope type
ENTRIES = (
    Entry("instance.servers", "Servers", G, Z, "list", _P + "servers:SERVERS", start=True, title="Instance servers"),
    Entry("instance.volumes", "Volumes", G, Z, "list", _P + "volumes:VOLUMES", title="Instance volumes"),
    Entry("instance.snapshots", "Snapshots", G, Z, "list", _P + "snapshots:SNAPSHOTS", title="Instance snapshots"),
    Entry("instance.images", "Images", G, Z, "list", _P + "snapshots:IMAGES", title="Instance images"),
    Entry("instance.ips", "Flexible IPs", G, Z, "list", _P + "network:IPS", title="Instance flexible IPs"),
    Entry(
        "instance.security_groups",
        "Sec. groups",
        G,
        Z,
        "list",
        _P + "network:SECURITY_GROUPS",
        title="Instance security groups",
    ),
    Entry(
        "instance.placement_groups",
        "Placement",
        G,
        Z,
        "list",
        _P + "network:PLACEMENT_GROUPS",
        title="Instance placement groups",
    ),
    Entry("instance.types", "Types", G, Z, "list", _P + "types:TYPES", title="Instance types"),
)

# The advisor's rules for this product (`products.kit.advice`), imported when the advisor opens.
ADVICE = "tui.products.instance.advice:RULES"
