"""What the advisor looks for in the key-value cache (`products.kit.advice`): a cluster whose ACL lets
every address in, one whose version is past or near its end of life."""

from __future__ import annotations

from ..kit.advice import OpenToWorld, Outlived

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
    Outlived(
        "kvcache.version-end-of-life",
        "A cache version past or near its end of life",
        "Soon broken",
        "warning",
        "kvcache.clusters",
        also=("kvcache.versions",),
        field="version",
        versions="",
        name="version",
        end="end_of_life_at",
        days=90,
    ),
)
