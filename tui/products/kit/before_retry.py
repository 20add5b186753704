"""What a retry from the activity journal checks before it sends a request again, and the look for
its answer should that be lost too. Each reads what is there now: a retry is refused (`Refused`,
nothing sent) when what it would do is done already or no longer offered — made since, gone since,
or in a state the action is not for — and its look starts from what it read, not from the first
send's view of the row."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...api.errors import ApiError, NotFound, OutcomeUnknown
from .flows import Refused
from .looks import Found, after_action, after_create, after_delete, holds_sent, identity
from .rows import called_with_id

if TYPE_CHECKING:
    from ...api.client import ApiClient
    from .writes import Look
    from .base import ActionSpec
    from .service import ResourceService


async def before_create(service: ResourceService, scope: str, payload: dict[str, Any]) -> Any:
    """Refused when a listed row has the name (or id) the create would give, made since by an earlier
    send or another way; else the look for a lost answer: what is new since this listing."""
    rows, kind = await service.list_rows(scope, None), service.kind
    ident = identity(kind, payload)
    named = bool({"name", kind.id_field} & ident.keys())  # what would tell it apart: a name or an id
    there = next((r for r in rows if holds_sent(r, ident, kind.id_field)), None) if named else None
    if there is not None:
        raise Refused(f"{called_with_id(there)} is there now: not created again")
    return lambda _lost: after_create(service, scope, payload, [r.id for r in rows])


async def before_action(service: ResourceService, scope: str, rid: str, spec: ActionSpec) -> Any:
    """Refused when the row is gone, or the action is not offered as the row is now (done since: a
    server powered off another way); else the look for a lost answer, from the row as it is now."""
    try:
        row = await service.get_row(scope, rid)
    except NotFound:
        raise Refused("it is gone now: not sent again") from None
    why = spec.why_not(row) or (None if spec.available(row) else f"it is {row.state or 'as it is'} now")
    if why:
        raise Refused(f"{called_with_id(row)}: {why}; not sent again")
    return lambda _lost: after_action(service, scope, row.id, row.state, spec.moves_to, spec.if_lost, was=row.data)


async def before_delete_at(client: ApiClient, url: str) -> Look:
    """A DELETE kept only as its request (a row of an act on many, a step of a flow): refused when what
    its URL names is gone already; else the look for a lost answer: is it gone now?"""

    async def there() -> bool:
        try:
            await client.request_data("GET", url)
        except NotFound:
            return False
        return True

    if not await there():
        raise Refused("it is gone already: not deleted again")

    async def look(lost: OutcomeUnknown) -> Found:
        try:
            still = await there()
        except ApiError as again:
            return Found(
                None, f"reading it again failed too ({again.summary}): refresh (r) before deleting again", None
            )
        if still:
            return Found(None, "it is still there: the delete was not applied", False)
        return Found(None, "it is gone: the delete was applied", True)

    return look


async def before_delete(service: ResourceService, scope: str, rid: str) -> Any:
    """Refused when the row is gone already; else the look for a lost answer: is it gone?"""
    try:
        await service.get_row(scope, rid)
    except NotFound:
        raise Refused("it is gone already: not deleted again") from None
    return lambda _lost: after_delete(service, scope, rid)
