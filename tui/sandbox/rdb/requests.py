"""What the relational-database routes read from a request: its region and the order of a list."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from ..errors import invalid_arguments
from . import catalog

ORDER = {"created_at_asc": ("created_at", False), "created_at_desc": ("created_at", True), "name_asc": ("name", False), "name_desc": ("name", True)}


def region_of(request: Request) -> str:
    region = request.path_params["region"]
    if region not in catalog.REGIONS:
        raise invalid_arguments(("region", "constraint", f"databases exist in {', '.join(catalog.REGIONS)} only, not {region!r}"))
    return region


def ordered(request: Request, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    order = request.query_params.get("order_by") or "created_at_asc"
    if order not in ORDER:
        raise invalid_arguments(("order_by", "constraint", f"order_by must be one of {', '.join(ORDER)}"))
    key, rev = ORDER[order]
    try:  # the fields sorted on are strings; anything else is compared as its text
        return sorted(items, key=lambda x: x.get(key) or "", reverse=rev)
    except TypeError:
        return sorted(items, key=lambda x: str(x.get(key) or ""), reverse=rev)
