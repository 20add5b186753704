"""Bare-metal servers as listed, shown and acted on (no pydantic here: forms and flows live in
`forms`, loaded on first use)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text

from ..kit.base import ActionSpec, Call, Child, Column, DetailPanel, Lazy, ListParams, Parent, ResourceKind, data_lost
from ..kit.columns import named_ref
from ..kit.declared import ID, Field
from ..kit.format import COMMON, Tones
from ..kit.kind_options import Cost, Item, Lookup, Order, Reading, Rows
from ..kit.shapes import FormCall, ShowAnswer
from ..kit.ssh_command import ssh_action
from ..kit.times import second_of
from .catalogue import euros
from .common import MOVING_INSTALL, baremetal_kind, install_status

if TYPE_CHECKING:
    from ..kit.base import Row
    from ..kit.models import Resource
    from ..kit.service import ResourceService

FORMS = "tui.products.baremetal.forms:"
TONES = Tones(busy=MOVING_INSTALL, base=COMMON)  # an install under way reads as busy


def parts_moving(data: dict[str, Any]) -> bool:
    """An install under way or a reverse DNS being applied: polled like a moving server."""
    if install_status(data) in MOVING_INSTALL:
        return True
    ips = data.get("ips")
    return isinstance(ips, list) and any(isinstance(ip, dict) and ip.get("reverse_status") == "pending" for ip in ips)


def _delivered(row: Row) -> str | None:
    return "it is not delivered yet: wait until it is ready" if row.state == "undelivered" else None


def _installing(row: Row) -> str | None:
    """Why an install cannot start: one is under way (shown greyed with this, not left out of the menu)."""
    status = install_status(row.data)
    return f"an install is under way ({status}): wait until it ends" if status in MOVING_INSTALL else None


def _ping(row: Row) -> Text:
    value = row.text("ping_status").removeprefix("ping_status_")
    return Text(value or "?", style={"up": "green", "down": "red"}.get(value, "dim"))


def _ip_version(version: object) -> str:
    """The API's `Ipv4` / `Ipv6` as written elsewhere: IPv4, IPv6."""
    text = str(version or "?")
    return "IP" + text[2:] if text.lower().startswith("ipv") else text


def _ips_detail(s: Row | Resource) -> str:
    lines = []
    for ip in s.raw.get("ips") or []:
        if isinstance(ip, dict):
            reverse = ip.get("reverse") or "—"
            lines.append(
                f"{ip.get('address')} ({_ip_version(ip.get('version'))})  reverse {reverse} · "
                f"{ip.get('reverse_status', '?')}"
                + (f" · {ip['reverse_status_message']}" if ip.get("reverse_status_message") else "")
            )
    return "\n".join(lines) or "none"


def _install_detail(s: Resource) -> str:
    install = s.raw.get("install")
    if not isinstance(install, dict):
        return "nothing installed"
    keys = ", ".join(install.get("ssh_key_ids") or []) or "none"
    os_name = named_ref(s.looked_up.get("os_name"), install.get("os_id")) or "?"
    return f"{install.get('status', '?')} · host {install.get('hostname', '?')} · OS {os_name} · SSH keys {keys}"


async def name_offer_and_os(service: ResourceService, scope: str, rows: list[Row]) -> None:
    """The names of a server's offer and installed OS, for its detail (one listing of each, reused a while)."""
    from .catalogue import OFFERS, SYSTEMS

    offers = await service.names_of(OFFERS, scope)
    systems = await service.related(SYSTEMS, scope)
    for r in rows:
        r.data["offer_name"] = offers.get(r.text("offer_id"), "")
        install = r.get("install")
        os = systems.get(str(install.get("os_id") or "")) if isinstance(install, dict) else None
        if os is not None:
            version = os.text("version")
            r.data["os_name"] = f"{os.name} {version}".strip() if version and version not in os.name else os.name


def _networks_here(row: Row) -> str | None:
    from .networks import not_here  # a light module

    return not_here(row)


def _ready(row: Row) -> bool:
    return row.state in ("ready", "undelivered")


def _while_ready(name: str, label: str, call: Call) -> ActionSpec:
    """A power action on a delivered server, confirmed with what it interrupts (an install)."""
    return ActionSpec(name, label, _ready, confirm=Lazy(FORMS + "install_warning"), call=call, why_not=_delivered)


# The management controller's access: its URL, login, allowed IP and password (masked), until it expires.
ACCESS = ShowAnswer(
    "{name}: management controller",
    Call("GET", "{id}/remote-access", mutating=False),
    "Open to {ip} only: its URL, login and password below.",
    secret="password",
    copy=("url", "login"),
    expires="expires_at",
    absent="No remote access is open on {name}.",
)


def _access_initial(server: Row) -> dict[str, Any]:
    from .forms import jump_host_client_ip  # the address this SSH session comes from, if any

    return {"ip": jump_host_client_ip()}


