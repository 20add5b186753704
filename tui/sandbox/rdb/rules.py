"""The checks the sandbox's relational-database API makes on what it is sent (spec 2 §2.3, §4.3,
§8; spec/4), each answered with the invalid_arguments details of spec/4."""

from __future__ import annotations

import ipaddress
import re
from typing import Any, Callable

from ..core import check_password, is_uuid

Detail = tuple[str, str, str]
USER_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,62}$")
DB_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]{0,62}$")
PERMISSIONS = ("none", "readonly", "readwrite", "all")


HA_MODES = ("unknown_high_availability_mode", "disabled", "single_zone", "multiple_zone")


def high_availability(body: dict[str, Any]) -> tuple[list[Detail], bool]:
    """Whether a new instance is a cluster: `is_ha_cluster`, or `high_availability_mode`, which the
    newer public clients always send ("unknown_high_availability_mode" when none was chosen)."""
    mode = body.get("high_availability_mode")
    if mode is not None and mode not in HA_MODES:
        return [
            ("high_availability_mode", "constraint", f"high_availability_mode is one of {', '.join(HA_MODES)}")
        ], False
    if mode == "disabled" and body.get("is_ha_cluster"):
        return [("high_availability_mode", "constraint", "disabled, while is_ha_cluster is true")], False
    return [], bool(body.get("is_ha_cluster")) or mode in ("single_zone", "multiple_zone")


def required(body: dict[str, Any], *names: str) -> list[Detail]:
    return [(n, "required", f"{n} is required") for n in names if body.get(n) in (None, "")]


password = check_password  # the platform-wide rule


def user_name(name: object, field: str = "name") -> list[Detail]:
    if not isinstance(name, str) or not USER_NAME.match(name):
        return [(field, "format", "1 to 63 letters, digits, _ or -, starting with a letter")]
    return []


def db_name(name: object, field: str = "name") -> list[Detail]:
    if not isinstance(name, str) or not DB_NAME.match(name):
        return [(field, "format", "1 to 63 letters, digits, _ or -, not starting with a digit")]
    return []


def tags(value: object) -> list[Detail]:
    if value is not None and not (isinstance(value, list) and all(isinstance(t, str) for t in value)):
        return [("tags", "format", "a list of strings")]
    return []


def acl_rules(rules: object, field: str = "rules") -> list[Detail]:
    if not isinstance(rules, list):
        return [(field, "format", "a list of {ip, description}")]
    seen: set[str] = set()
    for n, r in enumerate(rules):
        if not isinstance(r, dict) or not isinstance(r.get("ip"), str):
            return [(f"{field}.{n}.ip", "required", "ip is required")]
        try:
            net = ipaddress.ip_network(r["ip"], strict=True)
        except ValueError:
            return [(f"{field}.{n}.ip", "format", f"{r['ip']!r} is not an IP address or network in CIDR notation")]
        if str(net) in seen:
            return [(f"{field}.{n}.ip", "constraint", f"{net} is given twice")]
        seen.add(str(net))
        if len(str(r.get("description") or "")) > 255:
            return [(f"{field}.{n}.description", "constraint", "at most 255 characters")]
    return []


def settings(
    version: dict[str, Any] | None, values: object, field: str = "settings", init: bool = False
) -> list[Detail]:
    """Each {name, value} a setting of the engine version (init-only ones only at creation), typed and in bounds."""
    if not isinstance(values, list):
        return [(field, "format", "a list of {name, value}")]
    version = version or {}
    hot = {s["name"]: s for s in version.get("available_settings", [])}
    cold = {s["name"]: s for s in version.get("available_init_settings", [])}
    known = cold if init else hot
    for n, s in enumerate(values):
        if not isinstance(s, dict) or not isinstance(s.get("name"), str):
            return [(f"{field}.{n}.name", "required", "name is required")]
        name, value = s["name"], str(s.get("value", ""))
        if not init and name in cold:
            return [(f"{field}.{n}.name", "constraint", f"{name} can only be set when the engine is initialised")]
        spec = known.get(name)
        if spec is None:
            return [
                (
                    f"{field}.{n}.name",
                    "constraint",
                    f"{name!r} is not a setting of {version.get('name', 'this engine')}",
                )
            ]
        bad = setting_value(spec, value)
        if bad:
            return [(f"{field}.{n}.value", "constraint", f"{name}: {bad}")]
    return []


# A number setting's kind: how its value is read, its bounds' prefix in the spec, what it must be.
NUMBERS: dict[str, tuple[Callable[[str], float], str, str]] = {
    "INT": (int, "int", "a whole number"),
    "FLOAT": (float, "float", "a number"),
}


def setting_value(spec: dict[str, Any], value: str) -> str | None:
    kind = spec.get("property_type")
    if kind in NUMBERS:
        parse, bound, what = NUMBERS[kind]
        try:
            v = parse(value)
        except ValueError:
            return what
        low, high = f"{bound}_min", f"{bound}_max"
        if (spec.get(low) is not None and v < spec[low]) or (spec.get(high) is not None and v > spec[high]):
            return f"between {spec[low]} and {spec[high]}"
    elif kind == "BOOLEAN" and value not in ("true", "false"):
        return "true or false"
    elif kind == "STRING" and spec.get("string_constraint") and not re.match(spec["string_constraint"], value):
        return f"must match {spec['string_constraint']}"
    return None


def endpoint_spec(spec: object, field: str, allowed: tuple[str, ...]) -> list[Detail]:
    """One endpoint spec: exactly one of `allowed` (load_balancer, private_network, direct_access)."""
    if not isinstance(spec, dict) or len(spec) != 1 or next(iter(spec)) not in allowed:
        return [(field, "constraint", f"exactly one of {', '.join(allowed)}")]
    pn = spec.get("private_network")
    if pn is not None:
        if not isinstance(pn, dict) or not is_uuid(pn.get("private_network_id")):
            return [(f"{field}.private_network.private_network_id", "format", "the private network's UUID")]
        if ("service_ip" in pn) == ("ipam_config" in pn):
            return [(f"{field}.private_network", "constraint", "exactly one of service_ip and ipam_config")]
        if "service_ip" in pn:
            try:
                iface = ipaddress.IPv4Interface(str(pn["service_ip"]))
            except ValueError:
                return [(f"{field}.private_network.service_ip", "format", "an IPv4 address in CIDR notation")]
            if "/" not in str(pn["service_ip"]) or not iface.ip.is_private:
                return [
                    (f"{field}.private_network.service_ip", "constraint", "a private IPv4 address in CIDR notation")
                ]
    return []


def replica_endpoints(existing: list[dict[str, Any]], specs: object, field: str = "endpoint_spec") -> list[Detail]:
    """At most one direct-access and one private-network endpoint per read replica (spec 2 §4.3 rule 2, §8)."""
    if not isinstance(specs, list):
        return [(field, "format", "a list of endpoint specs")]
    for n, spec in enumerate(specs):
        errs = endpoint_spec(spec, f"{field}.{n}", ("direct_access", "private_network"))
        if errs:
            return errs
    kinds = [k for e in existing for k in ("direct_access", "private_network") if k in e] + [
        next(iter(s)) for s in specs
    ]
    for k in ("direct_access", "private_network"):
        if kinds.count(k) > 1:
            return [(field, "constraint", f"a read replica has at most one {k.replace('_', '-')} endpoint")]
    return []
