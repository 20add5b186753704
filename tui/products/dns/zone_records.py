"""A zone's records all at once, from the zone's actions (spec 3 §4.1): the `clear` change (every
record removed, the automatic NS records included, as one PATCH of `changes`: a new version), the
`DELETE …/records` route (which the spec says takes the records, NS included), both after the
zone's name is typed; and the line under the zones list that the service says of itself (GET on
the prefix: name, version, documentation)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..kit.flows import confirms_first
from .names import shown

if TYPE_CHECKING:
    from ..kit.base import Row
    from ..kit.flows import FlowUI
    from ..kit.service import ResourceService


@confirms_first  # its own question says what goes, and takes the name typed (on production too)
async def clear_flow(ui: FlowUI, zone: Row) -> None:
    """The `clear` change: every record of the zone removed in one PATCH, itself a new version."""
    from .kinds import VERSIONS_KEPT

    name = shown(zone.id)
    await _remove_every_record(
        ui,
        zone,
        "cleared",
        f"Remove every record of {name}?",
        f"A 'clear' change removes every record of {name}, its NS records included: the names in it stop resolving. "
        f"It makes a new version (the last {VERSIONS_KEPT} are kept), so a restore can bring them back.",
        "Clear",
        f"{name}: every record removed (a new version)",
        ("PATCH", {"body": {"changes": [{"clear": {}}], "return_all_records": False}}),
    )


@confirms_first
async def delete_records_flow(ui: FlowUI, zone: Row) -> None:
    """`DELETE /dns-zones/{zone}/records`: the platform's own route for removing a zone's records."""
    name = shown(zone.id)
    await _remove_every_record(
        ui,
        zone,
        "deleted",
        f"Delete the records of {name}?",
        f"DELETE …/records takes every record of {name}, NS included (the platform's words: with the zone's "
        "records, the zone itself may go). The clear change (the action above) does the same as a reviewed change.",
        "Delete",
        f"{name}: its records deleted",
        ("DELETE", {}),
    )


async def _remove_every_record(
    ui: FlowUI,
    zone: Row,
    done: str,
    title: str,
    message: str,
    button: str,
    said: str,
    request: tuple[str, dict[str, Any]],
) -> None:
    """Refused on a zone the platform does not run the name servers of; else the zone's name typed,
    then the one request, then the list again."""
    from ..kit.flows import confirm_loss
    from .kinds import custom_ns

    why = custom_ns(zone.data)
    if why:
        ui.notify(f"Not {done}: {why}.", "warning")
        return
    await confirm_loss(ui, title, message, button, zone.id)
    method, extra = request
    await ui.service().call(method, ui.scope, "dns-zones", zone.id, "records", **extra)
    ui.notify(said)
    ui.reload()


async def service_info(service: ResourceService, scope: str) -> str:
    """What the DNS service says of itself (GET on the prefix): name, version, documentation."""
    found = await service.call("GET", scope)
    words = " · ".join(str(found.get(k)) for k in ("name", "version", "description") if found.get(k))
    docs = found.get("documentation_url")
    return words + (f" · docs: {docs}" if docs else "")
