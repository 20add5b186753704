"""The backend form, for create and edit (pydantic; loaded on first use): spec 3 §2.3 and spec/4
"Load balancer". A backend's servers are IPv4 or IPv6 addresses, each checked; cookie sessions need
the cookie's name; its health check is exactly one of seven kinds, each with its own fields (an
HTTP check's URI starts with "/", its expected code is an HTTP status; a database check logs in as
a user). Create is one POST carrying the servers and the health check. An edit is up to three PUTs,
each sent only when its part changed (`edit_steps`): the settings (`/backends/{id}`, which takes
neither servers nor health check), the servers (`/backends/{id}/servers`) and the health check
(`/backends/{id}/healthcheck`)."""

from __future__ import annotations

import ipaddress
import re
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union, get_args

from pydantic import BaseModel, Field, ValidationInfo, field_validator

from ..kit.base import Call, Choices, Context, CreateSpec, EditSpec
from ..kit.edit_steps import EditStep
from ..kit.fields import meta, once_each
from ..kit.vocabulary import Form, label
from .backends import check_kind, servers_of

if TYPE_CHECKING:
    from ..kit.base import Row
    from ..kit.service import ResourceService

Port = Annotated[int, Field(ge=1, le=65535, json_schema_extra=meta("Port", placeholder="1 to 65535, e.g. 80"))]
Uri = Annotated[
    str,
    Field(
        min_length=1,
        pattern="^/",
        json_schema_extra=meta("URI", rule="a path starting with /", placeholder="e.g. /health"),
    ),
]
Method = Annotated[
    Literal["GET", "HEAD", "POST", "PUT", "OPTIONS"], Field(json_schema_extra=meta("Method", widget="select"))
]
Code = Annotated[
    int | None,
    Field(
        ge=100,
        le=599,
        json_schema_extra=meta("Expected code", placeholder="an HTTP status, e.g. 200 (empty: any success)"),
    ),
]
User = Annotated[str, Field(min_length=1, json_schema_extra=meta("User", placeholder="the user the check logs in as"))]
DURATION = re.compile(r"^(\d+(?:\.\d+)?)(ms|s|m)$")


class TcpCheck(Form, title="TCP: the port accepts a connection"):
    kind: Literal["tcp"] = "tcp"


class HttpCheck(Form, title="HTTP: a request answers"):
    kind: Literal["http"] = "http"
    uri: Uri
    method: Method = "GET"
    code: Code = None


class HttpsCheck(Form, title="HTTPS: a request over TLS answers"):
    kind: Literal["https"] = "https"
    uri: Uri
    method: Method = "GET"
    code: Code = None
    sni: Annotated[str, label("SNI", placeholder="the server name sent in TLS (optional)")] = ""


class MysqlCheck(Form, title="MySQL: a login succeeds"):
    kind: Literal["mysql"] = "mysql"
    user: User


class PgsqlCheck(Form, title="PostgreSQL: a login succeeds"):
    kind: Literal["pgsql"] = "pgsql"
    user: User


class LdapCheck(Form, title="LDAP: a bind answers"):
    kind: Literal["ldap"] = "ldap"


class RedisCheck(Form, title="Redis: PING answers PONG"):
    kind: Literal["redis"] = "redis"


Check = Union[TcpCheck, HttpCheck, HttpsCheck, MysqlCheck, PgsqlCheck, LdapCheck, RedisCheck]
CHECKS: tuple[type[BaseModel], ...] = get_args(Check)
VARIANTS: dict[str, type[BaseModel]] = {m.model_fields["kind"].default: m for m in CHECKS}


class HealthCheck(Form):
    port: Annotated[int | None, label("Port", ge=1, le=65535, placeholder="empty: the forward port")] = None
    check_delay: Annotated[int, label("Every (ms)", ge=1, placeholder="milliseconds between checks")] = 3000
    check_timeout: Annotated[int, label("Timeout (ms)", ge=1, placeholder="milliseconds a check may take")] = 1000
    check_max_retries: Annotated[int, label("Retries", ge=0, placeholder="failed checks before a server is down")] = 3
    check: Annotated[Check, Field(discriminator="kind", json_schema_extra=meta("Check"))] = TcpCheck()


Millis = Annotated[
    int | None, Field(ge=1, json_schema_extra=meta("Timeout", placeholder="milliseconds (empty: the platform's)"))
]


class BackendForm(Form):
    name: Annotated[str, label("Name", min_length=1, placeholder="e.g. web-servers")]
    forward_protocol: Annotated[Literal["tcp", "http"], label("Protocol", widget="select")] = "tcp"
    forward_port: Annotated[int, label("Port", ge=1, le=65535, placeholder="the servers' port, 1 to 65535")]
    forward_port_algorithm: Annotated[
        Literal["roundrobin", "leastconn", "first"], label("Algorithm", widget="select")
    ] = "roundrobin"
    sticky_sessions: Annotated[Literal["none", "cookie", "table"], label("Sticky sessions", widget="select")] = "none"
    sticky_sessions_cookie_name: Annotated[
        str, label("Cookie name", validate_default=True, placeholder="with cookie sessions: the cookie's name")
    ] = ""
    server_ip: Annotated[list[str], label("Servers", placeholder="IPv4 or IPv6 addresses, comma-separated")] = []
    send_proxy_v2: Annotated[bool, label("Send the PROXY protocol v2 header to the servers")] = False
    timeout_server: Annotated[
        Millis, label("Server (ms)", placeholder="timeout: how long a server may stay silent (empty: the platform's)")
    ] = None
    timeout_connect: Annotated[
        Millis,
        label("Connect (ms)", placeholder="timeout: how long connecting to a server may take (empty: the platform's)"),
    ] = None
    health_check: Annotated[HealthCheck, label("Health check")] = HealthCheck()

    @field_validator("sticky_sessions_cookie_name")
    @classmethod
    def _cookie(cls, v: str, info: ValidationInfo) -> str:
        v = v.strip()
        if info.data.get("sticky_sessions") == "cookie" and not v:
            raise ValueError("required with cookie sessions: the cookie that names the server")
        return v

    @field_validator("server_ip")
    @classmethod
    def _servers(cls, v: list[str]) -> list[str]:
        out = []
        for ip in v:
            try:
                out.append(str(ipaddress.ip_address(ip.strip())))
            except ValueError:
                raise ValueError(f"{ip.strip()} is not an IPv4 or IPv6 address") from None
        return once_each(out)


