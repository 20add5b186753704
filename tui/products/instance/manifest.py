"""The Instance product's views (imports nothing: targets load on first open)."""

from __future__ import annotations

from ..manifest import Entry

SECTION = "Compute"

_P = "tui.products.instance."
ENTRIES = (
    Entry("instance.servers", "Servers", "Instance", "zone", "list", _P + "servers:SERVERS", start=True,
          title="Instance servers"),
    Entry("instance.volumes", "Volumes", "Instance", "zone", "list", _P + "volumes:VOLUMES", title="Instance volumes"),
    Entry("instance.snapshots", "Snapshots", "Instance", "zone", "list", _P + "snapshots:SNAPSHOTS", title="Instance snapshots"),
    Entry("instance.images", "Images", "Instance", "zone", "list", _P + "snapshots:IMAGES", title="Instance images"),
    Entry("instance.ips", "Flexible IPs", "Instance", "zone", "list", _P + "network:IPS", title="Instance flexible IPs"),
    Entry("instance.security_groups", "Sec. groups", "Instance", "zone", "list", _P + "network:SECURITY_GROUPS", title="Instance security groups"),
    Entry("instance.placement_groups", "Placement", "Instance", "zone", "list", _P + "network:PLACEMENT_GROUPS", title="Instance placement groups"),
    Entry("instance.types", "Types", "Instance", "zone", "list", _P + "types:TYPES", title="Instance types"),
)
