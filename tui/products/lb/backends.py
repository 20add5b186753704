"""A load balancer's backends and frontends, child lists of it (spec 3 §2.3; spec/4 "Load
balancer": `GET|POST /lbs/{id}/backends`, `GET|PUT|DELETE /backends/{id}`, the same for
frontends). A backend holds its servers and exactly one health check; a frontend listens on a port
and forwards to one backend. No pydantic here: forms live in `backend_forms` and `forms`."""

from __future__ import annotations

from typing import Any

from ..base import Call, Column, Lazy, Parent
from ..columns import name_col
from ..format import date_of
from .kinds import lb_kind
from ..kind_options import Reading, Writing

BACKEND_FORMS = "tui.products.lb.backend_forms:"
FORMS = "tui.products.lb.forms:"
CHECK_KINDS = ("tcp", "http", "https", "mysql", "pgsql", "ldap", "redis")  # spec/4: exactly one `<kind>_config`


def ms(value: Any) -> str:
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


def check_kind(health: Any) -> str:
    """Which of the seven checks a health check is ("http"), or "?" when it has none we know."""
    if not isinstance(health, dict):
        return "?"
    return next((k for k in CHECK_KINDS if health.get(f"{k}_config") is not None), "?")


def check_text(health: Any) -> str:
    """A health check in one line: what it asks, where, how often."""
    if not isinstance(health, dict):
        return "none"
    kind = check_kind(health)
    config = health.get(f"{kind}_config") if kind != "?" else None
    config = config if isinstance(config, dict) else {}
    what = kind.upper() if kind in ("tcp", "http", "https", "ldap") else {"mysql": "MySQL", "pgsql": "PostgreSQL", "redis": "Redis"}.get(kind, kind)
    if kind in ("http", "https"):
        what += f" {config.get('method') or 'GET'} {config.get('uri') or '/'}" + (f" expecting {config['code']}" if config.get("code") else "")
        what += f" (SNI {config['sni']})" if config.get("sni") else ""
    elif kind in ("mysql", "pgsql"):
        what += f" login as {config.get('user') or '?'}"
    return (f"{what} on port {health.get('port', '?')}, every {ms(health.get('check_delay'))}, timeout {ms(health.get('check_timeout'))}, "
            f"{health.get('check_max_retries', '?')} retries")


def servers_of(data: Any) -> list[str]:
    pool = data.get("pool") if isinstance(data, dict) else None
    return [str(ip) for ip in pool] if isinstance(pool, list) else []


def backend_label(b: dict[str, Any]) -> str:
    """A backend as the topology names it: protocol, port, algorithm and health-check kind."""
    return (f"backend {b.get('name')}: {b.get('forward_protocol')}:{b.get('forward_port')} {b.get('forward_port_algorithm') or ''}, "
            f"{check_kind(b.get('health_check'))} check")


def proxy_protocol(r: Any) -> str:
    """The PROXY protocol header the servers get: the API's `proxy_protocol` (none, v1, v2, v2_ssl,
    v2_ssl_cn on the real wire), else what `send_proxy_v2` says."""
    data = r.raw
    said = str(data.get("proxy_protocol") or "")
    if said:
        return said.removeprefix("proxy_protocol_")
    return "v2" if data.get("send_proxy_v2") else "none"


def _sticky(r: Any) -> str:
    sticky = r.text("sticky_sessions") or "none"
    return f"cookie {r.text('sticky_sessions_cookie_name')}" if sticky == "cookie" and r.text("sticky_sessions_cookie_name") else sticky


async def frontends_using(service: Any, scope: str, row: Any) -> str | None:
    """The frontends that forward to a backend, named before its delete is sent (the platform
    refuses it while one does)."""
    frontends = await service.read_all(scope, "lbs", service.parent.id, "frontends", key="frontends")
    users = [f for f in frontends if isinstance(f.get("backend"), dict) and str(f["backend"].get("id")) == row.id]
    if not users:
        return None
    names = ", ".join(f"{f.get('name')} (port {f.get('inbound_port')})" for f in users)
    one = len(users) == 1
    return (
        f"Frontend{'' if one else 's'} {names} forward{'s' if one else ''} to it: the platform refuses the delete until "
        f"{'it is' if one else 'they are'} deleted or moved to another backend"
    )


