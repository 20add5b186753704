"""What the advisor looks for in the key-value cache (`products.kit.advice`): a cluster whose ACL lets
every address in."""

from __future__ import annotations

from ..kit.advice import OpenToWorld

RULES = (
    OpenToWorld(
        "kvcache.acl-open-to-world",
        "A cache cluster reachable from every address",
        "Open doors",
        "warning",
        "kvcache.clusters",
        field="acl_rules.ip_cidr",
        what="its ACL accepts every address (0.0.0.0/0)",
    ),
)
