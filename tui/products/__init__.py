"""Products: one module per product; each exposes KINDS, its resource kinds."""

from __future__ import annotations

from .base import ResourceKind
from .instance import KINDS as INSTANCE_KINDS

KINDS: tuple[ResourceKind, ...] = (*INSTANCE_KINDS,)
BY_ID = {k.id: k for k in KINDS}
