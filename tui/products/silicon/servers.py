"""Silicon servers as listed and acted on (no pydantic here: forms live in `forms`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..kit import times
from ..kit.base import ActionSpec, Call, Lazy, ResourceKind, data_lost, kinds_of
from ..kit.declared import ID, Field
from ..kit.kind_options import Item, Reading, Refuses, Secrets
from ..kit.shapes import ShowSecret
from ..kit.ssh_command import ssh_action

if TYPE_CHECKING:
    from ..kit.base import Row

API = "vendorx-silicon/v1alpha1"
ZONES = ("fr-par-1", "fr-par-3")  # spec 1 §2.1
# What every silicon kind shares (servers and catalogues); a kind says only what differs.
silicon_kind = kinds_of(product="Silicon", api=API, scope_type="zone", scopes=ZONES)
FORMS = "tui.products.silicon.forms:"


def seconds_until_deletable(row: Row, now: float | None = None) -> float:
    return times.left(row.text("deletable_at"), now) or 0.0


def deletable(row: Row) -> str | None:
    """The 24-hour minimum: refused before `deletable_at`, with the time left."""
    left = seconds_until_deletable(row)
    if left <= 0:
        return None
    at = times.second_of(row.text("deletable_at"))  # (walk 23: the time as sent, microseconds and all)
    return f"a silicon server is rented for 24 hours at least: deletable in {times.span(left)} ({at})"


def _deletable_in(row: Row) -> str:
    left = seconds_until_deletable(row)
    return "yes" if left <= 0 else f"in {times.span_up(left)}"


SERVER_FIELDS = (
    ID,
    Field("name", "Name", "name", width=18),
    Field("type", "Type", "ref", ref="silicon.types", width=6, empty=""),
    Field("status", "Status", "state", width=14),
    Field("ip", "IP", "ip", width=15, empty=""),
    Field("vnc_url", "VNC", empty=""),  # its password masked (the API layer masks a URL's credentials)
    Field("deletable_at", "Deletable", "time", width=9, key="deletable", show=_deletable_in, detail=False),
    Field("deletable_at", "Deletable at", "time", empty=""),
    Field("zone", "Zone", "place", width=8, empty=""),
    Field("created_at", "Created", "time", width=10, key="created", empty=""),
)


SERVERS: ResourceKind = silicon_kind(
    id="silicon.servers",
    singular="silicon server",
    reading=Reading(item=Item(forbidden_is_gone=True)),
    # The CI runner's configuration carries its registration token: never in a row, the JSON or a log.
    secrets=Secrets(fields=("runner_configuration",)),
    transitional=frozenset({"starting", "rebooting", "reinstalling", "updating", "locking", "unlocking"}),
    fields=SERVER_FIELDS,
    columns=("name", "type", "status", "ip", "zone", "deletable", "created"),
    actions=(
        ActionSpec(
            "reboot", "Reboot", lambda r: r.state == "ready", confirm=True, call=Call("POST", "{id}/reboot", {})
        ),
        ActionSpec(
            "reinstall", "Reinstall (erases it)…", lambda r: r.state == "ready", flow=Lazy(FORMS + "reinstall_flow")
        ),
        ActionSpec(
            "vnc",
            "VNC URL (copy)…",
            lambda r: bool(r.get("vnc_url")),
            shape=ShowSecret(
                "VNC URL of {name}",
                "vnc_url",
                "VNC URL",
                "The URL holds the password: masked here, copied with the rest.",
            ),
        ),
        ssh_action(lambda: SERVERS),
    ),
    create=Lazy(FORMS + "CREATE"),
    edit=Lazy(FORMS + "EDIT"),
    delete=Call("DELETE", "{id}"),
    writing=data_lost(refuses=Refuses(delete=deletable)),
)
