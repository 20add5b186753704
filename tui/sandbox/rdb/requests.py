"""What the relational-database routes read from a request: its region."""

from __future__ import annotations

from starlette.requests import Request

from ..errors import invalid_arguments
from . import catalog


def region_of(request: Request) -> str:
    region = request.path_params["region"]
    if region not in catalog.REGIONS:
        raise invalid_arguments(
            ("region", "constraint", f"databases exist in {', '.join(catalog.REGIONS)} only, not {region!r}")
        )
    return region
