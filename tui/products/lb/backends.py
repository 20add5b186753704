"""A load balancer's backends and frontends, child lists of it (spec 3 §2.3; spec/4 "Load
balancer": `GET|POST /lbs/{id}/backends`, `GET|PUT|DELETE /backends/{id}`, the same for
frontends). A backend holds its servers and exactly one health check; a frontend listens on a port
and forwards to one backend. No pydantic here: forms live in `backend_forms` and `forms`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..kit.base import Call, Lazy, Parent
from ..kit.declared import ID, Field
from ..kit.kind_options import Deleting, Order, Reading, Writing
from .kinds import lb_kind

if TYPE_CHECKING:
    from ..kit.base import Row
    from ..kit.models import Resource
    from ..kit.service import ResourceService

BACKEND_FORMS = "tui.products.lb.backend_forms:"
FORMS = "tui.products.lb.forms:"
CHECK_KINDS = ("tcp", "http", "https", "mysql", "pgsql", "ldap", "redis")  # spec/4: exactly one `<kind>_config`


def ms(value: object) -> str:
    """A duration the API gives in milliseconds, as read ("30 s", "5 min"); a string (newer public
    clients send "3s") as it is."""
    if isinstance(value, bool) or value is None or value == "":
        return "-"
    if not isinstance(value, int):
        return str(value)
    if value and value % 60_000 == 0:
        return f"{value // 60_000} min"
    if value and value % 1000 == 0:
        return f"{value // 1000} s"
    return f"{value} ms"


def check_kind(health: object) -> str:
    """Which of the seven checks a health check is ("http"), or "?" when it has none we know."""
    if not isinstance(health, dict):
        return "?"
    return next((k for k in CHECK_KINDS if health.get(f"{k}_config") is not None), "?")


def check_text(health: object) -> str:
    """A health check in one line: what it asks, where, how often."""
    if not isinstance(health, dict):
        return "none"
    kind = check_kind(health)
    config = health.get(f"{kind}_config") if kind != "?" else None
    config = config if isinstance(config, dict) else {}
    what = (
        kind.upper()
        if kind in ("tcp", "http", "https", "ldap")
        else {"mysql": "MySQL", "pgsql": "PostgreSQL", "redis": "Redis"}.get(kind, kind)
    )
    if kind in ("http", "https"):
        what += f" {config.get('method') or 'GET'} {config.get('uri') or '/'}" + (
            f" expecting {config['code']}" if config.get("code") else ""
        )
        what += f" (SNI {config['sni']})" if config.get("sni") else ""
    elif kind in ("mysql", "pgsql"):
        what += f" login as {config.get('user') or '?'}"
    return (
        f"{what} on port {health.get('port', '?')}, every {ms(health.get('check_delay'))}, "
        f"timeout {ms(health.get('check_timeout'))}, "
        f"{health.get('check_max_retries', '?')} retries"
    )


def servers_of(data: dict[str, Any]) -> list[str]:
    pool = data.get("pool") if isinstance(data, dict) else None
    return [str(ip) for ip in pool] if isinstance(pool, list) else []


def backend_label(b: dict[str, Any]) -> str:
    """A backend as the topology names it: protocol, port, algorithm and health-check kind."""
    return (
        f"backend {b.get('name')}: {b.get('forward_protocol')}:{b.get('forward_port')} "
        f"{b.get('forward_port_algorithm') or ''}, "
        f"{check_kind(b.get('health_check'))} check"
    )


def proxy_protocol(r: Row | Resource) -> str:
    """The PROXY protocol header the servers get: the API's `proxy_protocol` (none, v1, v2, v2_ssl,
    v2_ssl_cn on the real wire), else what `send_proxy_v2` says."""
    data = r.raw
    said = str(data.get("proxy_protocol") or "")
    if said:
        return said.removeprefix("proxy_protocol_")
    return "v2" if data.get("send_proxy_v2") else "none"


def _sticky(r: Row) -> str:
    sticky = r.text("sticky_sessions") or "none"
    return (
        f"cookie {r.text('sticky_sessions_cookie_name')}"
        if sticky == "cookie" and r.text("sticky_sessions_cookie_name")
        else sticky
    )


async def frontends_using(service: ResourceService, scope: str, row: Row) -> str | None:
    """The frontends that forward to a backend, named before its delete is sent (the platform
    refuses it while one does)."""
    assert service.parent is not None  # (a backend is listed under its load balancer)
    frontends = await service.read_all(scope, "lbs", service.parent.id, "frontends", key="frontends")
    users = [f for f in frontends if isinstance(f.get("backend"), dict) and str(f["backend"].get("id")) == row.id]
    if not users:
        return None
    names = ", ".join(f"{f.get('name')} (port {f.get('inbound_port')})" for f in users)
    one = len(users) == 1
    return (
        f"Frontend{'' if one else 's'} {names} forward{'s' if one else ''} to it: "
        "the platform refuses the delete until "
        f"{'it is' if one else 'they are'} deleted or moved to another backend"
    )


def forwards_to(s: Row | Resource) -> str:
    return f"{s.raw.get('forward_protocol')} port {s.raw.get('forward_port')}, {s.raw.get('forward_port_algorithm')}"


def sticky_line(s: Row | Resource) -> str:
    sticky, cookie = s.raw.get("sticky_sessions"), s.raw.get("sticky_sessions_cookie_name")
    return str(sticky or "none") + (f" (cookie {cookie})" if sticky == "cookie" and cookie else "")


def server_lines(s: Row | Resource) -> str:
    return "\n".join(servers_of(s.raw)) or "none"


def check_cell(r: Row) -> str:
    return check_kind(r.get("health_check"))


def check_line(s: Row | Resource) -> str:
    return check_text(s.raw.get("health_check"))


def proxy_line(s: Row | Resource) -> str:
    return f"{proxy_protocol(s)} (the header sent to the servers)" if proxy_protocol(s) != "none" else "none: not sent"


# The load balancer it belongs to is the list's parent (sent whole, as `lb`).
LB = Field("lb.id", "Load balancer", "ref", ref="lb.lbs", named="lb.name", detail=False)
CREATED = Field("created_at", "Created", "time", empty="")
BACKEND_FIELDS = (
    ID,
    Field("name", "Name", "name", width=14),
    LB,
    Field("forward_protocol", "Protocol", width=5, head="Proto", key="protocol", detail=False),
    Field("forward_port", "Port", "count", width=5, key="port", detail=False),  # sorted as a number
    Field("forward_port_algorithm", "Algorithm", width=10, key="algorithm", detail=False),
    Field("forward_port", "Forwards to", show=forwards_to),
    Field("sticky_sessions", "Sticky", width=10, key="sticky", show=_sticky, detail=False),
    Field("sticky_sessions", "Sticky sessions", show=sticky_line),
    Field("pool", "Servers", "count", width=7, key="servers", blank="0", detail=False),
    Field("pool", "Servers", "ip", show=server_lines),  # one address a line
    Field("health_check", "Check", width=6, key="check", show=check_cell, detail=False),
    Field("health_check", "Health check", show=check_line),
    Field("proxy_protocol", "Proxy", width=8, key="proxy", show=proxy_protocol, detail=False),
    Field("proxy_protocol", "PROXY protocol", show=proxy_line),
    Field("timeout_server", "Server timeout", empty="-", as_detail=ms),
    Field("timeout_connect", "Connect timeout", empty="-", as_detail=ms),
    CREATED,
)

BACKENDS = lb_kind(
    id="lb.backends",
    singular="backend",
    parent=Parent("lb.lbs", list_path="lbs/{parent}/backends", item_path="backends/{id}"),
    fields=BACKEND_FIELDS,
    columns=("name", "protocol", "port", "algorithm", "sticky", "servers", "check", "proxy"),
    create=Lazy(BACKEND_FORMS + "CREATE"),
    edit=Lazy(BACKEND_FORMS + "EDIT"),
    delete=Call("DELETE", "{id}"),  # refused (412) while a frontend forwards to it: the prompt names them first
    writing=Writing(deleting=Deleting(warning=Lazy("tui.products.lb.backends:frontends_using")), name_param="name"),
    reading=Reading(order=Order(by=("name", False))),
)


def listens_on(s: Row | Resource) -> str:
    protocol = s.raw.get("inbound_protocol")
    return f"port {s.raw.get('inbound_port')}" + (f", {protocol}" if protocol else "")


def client_timeout(r: Row | Resource) -> str:
    return ms(r.raw.get("timeout_client"))


def certificate_cell(r: Row) -> str:
    return ", ".join(str(c)[:8] for c in r.items("certificate_ids")) or "none"


def certificate_lines(s: Row | Resource) -> str:
    return "\n".join(map(str, s.raw.get("certificate_ids") or [])) or "none"


FRONTEND_FIELDS = (
    ID,
    Field("name", "Name", "name", width=14),
    LB,
    Field("inbound_port", "Port", "count", width=5, key="port", detail=False),  # sorted as a number
    Field("inbound_protocol", "Protocol", width=5, head="Proto", key="protocol", blank="-", detail=False),
    Field("inbound_port", "Listens on", show=listens_on),
    # The backend it forwards to, sent whole: named by its name.
    Field("backend.id", "Backend", "ref", ref="lb.backends", named="backend.name", width=14, key="backend"),
    Field("timeout_client", "Client timeout", width=14, key="timeout", show=client_timeout),
    # The load balancer's certificates (no list of the console shows them): their IDs.
    Field("certificate_ids", "Certificates", "id", width=20, key="certificates", show=certificate_cell, detail=False),
    Field("certificate_ids", "Certificates", "id", show=certificate_lines),
    CREATED,
)

FRONTENDS = lb_kind(
    id="lb.frontends",
    singular="frontend",
    parent=Parent("lb.lbs", list_path="lbs/{parent}/frontends", item_path="frontends/{id}"),
    fields=FRONTEND_FIELDS,
    columns=("name", "port", "protocol", "backend", "timeout", "certificates"),
    create=Lazy(FORMS + "FRONTEND_CREATE"),
    edit=Lazy(FORMS + "FRONTEND_EDIT"),
    delete=Call("DELETE", "{id}"),
    reading=Reading(order=Order(by=("port", False))),
)
