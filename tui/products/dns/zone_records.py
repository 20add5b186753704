"""A zone's records all at once, from the zone's actions (spec 3 §4.1): the `clear` change (every
record removed, the automatic NS records included, as one PATCH of `changes`: a new version), the
`DELETE …/records` route (which the spec says takes the records, NS included), both after the
zone's name is typed; and the line under the zones list that the service says of itself (GET on
the prefix: name, version, documentation)."""

from __future__ import annotations

from typing import Any

from .names import shown


async def clear_flow(ui: Any, zone: Any) -> None:
    """The `clear` change: every record of the zone removed in one PATCH, itself a new version."""
    from ..flows import confirm_loss
    from .kinds import VERSIONS_KEPT, custom_ns

    why = custom_ns(zone.data)
    if why:
        ui.notify(f"Not cleared: {why}.", "warning")
        return
    name = shown(zone.id)
    await confirm_loss(
        ui,
        f"Remove every record of {name}?",
        f"A 'clear' change removes every record of {name}, its NS records included: the names in it stop resolving. "
        f"It makes a new version (the last {VERSIONS_KEPT} are kept), so a restore can bring them back.",
        "Clear",
        zone.id,
    )
    await ui.service().call(
        "PATCH",
        ui.scope,
        "dns-zones",
        zone.id,
        "records",
        body={"changes": [{"clear": {}}], "return_all_records": False},
    )
    ui.notify(f"{name}: every record removed (a new version)")
    ui.reload()


async def delete_records_flow(ui: Any, zone: Any) -> None:
    """`DELETE /dns-zones/{zone}/records`: the platform's own route for removing a zone's records."""
    from ..flows import confirm_loss
    from .kinds import custom_ns

    why = custom_ns(zone.data)
    if why:
        ui.notify(f"Not deleted: {why}.", "warning")
        return
    name = shown(zone.id)
    await confirm_loss(
        ui,
        f"Delete the records of {name}?",
        f"DELETE …/records takes every record of {name}, NS included (the platform's words: with the zone's records, the "
        "zone itself may go). The clear change (the action above) does the same as a reviewed change.",
        "Delete",
        zone.id,
    )
    await ui.service().call("DELETE", ui.scope, "dns-zones", zone.id, "records")
    ui.notify(f"{name}: its records deleted")
    ui.reload()


async def service_info(service: Any, scope: str) -> str:
    """What the DNS service says of itself (GET on the prefix): name, version, documentation."""
    found = await service.call("GET", scope)
    words = " · ".join(str(found.get(k)) for k in ("name", "version", "description") if found.get(k))
    docs = found.get("documentation_url")
    return words + (f" · docs: {docs}" if docs else "")
