"""What the load-balancer API refuses in a backend, a health check and a frontend (spec 3 §2.3,
spec/4 "Load balancer"; the public client libraries for what those leave out): each check returns
`(argument, reason, help)` tuples for `invalid_arguments`."""

from __future__ import annotations

import ipaddress
import re
from typing import Any

Errs = list[tuple[str, str, str]]
CHECK_KINDS = (
    "tcp_config",
    "http_config",
    "https_config",
    "mysql_config",
    "pgsql_config",
    "ldap_config",
    "redis_config",
)
PROTOCOLS = ("tcp", "http")
ALGORITHMS = ("roundrobin", "leastconn", "first")
STICKY = ("none", "cookie", "table")
SSL_LEVELS = ("ssl_compatibility_level_intermediate", "ssl_compatibility_level_modern", "ssl_compatibility_level_old")
DURATION = re.compile(r"^(\d+(?:\.\d+)?)(ms|s|m)$")
# What a backend create or update may carry: spec 3 §2.3 and the public clients' CreateBackendRequest.
BACKEND_FIELDS = {
    "name",
    "forward_protocol",
    "forward_port",
    "forward_port_algorithm",
    "sticky_sessions",
    "sticky_sessions_cookie_name",
    "health_check",
    "server_ip",
    "send_proxy_v2",
    "timeout_server",
    "timeout_connect",
    "timeout_tunnel",
    "on_marked_down_action",
    "proxy_protocol",
    "failover_host",
    "ssl_bridging",
    "ignore_ssl_server_verify",
    "redispatch_attempt_count",
    "max_retries",
    "max_connections",
    "timeout_queue",
    "host",
}
CHECK_FIELDS = {
    "port",
    "check_delay",
    "check_timeout",
    "check_max_retries",
    "check_send_proxy",
    "transient_check_delay",
    *CHECK_KINDS,
}
FRONTEND_FIELDS = {
    "name",
    "inbound_port",
    "inbound_protocol",
    "backend_id",
    "timeout_client",
    "certificate_id",
    "certificate_ids",
    "enable_http3",
    "connection_rate_limit",
    "enable_access_logs",
}


