"""What the advisor looks for in databases (`products.kit.advice`): an instance whose ACL lets every
address in."""

from __future__ import annotations

from ..kit.advice import OpenToWorld

RULES = (
    OpenToWorld(
        "rdb.acl-open-to-world",
        "A database instance reachable from every address",
        "Open doors",
        "warning",
        "rdb.acls",
        field="ip",
        what="its ACL accepts every address (0.0.0.0/0): anyone can try its passwords",
    ),
)
