"""The Instance product's views (imports nothing: targets load on first open)."""

from __future__ import annotations

from ..manifest import Entry

SECTION = "Compute"

_P = "tui.products.instance."
ENTRIES = (
    Entry("instance.servers", "Servers", "Instance", "zone", "list", _P + "servers:SERVERS", start=True),
    Entry("instance.volumes", "Volumes", "Instance", "zone", "list", _P + "volumes:VOLUMES"),
    Entry("instance.snapshots", "Snapshots", "Instance", "zone", "list", _P + "snapshots:SNAPSHOTS"),
    Entry("instance.images", "Images", "Instance", "zone", "list", _P + "snapshots:IMAGES"),
    Entry("instance.ips", "Flexible IPs", "Instance", "zone", "list", _P + "network:IPS"),
    Entry("instance.security_groups", "Sec. groups", "Instance", "zone", "list", _P + "network:SECURITY_GROUPS", title="Security groups"),
    Entry("instance.placement_groups", "Placement", "Instance", "zone", "list", _P + "network:PLACEMENT_GROUPS", title="Placement groups"),
    Entry("instance.types", "Types", "Instance", "zone", "list", _P + "types:TYPES", title="Instance types"),
)
