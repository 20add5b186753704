"""After a write whose outcome is unknown (timeout after sending, 5xx, unreadable 2xx body): look.

The platform may have applied it. Re-sending would risk a duplicate, so each write is followed by
the read that tells what happened, and the operator is told what was found. These are plain async
functions over a ResourceService (no Textual), used by the console's create, edit, delete and
action paths.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from ..api.errors import ApiError, NotFound
from .base import Row


@dataclass
class Found:
    """What a look found: `row` (None when it is not there) and one line saying so."""

    row: Row | None
    says: str
    applied: bool | None  # True: it happened; False: it did not; None: cannot tell


async def after_create(service: Any, scope: str, payload: dict[str, Any], known: Iterable[str]) -> Found:
    """Was it created? Look for a resource of that name that was not there before."""
    name = payload.get("name")
    param = service.kind.name_param
    if not isinstance(name, str) or not name or param is None:
        return Found(None, "cloudtui cannot tell whether it was created: refresh (r) and look before creating again", None)
    try:
        rows = await service.list_rows(scope, {param: name})
    except ApiError as err:
        return Found(None, f"looking for it failed too ({err.summary}): refresh (r) and look before creating again", None)
    seen = set(known)
    fresh = [r for r in rows if r.name == name and r.id not in seen]
    if fresh:
        row = fresh[-1]
        return Found(row, f"it was created after all: {row.name} ({row.id})", True)
    return Found(None, f"nothing named {name!r} appeared: it was not created, and may be created again", False)


async def after_delete(service: Any, scope: str, rid: str) -> Found:
    """Is it gone?"""
    try:
        row = await service.get_row(scope, rid)
    except NotFound:
        return Found(None, "it is gone: the delete was applied", True)
    except ApiError as err:
        return Found(None, f"looking for it failed too ({err.summary}): refresh (r) to see whether it is still there", None)
    state = f" ({row.state})" if row.state else ""
    return Found(row, f"it is still there{state}", None if service.kind.is_transitional(row) else False)


async def after_update(service: Any, scope: str, rid: str, patch: dict[str, Any]) -> Found:
    """Does it now hold what was sent?"""
    try:
        data = await service.get_data(scope, rid)
    except ApiError as err:
        return Found(None, f"looking at it failed too ({err.summary}): refresh (r) and check before saving again", None)
    row = service.row_of(data, scope)
    differs = [k for k, v in patch.items() if k in data and data[k] != v]
    if differs:
        return Found(row, f"it was not changed ({', '.join(differs)} still as before)", False)
    return Found(row, "it now holds what was sent: the change was applied", True)


async def after_action(service: Any, scope: str, rid: str) -> Found:
    """What state is it in now?"""
    try:
        row = await service.get_row(scope, rid)
    except NotFound:
        return Found(None, "it is gone", True)
    except ApiError as err:
        return Found(None, f"looking at it failed too ({err.summary}): refresh (r) and check", None)
    return Found(row, f"it is now {row.state or 'in an unknown state'}", None)