def millis(value: object) -> int | None:
    """A duration as sent: milliseconds (an integer, spec/4) or a string with its unit ("3s",
    "2.500s", "300ms", as newer public clients send them). None when it is neither."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        m = DURATION.match(value.strip())
        if m:
            return int(float(m.group(1)) * {"ms": 1, "s": 1000, "m": 60_000}[m.group(2)])
    return None


def port(value: object, field: str, required: bool = True) -> Errs:
    if value is None:
        return [(field, "required", f"{field} is required")] if required else []
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 65535:
        return [(field, "constraint", f"{field} is a port from 1 to 65535")]
    return []


def check_ips(ips: object, field: str = "server_ip") -> Errs:
    if not isinstance(ips, list):
        return [(field, "format", f"{field} is a list of IPv4 or IPv6 addresses")]
    for i, ip in enumerate(ips):
        try:
            ipaddress.ip_address(str(ip))
        except ValueError:
            return [(f"{field}.{i}", "format", f"{ip!r} is not an IPv4 or IPv6 address")]
    if len(set(ips)) != len(ips):
        return [(field, "constraint", "an address is listed twice")]
    return []


def check_health(hc: object, field: str = "health_check") -> Errs:
    """Timing, port, and exactly one of the seven check configurations with its own fields."""
    if not isinstance(hc, dict):
        return [(field, "required", "health_check is required")]
    errs: Errs = [(f"{field}.{k}", "unknown", f"{k} is not a health-check field") for k in hc if k not in CHECK_FIELDS]
    errs += port(hc.get("port"), f"{field}.port")
    for key in ("check_delay", "check_timeout", "transient_check_delay"):
        # (`millis` called again: not None, as the first call said; mypy cannot know that)
        if hc.get(key) is not None and (millis(hc[key]) is None or millis(hc[key]) < 0):  # type: ignore[operator]
            errs.append((f"{field}.{key}", "format", f"{key} is a duration: milliseconds, or a string such as '3s'"))
    retries = hc.get("check_max_retries")
    if retries is not None and (isinstance(retries, bool) or not isinstance(retries, int) or retries < 0):
        errs.append((f"{field}.check_max_retries", "constraint", "check_max_retries is a whole number, 0 or more"))
    kinds = [k for k in CHECK_KINDS if hc.get(k) is not None]
    if len(kinds) != 1:
        errs.append((field, "constraint", "exactly one of " + ", ".join(CHECK_KINDS) + f" is set ({len(kinds)} given)"))
        return errs
    kind, config = kinds[0], hc[kinds[0]]
    if not isinstance(config, dict):
        return errs + [(f"{field}.{kind}", "format", f"{kind} is an object")]
    if kind in ("http_config", "https_config"):
        uri = config.get("uri")
        if not isinstance(uri, str) or not uri.startswith("/"):
            errs.append((f"{field}.{kind}.uri", "format", "uri is a path starting with /"))
        code = config.get("code")
        if code is not None and (isinstance(code, bool) or not isinstance(code, int) or not 100 <= code <= 599):
            errs.append((f"{field}.{kind}.code", "constraint", "code is an HTTP status from 100 to 599"))
        method = config.get("method")
        if method is not None and method not in ("GET", "HEAD", "POST", "PUT", "OPTIONS"):
            errs.append((f"{field}.{kind}.method", "constraint", "method is GET, HEAD, POST, PUT or OPTIONS"))
    if kind in ("mysql_config", "pgsql_config") and not (isinstance(config.get("user"), str) and config["user"]):
        errs.append((f"{field}.{kind}.user", "required", "user is required: the check logs in as this user"))
    return errs


def normal_health(hc: dict[str, Any]) -> dict[str, Any]:
    """A health check as answered: durations in milliseconds, the one configuration kept."""
    out = {
        "port": hc["port"],
        "check_delay": millis(hc.get("check_delay", 3000)),
        "check_timeout": millis(hc.get("check_timeout", 1000)),
        "check_max_retries": hc.get("check_max_retries", 2),
        "check_send_proxy": bool(hc.get("check_send_proxy", False)),
        "transient_check_delay": millis(hc.get("transient_check_delay", 500)),
    }
    kind = next(k for k in CHECK_KINDS if hc.get(k) is not None)
    config = dict(hc[kind])
    if kind in ("http_config", "https_config"):
        config = {
            "uri": config["uri"],
            "method": config.get("method") or "GET",
            "code": config.get("code"),
            **({"sni": config.get("sni") or ""} if kind == "https_config" else {}),
            "host_header": config.get("host_header") or "",
        }
    out[kind] = config
    return out


def _named_port(body: dict[str, Any], creating: bool, kind: str, fields: set[str], port_key: str) -> Errs:
    """What a backend and a frontend check alike: no field but `fields`, a name and a port (both
    required when creating)."""
    errs: Errs = [(k, "unknown", f"{k} is not a {kind} field") for k in body if k not in fields]
    if creating or "name" in body:
        if not isinstance(body.get("name"), str) or not body["name"]:
            errs.append(("name", "required", "name is required"))
    if creating or port_key in body:
        errs += port(body.get(port_key), port_key)
    return errs


def _durations(body: dict[str, Any], *keys: str) -> Errs:
    """The fields among `keys` given but not durations."""
    return [
        (key, "format", f"{key} is a duration: milliseconds, or a string such as '30s'")
        for key in keys
        if body.get(key) is not None and millis(body[key]) is None
    ]


def check_backend(body: dict[str, Any], creating: bool) -> Errs:
    errs = _named_port(body, creating, "backend", BACKEND_FIELDS, "forward_port")
    for key, allowed, required in (
        ("forward_protocol", PROTOCOLS, True),
        ("forward_port_algorithm", ALGORITHMS, False),
        ("sticky_sessions", STICKY, False),
    ):
        value = body.get(key)
        if value is None:
            if required and creating:
                errs.append((key, "required", f"{key} is required"))
        elif value not in allowed:
            errs.append((key, "constraint", f"{key} is one of {', '.join(allowed)}"))
    if body.get("sticky_sessions") == "cookie" and not body.get("sticky_sessions_cookie_name"):
        errs.append(("sticky_sessions_cookie_name", "required", "cookie sessions need the cookie's name"))
    if body.get("send_proxy_v2") is not None and not isinstance(body["send_proxy_v2"], bool):
        errs.append(("send_proxy_v2", "format", "send_proxy_v2 is a boolean"))
    errs += _durations(body, "timeout_server", "timeout_connect", "timeout_tunnel")
    if creating:
        errs += check_health(body.get("health_check"))
        errs += check_ips(body.get("server_ip", []))
    return errs


def check_frontend(body: dict[str, Any], creating: bool) -> Errs:
    errs = _named_port(body, creating, "frontend", FRONTEND_FIELDS, "inbound_port")
    if body.get("inbound_protocol") is not None and body["inbound_protocol"] not in PROTOCOLS:  # spec 3 §2.3
        errs.append(("inbound_protocol", "constraint", f"inbound_protocol is one of {', '.join(PROTOCOLS)}"))
    if (creating or "backend_id" in body) and not body.get("backend_id"):
        errs.append(("backend_id", "required", "backend_id is required"))
    errs += _durations(body, "timeout_client")
    ids = body.get("certificate_ids")
    if ids is not None and (not isinstance(ids, list) or not all(isinstance(i, str) for i in ids)):
        errs.append(("certificate_ids", "format", "certificate_ids is a list of certificate IDs"))
    return errs
