"""What the relational-database routes read from a request: its region, the instance in its path."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.requests import Request

from ..errors import invalid_arguments
from . import catalog

if TYPE_CHECKING:
    from .store import RdbStore

PREFIX = "/rdb/v1/regions/{region}"  # every route's


def region_of(request: Request) -> str:
    region = request.path_params["region"]
    if region not in catalog.REGIONS:
        raise invalid_arguments(
            ("region", "constraint", f"databases exist in {', '.join(catalog.REGIONS)} only, not {region!r}")
        )
    return region


def instance_of(store: RdbStore, request: Request) -> dict[str, Any]:
    """The instance of the request's `{iid}`, in its region."""
    return store.instance(region_of(request), request.path_params["iid"])
