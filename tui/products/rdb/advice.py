"""What the advisor looks for in databases (`products.kit.advice`): an instance whose ACL lets every
address in, one whose disk is full, one whose automatic backups are off, one whose engine version is past
or near its end of life, backups past their expiry or older than the age set (`[advisor] backup_days`)."""

from __future__ import annotations

from ..kit.advice import Expiring, Flagged, InState, OlderThan, OpenToWorld, Outlived

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
    Outlived(
        "rdb.engine-end-of-life",
        "A database engine version past or near its end of life",
        "Soon broken",
        "warning",
        "rdb.instances",
        also=("rdb.engines",),
        field="engine",
        versions="versions",
        name="name",
        end="end_of_life",
        days=90,
    ),
    OlderThan(
        "rdb.backup-old",
        "A backup older than the age set",
        "Paid for nothing",
        "review",
        "rdb.backups",
        fix="delete",
        field="created",
        setting="backup_days",
        days=60,
        unless=frozenset({"locked"}),  # held by the platform (a legal hold): kept on purpose
    ),
)
