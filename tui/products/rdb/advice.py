"""What the advisor looks for in databases (`products.kit.advice`): an instance whose ACL lets every
address in, one whose disk is full, one whose automatic backups are off, backups past their expiry."""

from __future__ import annotations

from ..kit.advice import Expiring, Flagged, InState, OpenToWorld

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
    InState(
        "rdb.disk-full",
        "A database instance whose disk is full",
        "Soon broken",
        "error",
        "rdb.instances",
        states=frozenset({"disk_full"}),
        what="its disk is full: writes fail; free space, or move it to a larger volume (Upgrade)",
    ),
    Flagged(
        "rdb.backups-off",
        "A database instance without automatic backups",
        "Soon broken",
        "warning",
        "rdb.instances",
        field="backups_off",
        what="its automatic backups are disabled: nothing to restore if it is lost",
    ),
    Expiring(
        "rdb.backup-expired",
        "A backup past its expiry",
        "Paid for nothing",
        "review",
        "rdb.backups",
        fix="delete",
        field="expires",
        days=0,
    ),
)
