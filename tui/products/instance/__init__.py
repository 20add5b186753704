"""The Instance product (spec 1 §4.2): servers, volumes, snapshots, images, flexible IPs, security
groups, placement groups and instance types. `manifest` lists its views; each kind's module holds
what its list needs and nothing that imports pydantic; forms and flows load on first use."""

from __future__ import annotations
