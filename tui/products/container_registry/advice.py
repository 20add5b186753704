"""What the advisor looks for in the container registry (`products.kit.advice`): a namespace anyone can
pull from."""

from __future__ import annotations

from ..kit.advice import Flagged

RULES = (
    Flagged(
        "registry.namespace-public",
        "A registry namespace anyone can pull from",
        "Open doors",
        "warning",
        "registry.namespaces",
        fix="edit",
        field="visibility",
        what="public: anyone can pull its images, without a key",
    ),
)
