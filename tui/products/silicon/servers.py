"""Silicon servers as listed and acted on (no pydantic here: forms live in `forms`)."""

from __future__ import annotations

from typing import Any

from ..base import ActionSpec, Call, Column, Lazy, kinds_of
from ..format import date_of
from .. import times
from ..shapes import ShowSecret
from ..columns import name_col, state_col
from ..format import COMMON

API = "vendorx-silicon/v1alpha1"
ZONES = ("fr-par-1", "fr-par-3")  # spec 1 §2.1
# What every silicon kind shares (servers and catalogues); a kind says only what differs.
silicon_kind = kinds_of(product="Silicon", api=API, scope_type="zone", scopes=ZONES, paging="page_size", model=Lazy("tui.products.models:Resource"))
FORMS = "tui.products.silicon.forms:"


def seconds_until_deletable(row: Any, now: float | None = None) -> float:
    return times.left(row.text("deletable_at"), now) or 0.0


def deletable(row: Any) -> str | None:
    """The 24-hour minimum: refused before `deletable_at`, with the time left."""
    left = seconds_until_deletable(row)
    if left <= 0:
        return None
    return f"a silicon server is rented for 24 hours at least: deletable in {times.span(left)} ({row.text('deletable_at')})"


SERVERS = silicon_kind(
    id="silicon.servers",
    title="Silicon servers",
    singular="silicon server",
    collection="servers",
    list_key="servers",
    item_key=None,
    page_size=100,
    state_field="status",
    # The CI runner's configuration carries its registration token: never in a row, the JSON or a log.
    secret_fields=("runner_configuration",),
    transitional=frozenset({"starting", "rebooting", "reinstalling", "updating", "locking", "unlocking"}),
    columns=(
        name_col(18),
        Column("type", "Type", lambda r: r.text("type"), width=6),
        state_col(COMMON, 14, "status", "Status"),
        Column("ip", "IP", lambda r: r.text("ip"), width=15),
        Column("zone", "Zone", lambda r: r.text("zone"), width=8),
        Column(
            "deletable",
            "Deletable",
            lambda r: "yes" if (s := seconds_until_deletable(r)) <= 0 else f"in {times.span_up(s)}",
            width=9,
        ),
        Column("created", "Created", lambda r: date_of(r.text("created_at")), width=10),
    ),
    detail_fields=(
        ("ID", lambda s: s.id),
        ("Name", lambda s: s.name),
        ("Type", lambda s: str(s.raw.get("type", ""))),
        ("Status", lambda s: str(s.raw.get("status", ""))),
        ("IP", lambda s: str(s.raw.get("ip", ""))),
        ("VNC", lambda s: str(s.raw.get("vnc_url", ""))),
        ("Deletable at", lambda s: str(s.raw.get("deletable_at", ""))),
        ("Zone", lambda s: str(s.raw.get("zone", ""))),
        ("Created", lambda s: str(s.raw.get("created_at", ""))),
    ),
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
    ),
    create=Lazy(FORMS + "CREATE"),
    edit=Lazy(FORMS + "EDIT"),
    delete=Call("DELETE", "{id}"),
    deletable=deletable,
    delete_needs_name=True,
    gone_when_forbidden=True,
)
