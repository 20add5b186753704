"""Bare-metal flexible IPs as listed, shown and acted on (no pydantic here: forms and flows live
in `flows`, loaded on first use). Rows are grouped by the server they are on (its name looked up
once per listing); attach and detach act on the marked rows at once, a MAC group together."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text

from ..kit.base import ActionSpec, Call, Lazy, Row, data_lost, kinds_of
from ..kit.declared import ID, Field
from ..kit.kind_options import Lookup, Order, Reading, Rows
from ..kit.pick_call import PickCall

if TYPE_CHECKING:
    from ..kit.models import Resource
    from ..kit.service import ResourceService

MAC_TYPES = (("kvm", "kvm"), ("xen", "xen"), ("vmware", "vmware"))  # spec 1 §2.8: kvm, xen, a third vendor's

API = "flexible-ip/v1alpha1"
ZONES = ("fr-par-1", "fr-par-2", "nl-ams-1")  # spec 1 §2.1
# What every flexible-IP kind shares; a kind says only what differs.
flexible_ip_kind = kinds_of(product="Bare metal", api=API, scope_type="zone", scopes=ZONES)
MAX_PER_SERVER = 64  # spec 1 §8
FLOWS = "tui.products.flexible_ip.flows:"
SETTLED = frozenset({"ready", "attached"})


def mac_of(data: dict[str, Any]) -> dict[str, Any]:
    mac = data.get("mac_address")
    return mac if isinstance(mac, dict) else {}


def summarize(data: dict[str, Any]) -> dict[str, Any]:
    mac = mac_of(data)
    return {
        "name": data.get("ip_address"),
        "mac": mac.get("mac_address") or "",
        "mac_type": mac.get("mac_type") or "",
        "mac_status": mac.get("status") or "",
    }


async def enrich(service: ResourceService, scope: str, rows: list[Row]) -> None:
    """The name of the server each IP is on (one listing of the zone's servers, reused a while)."""
    from ..baremetal.servers import SERVERS

    if not any(r.data.get("server_id") for r in rows):
        return
    names = await service.names_of(SERVERS, scope)
    for r in rows:
        sid = r.text("server_id")
        if sid:
            r.data["server_name"] = names.get(sid) or sid[:8]


def server_label(r: Row) -> str:
    return r.text("server_name") or r.text("server_id")[:8] or "—"


def _group_key(r: Row) -> str:
    """Grouped by server (unattached last), then by address."""
    name = r.text("server_name") or r.text("server_id")
    return f"{0 if name else 1}{name}\t{r.name}"


def _mac(r: Row) -> Text:
    mac = r.text("mac")
    return Text(mac, style="bold") if mac else Text("—", style="dim")


def _settled(r: Row) -> str | None:
    return None if r.state in SETTLED else f"it is {r.state or 'changing'}: wait until it is ready or attached"


def _detachable(r: Row) -> str | None:
    return "it is not attached to a server" if not r.text("server_id") else _settled(r)


def _attached(r: Row) -> bool:
    return bool(r.text("server_id")) and r.state == "attached"


def _mac_detail(f: Row | Resource) -> str:
    mac = mac_of(f.raw)
    if not mac:
        return "none"
    return f"{mac.get('mac_address')} · {mac.get('mac_type', '?')} · {mac.get('status', '?')}"


FIP_ACTIONS = (
    ActionSpec(
        "attach",
        "Attach to a server…",
        lambda r: r.state in SETTLED,
        flow=Lazy(FLOWS + "attach_flow"),
        why_not=_settled,
        many=True,
    ),
    ActionSpec(
        "detach",
        "Detach from its server",
        lambda r: bool(r.text("server_id")),
        flow=Lazy(FLOWS + "detach_flow"),
        why_not=_detachable,
        many=True,
    ),
    ActionSpec(
        "mac_generate",
        "Virtual MAC: generate…",
        lambda r: _attached(r) and not r.text("mac"),
        shape=PickCall(
            "Virtual MAC for {name}: which hypervisor?",
            MAC_TYPES,
            Call("POST", "{id}/mac"),
            "mac_type",
            done="{name}: virtual MAC generated ({picked})",
        ),
    ),
    ActionSpec(
        "mac_duplicate",
        "Virtual MAC: duplicate from another IP…",
        lambda r: _attached(r) and not r.text("mac"),
        flow=Lazy(FLOWS + "mac_duplicate_flow"),
    ),
    ActionSpec(
        "mac_move",
        "Virtual MAC: move to another IP…",
        lambda r: bool(r.text("mac")),
        flow=Lazy(FLOWS + "mac_move_flow"),
        why_not=_settled,
    ),
    ActionSpec(
        "mac_delete",
        "Virtual MAC: delete",
        lambda r: bool(r.text("mac")),
        call=Call("DELETE", "{id}/mac"),
        why_not=_settled,
        confirm=Lazy(FLOWS + "mac_delete_message"),
    ),
)

FIP_FIELDS = (
    ID,
    Field("ip_address", "Address", ("name", "ip"), width=24, head="IP", key="ip"),
    Field("status", "Status", "state", width=10),
    Field(
        "server_id",
        "Server",
        "ref",
        ref="baremetal.servers",
        named="server_name",
        width=16,
        key="server",
        blank="—",
        empty="not attached",
    ),
    Field("mac", "Virtual MAC", width=17, show=_mac, detail=False),
    Field("mac_address", "Virtual MAC", show=_mac_detail),
    Field("mac_type", "MAC type", width=8, blank="—", detail=False),
    Field("reverse", "Reverse", width=24, blank="—", empty="—"),
    Field("description", "Description", width=16, empty="—"),
    Field("tags", "Tags", "tags", width=16),
    Field("project_id", "Project", "id"),
    Field("zone", "Zone", "place", width=8),
    Field("created_at", "Created", "time", width=10, key="created"),
    Field("updated_at", "Updated", "time"),
)

FIPS = flexible_ip_kind(
    id="flexible_ip.fips",
    singular="flexible IP",
    list_key="flexible_ips",
    reading=Reading(order=Order(by=("server", False))),
    fields=FIP_FIELDS,
    columns=("ip", "status", "server", "mac", "mac_type", "reverse", "description", "zone", "created", "tags"),
    rows=Rows(
        summarize=summarize,
        lookup=Lookup(
            listed=Lazy("tui.products.flexible_ip.fips:enrich"),
            names_from=Lazy("tui.products.baremetal.servers:SERVERS"),
        ),
        moving=lambda d: mac_of(d).get("status") in ("updating", "deleting"),
    ),
    transitional=frozenset({"updating", "detaching"}),
    actions=FIP_ACTIONS,
    create=Lazy(FLOWS + "CREATE"),
    edit=Lazy(FLOWS + "EDIT"),
    delete=Call("DELETE", "{id}"),
    writing=data_lost(
        lambda r: (
            "The address goes back to the pool: a new flexible IP gets another one"
            + (f". It is attached to {server_label(r)}: its traffic there stops" if r.text("server_id") else "")
        )
    ),
)