SERVER_ACTIONS = (
    ActionSpec(
        "install",
        "Install an OS…",
        lambda r: r.state in ("ready", "undelivered") and install_status(r.data) not in MOVING_INSTALL,
        flow=Lazy(FORMS + "install_flow"),
        why_not=lambda r: _installing(r) or _delivered(r),
    ),
    ActionSpec(
        "start",
        "Start",
        lambda r: r.state in ("stopped", "undelivered"),
        call=Call("POST", "{id}/start", {}),
        why_not=_delivered,
    ),
    _while_ready("stop", "Stop", Call("POST", "{id}/stop", {})),
    _while_ready("reboot", "Reboot", Call("POST", "{id}/reboot", {"boot_type": "normal"})),
    _while_ready("rescue", "Reboot into rescue", Call("POST", "{id}/reboot", {"boot_type": "rescue"})),
    ActionSpec(
        "remote_access",
        "Remote access (management controller)…",
        _ready,
        why_not=_delivered,
        shape=FormCall(
            "Remote access to {name}'s management controller",
            Lazy(FORMS + "RemoteAccessForm"),
            Call("POST", "{id}/remote-access"),
            initial=_access_initial,
            submit_label="Open",
            answer=ACCESS,
        ),
    ),
    ActionSpec(
        "open_access",
        "Show the remote access open now, if any…",
        _ready,
        why_not=_delivered,
        mutating=False,
        shape=ACCESS,
    ),
    ActionSpec(
        "revoke_access",
        "Revoke remote access",
        _ready,
        confirm=Lazy(FORMS + "revoke_message"),
        call=Call("DELETE", "{id}/remote-access"),
        why_not=_delivered,
    ),
    ActionSpec("reverse", "Reverse DNS of an IP…", lambda r: bool(r.items("ips")), flow=Lazy(FORMS + "reverse_flow")),
    ssh_action(lambda: SERVERS, lambda row: str(row.obj("install").get("user") or "")),
)


def _status_detail(s: Row | Resource) -> Text:
    ping = str(s.raw.get("ping_status", "")).removeprefix("ping_status_")
    return Text.assemble(TONES.text(str(s.raw.get("status", ""))), f"  boot {s.raw.get('boot_type', '?')}, {ping}")


SERVER_FIELDS = (
    ID,
    Field("name", "Name", "name", width=16),
    Field("status", "Status", "state", width=14, tones=TONES, detail=_status_detail),
    # shown as text; a state too, which `W` watches beside the server's own (an install completing)
    Field("install_status", "Install", ("text", "state"), width=11, key="install", blank="—", detail=_install_detail),
    Field("install.os_id", "OS", "ref", ref="baremetal.os", named="os_name", detail=False),
    Field("boot_type", "Boot", width=7, key="boot", detail=False),
    Field("ping_status", "Ping", width=5, key="ping", show=_ping, detail=False),
    Field("ips.address", "IPs", "ip", width=36, key="ips", detail=_ips_detail),
    Field("offer_id", "Offer", "ref", ref="baremetal.offers", named="offer_name", empty=""),
    Field("domain", "Domain", empty=""),
    Field("description", "Description", empty="—"),
    Field("tags", "Tags", "tags", width=16),
    Field("zone", "Zone", "place", width=8, empty=""),
    Field("created_at", "Created", "time", width=10, key="created", empty=""),
    Field("updated_at", "Updated", "time", empty=""),
)


SERVERS: ResourceKind = baremetal_kind(
    id="baremetal.servers",
    singular="bare-metal server",
    fields=SERVER_FIELDS,
    columns=("name", "status", "install", "boot", "ping", "zone", "ips", "created", "tags"),  # `/` finds by tag too
    rows=Rows(
        summarize=lambda data: {"install_status": install_status(data)},
        moving=parts_moving,
        lookup=Lookup(detail=Lazy("tui.products.baremetal.servers:name_offer_and_os")),
        cost=Cost(
            "offer_id",
            Lazy("tui.products.baremetal.catalogue:OFFERS"),
            "id",
            lambda o: euros(o.raw.get("price_per_month")),
            "the bare-metal offers (GET /offers: price_per_month of its offer), options not counted",
        ),
    ),
    transitional=frozenset({"starting", "stopping", "deleting"}),
    actions=SERVER_ACTIONS,
    panels=(DetailPanel("Events", kind="tui.products.baremetal.servers:EVENTS"),),
    children=(Child("Private networks", "tui.products.baremetal.networks:PRIVATE_NETWORKS", why_not=_networks_here),),
    create=Lazy(FORMS + "ORDER"),
    edit=Lazy(FORMS + "EDIT"),
    delete=Call("DELETE", "{id}"),
    writing=data_lost("Its disks are wiped and the server goes back to the pool", name_param="name"),
)

EVENTS = baremetal_kind(  # the detail's timeline, newest first
    id="baremetal.events",
    singular="event",
    list_key="event",
    parent=Parent("baremetal.servers", list_path="servers/{parent}/events"),
    reading=Reading(
        list_params=ListParams(fixed={"order_by": "created_at_desc"}),
        item=Item(fetch=False),
        order=Order(by=("at", True)),
    ),
    rows=Rows(summarize=lambda data: {"key": f"{data.get('created_at')} {data.get('action')}"}),
    columns=(
        Column(
            "at",
            "At",
            lambda r: second_of(r.text("created_at")),
            width=23,
            sort_key=lambda r: r.text("created_at"),
        ),
        Column("action", "Action", lambda r: r.text("action"), width=24),
    ),
    fields=(
        Field("key", "Event", "id", detail=False),  # made by `summarize`: when and what, which tells events apart
        Field("action", "Action"),
        Field("created_at", "At", "time"),
    ),
)