CHOICES: Choices = {
    "forward_protocol": [("tcp", "tcp"), ("http", "http")],
    "forward_port_algorithm": [
        ("roundrobin: each server in turn", "roundrobin"),
        ("leastconn: the server with the fewest connections", "leastconn"),
        ("first: the first server with a free slot", "first"),
    ],
    "sticky_sessions": [
        ("none", "none"),
        ("cookie: a cookie names the server", "cookie"),
        ("table: the client's address is remembered", "table"),
    ],
    **{
        f"health_check.check.{kind}.method": [(m, m) for m in ("GET", "HEAD", "POST", "PUT", "OPTIONS")]
        for kind in ("http", "https")
    },
}


async def backend_options(service: ResourceService, scope: str) -> tuple[Choices, dict[str, Any]]:
    return CHOICES, {}


# ---- what is sent -------------------------------------------------------------------------------
def settings_body(form: BackendForm) -> dict[str, Any]:
    """The backend's own settings (`PUT /backends/{id}` takes these, not servers or health check)."""
    body: dict[str, Any] = {
        "name": form.name,
        "forward_protocol": form.forward_protocol,
        "forward_port": form.forward_port,
        "forward_port_algorithm": form.forward_port_algorithm,
        "sticky_sessions": form.sticky_sessions,
        "send_proxy_v2": form.send_proxy_v2,
    }
    if form.sticky_sessions == "cookie":
        body["sticky_sessions_cookie_name"] = form.sticky_sessions_cookie_name
    for key in ("timeout_server", "timeout_connect"):
        if getattr(form, key) is not None:
            body[key] = getattr(form, key)
    return body


def servers_body(form: BackendForm) -> dict[str, Any]:
    return {"server_ip": list(form.server_ip)}


def health_body(form: BackendForm) -> dict[str, Any]:
    """The health check as the API takes it: its timing, and the chosen kind as `<kind>_config`
    (the only one set), empty optional fields left out."""
    hc = form.health_check
    config = {k: v for k, v in hc.check.model_dump(exclude={"kind"}).items() if v is not None and v != ""}
    return {
        "port": hc.port or form.forward_port,
        "check_delay": hc.check_delay,
        "check_timeout": hc.check_timeout,
        "check_max_retries": hc.check_max_retries,
        f"{hc.check.kind}_config": config,
    }


def create_payload(form: BackendForm, c: Context) -> dict[str, Any]:
    return {**settings_body(form), **servers_body(form), "health_check": health_body(form)}


# ---- what the edit opens with ---------------------------------------------------------------------
def as_ms(value: object) -> int | None:
    """A duration as the API may send it: milliseconds, or a string with its unit ("3s")."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    m = DURATION.match(value.strip()) if isinstance(value, str) else None
    return int(float(m.group(1)) * {"ms": 1, "s": 1000, "m": 60_000}[m.group(2)]) if m else None


def backend_values(row: Row) -> dict[str, Any]:
    hc = row.obj("health_check")
    kind = check_kind(hc)
    model = VARIANTS.get(kind, TcpCheck)
    config: Any = hc.get(f"{kind}_config") if isinstance(hc.get(f"{kind}_config"), dict) else {}  # JSON: a dict
    check = {
        "kind": model.model_fields["kind"].default,
        **{k: v for k, v in config.items() if k in model.model_fields and v is not None},
    }
    health: dict[str, Any] = {"port": hc.get("port"), "check": check}
    for key in ("check_delay", "check_timeout"):
        health[key] = as_ms(hc.get(key))
    health["check_max_retries"] = hc.get("check_max_retries")
    return {
        "name": row.name,
        "forward_protocol": row.text("forward_protocol"),
        "forward_port": row.get("forward_port"),
        "forward_port_algorithm": row.text("forward_port_algorithm") or "roundrobin",
        "sticky_sessions": row.text("sticky_sessions") or "none",
        "sticky_sessions_cookie_name": row.text("sticky_sessions_cookie_name"),
        "server_ip": servers_of(row.data),
        "send_proxy_v2": bool(row.get("send_proxy_v2")),
        "timeout_server": as_ms(row.get("timeout_server")),
        "timeout_connect": as_ms(row.get("timeout_connect")),
        "health_check": {k: v for k, v in health.items() if v is not None},
    }


CREATE = CreateSpec(BackendForm, create_payload, backend_options)
EDIT = EditSpec(
    BackendForm,
    backend_values,
    options=backend_options,
    method="PUT",
    steps=(
        EditStep("settings", Call("PUT", "{id}"), settings_body),
        EditStep("servers", Call("PUT", "{id}/servers"), servers_body),
        EditStep("health check", Call("PUT", "{id}/healthcheck"), health_body),
    ),
)