BACKENDS = lb_kind(
    id="lb.backends",
    title="Backends",
    singular="backend",
    collection="backends",
    list_key="backends",
    item_key=None,
    parent=Parent("lb.lbs", list_path="lbs/{parent}/backends", item_path="backends/{id}"),
    columns=(
        name_col(14),
        Column("protocol", "Proto", lambda r: r.text("forward_protocol"), width=5),
        Column("port", "Port", lambda r: r.text("forward_port"), width=5, sort_key=lambda r: r.get("forward_port") or 0),
        Column("algorithm", "Algorithm", lambda r: r.text("forward_port_algorithm"), width=10),
        Column("sticky", "Sticky", _sticky, width=10),
        Column("servers", "Servers", lambda r: str(len(servers_of(r.data))), width=7, sort_key=lambda r: len(servers_of(r.data))),
        Column("check", "Check", lambda r: check_kind(r.get("health_check")), width=6),
        Column("proxy", "Proxy", proxy_protocol, width=8),
    ),
    detail_fields=(
        ("ID", lambda s: s.id),
        ("Name", lambda s: s.name),
        ("Forwards to", lambda s: f"{s.raw.get('forward_protocol')} port {s.raw.get('forward_port')}, {s.raw.get('forward_port_algorithm')}"),
        ("Sticky sessions", lambda s: str(s.raw.get("sticky_sessions") or "none") + (
            f" (cookie {s.raw['sticky_sessions_cookie_name']})" if s.raw.get("sticky_sessions") == "cookie" and s.raw.get("sticky_sessions_cookie_name") else "")),
        ("Servers", lambda s: "\n".join(servers_of(s.raw)) or "none"),
        ("Health check", lambda s: check_text(s.raw.get("health_check"))),
        ("PROXY protocol", lambda s: f"{proxy_protocol(s)} (the header sent to the servers)" if proxy_protocol(s) != "none" else "none: not sent"),
        ("Server timeout", lambda s: ms(s.raw.get("timeout_server"))),
        ("Connect timeout", lambda s: ms(s.raw.get("timeout_connect"))),
        ("Created", lambda s: date_of(str(s.raw.get("created_at", "")))),
    ),
    create=Lazy(BACKEND_FORMS + "CREATE"),
    edit=Lazy(BACKEND_FORMS + "EDIT"),
    delete=Call("DELETE", "{id}"),  # refused (412) while a frontend forwards to it: the prompt names them first
    writing=Writing(delete_warning=Lazy("tui.products.lb.backends:frontends_using"), name_param="name"),
    reading=Reading(sort=("name", False)),
)


def _backend_name(r: Any) -> str:
    b = r.obj("backend")
    return str(b.get("name") or b.get("id") or "")


FRONTENDS = lb_kind(
    id="lb.frontends",
    title="Frontends",
    singular="frontend",
    collection="frontends",
    list_key="frontends",
    item_key=None,
    parent=Parent("lb.lbs", list_path="lbs/{parent}/frontends", item_path="frontends/{id}"),
    columns=(
        name_col(14),
        Column(
            "port", "Port", lambda r: r.text("inbound_port"), width=5, sort_key=lambda r: r.get("inbound_port") or 0
        ),
        Column("protocol", "Proto", lambda r: r.text("inbound_protocol") or "-", width=5),
        Column("backend", "Backend", _backend_name, width=14),
        Column("timeout", "Client timeout", lambda r: ms(r.get("timeout_client")), width=14),
        Column(
            "certificates",
            "Certificates",
            lambda r: ", ".join(str(c)[:8] for c in r.items("certificate_ids")) or "none",
            width=20,
        ),
    ),
    detail_fields=(
        ("ID", lambda s: s.id),
        ("Name", lambda s: s.name),
        (
            "Listens on",
            lambda s: (
                f"port {s.raw.get('inbound_port')}"
                + (f", {s.raw['inbound_protocol']}" if s.raw.get("inbound_protocol") else "")
            ),
        ),
        (
            "Backend",
            lambda s: (
                f"{(s.raw.get('backend') or {}).get('name')} ({(s.raw.get('backend') or {}).get('id')})"
                if isinstance(s.raw.get("backend"), dict)
                else "none"
            ),
        ),
        ("Client timeout", lambda s: ms(s.raw.get("timeout_client"))),
        ("Certificates", lambda s: "\n".join(map(str, s.raw.get("certificate_ids") or [])) or "none"),
        ("Created", lambda s: date_of(str(s.raw.get("created_at", "")))),
    ),
    create=Lazy(FORMS + "FRONTEND_CREATE"),
    edit=Lazy(FORMS + "FRONTEND_EDIT"),
    delete=Call("DELETE", "{id}"),
    reading=Reading(sort=("port", False)),
)
