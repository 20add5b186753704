"""Form building blocks every product shares (no pydantic here: plain helpers its forms call)."""

from __future__ import annotations

import re
from typing import Any

UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
HOST_LABEL = r"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
HOSTNAME = rf"^{HOST_LABEL}(\.{HOST_LABEL})*$"  # a DNS host name (labels of letters, digits, dashes)


def reverse_name(v: str) -> str:
    """A reverse DNS value: empty, or a host name (a final dot allowed); else a ValueError."""
    v = v.strip()
    if v and not re.match(HOSTNAME, v.rstrip(".")):
        raise ValueError("a host name such as host.example.com")
    return v


def meta(label: str, **extra: Any) -> dict[str, Any]:
    """A form field's label and widget hints (placeholder, widget="select"…)."""
    return {"label": label, **extra}


def split_tags(v: Any) -> Any:
    """"web, prod" → ["web", "prod"] (a list stays as it is)."""
    if isinstance(v, str):
        return [t.strip() for t in v.split(",") if t.strip()]
    return v


def ctx(info: Any, key: str, default: Any = None) -> Any:
    """A value of the form's validation context (data the options loader fetched)."""
    return (info.context or {}).get(key, default)


def uuid_of(v: str, what: str) -> str:
    """`v` as a lower-case UUID, or a ValueError naming what it should be."""
    v = v.strip().lower()
    if not UUID_RE.match(v):
        raise ValueError(f"a {what} (UUID)")
    return v


def check_uuids(values: list[str], what: str) -> list[str]:
    out = [v.strip().lower() for v in values]
    bad = [v for v in out if not UUID_RE.match(v)]
    if bad:
        raise ValueError(f"{what} are UUIDs: {', '.join(bad[:3])} is not")
    return out
