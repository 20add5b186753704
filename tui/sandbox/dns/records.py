"""What a DNS record may hold: the record fields of spec 3 §2.1, checked per type, with at most one
dynamic config (spec 3 §7.3).

The choices the spec leaves open, made here once:
- types are those of spec 3 §2.1 (`unknown` is refused) plus the further types of the public
  clients' `RecordType` (LOC, SSHFP… taken with any non-empty data); a type is matched in any case
  (the Python client sends `a`) and stored in upper case;
- data per type: A an IPv4 address, AAAA an IPv6 address, CNAME/ALIAS/NS/PTR/DNAME and MX a host
  name, SRV `weight port target`, TLSA `usage selector matching-type hex`, CAA `flags tag "value"`,
  TXT any non-empty text up to 4,096 characters; MX and SRV need a `priority` (0 to 65535);
- TTL from 60 s to 30 days (2,592,000 s), 3,600 s when none is given;
- dynamic configs: HTTP-service and weighted records hold IPs, so they are A or AAAA only; geo-IP
  and view records answer data of the record's own type, and are A, AAAA, CNAME or TXT.
A record's content is returned normalised (ASCII names, upper-case type, compressed IPv6); the
store gives it its `id` and `updated_at`.
"""

from __future__ import annotations

import ipaddress
import re
from typing import Any, cast

from .names import host_name, record_name

Err = tuple[str, str, str]

TYPES = ("A", "AAAA", "CNAME", "TXT", "SRV", "TLSA", "MX", "NS", "PTR", "CAA", "ALIAS")  # spec 3 §2.1
EXTRA_TYPES = (
    "LOC",
    "SSHFP",
    "HINFO",
    "RP",
    "URI",
    "DS",
    "NAPTR",
    "DNAME",
    "SVCB",
    "HTTPS",
)  # the public clients' RecordType
HOST_TYPES = ("CNAME", "ALIAS", "NS", "PTR", "DNAME", "MX")
DYNAMIC = ("geo_ip_config", "http_service_config", "weighted_config", "view_config")
DYNAMIC_TYPES = {
    "geo_ip_config": ("A", "AAAA", "CNAME", "TXT"),
    "view_config": ("A", "AAAA", "CNAME", "TXT"),
    "http_service_config": ("A", "AAAA"),
    "weighted_config": ("A", "AAAA"),
}
TTL_MIN, TTL_MAX, DEFAULT_TTL = 60, 2_592_000, 3600
TXT_MAX = 4096
COMMENT_MAX = 255
CONTINENTS = ("AF", "AN", "AS", "EU", "NA", "OC", "SA")
STRATEGIES = ("random", "hashed", "all")
# What a record may carry in a request: its fields, the dynamic configs, and what the clients echo back.
RECORD_FIELDS = {"id", "name", "data", "type", "ttl", "priority", "comment", "updated_at", *DYNAMIC}
CAA = re.compile(r'^(\d{1,3})\s+([A-Za-z0-9]+)\s+"([^"]*)"$')
HEX = re.compile(r"^[0-9a-fA-F]+$")


def record_type(value: object) -> str | None:
    """The type in upper case if the sandbox takes it."""
    if not isinstance(value, str):
        return None
    upper = value.upper()
    return upper if upper in TYPES or upper in EXTRA_TYPES else None


def _int_in(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _ip(value: object, version: int) -> str | None:
    try:
        ip = ipaddress.ip_address(value) if isinstance(value, str) else None
    except ValueError:
        return None
    return str(ip) if ip is not None and ip.version == version else None


def check_data(rtype: str, data: object) -> tuple[str | None, str]:
    """The record data normalised for its type, or None with what was expected."""
    if not isinstance(data, str) or not data.strip():
        return None, "data is required"
    text = data.strip()
    if rtype == "A":
        return _ip(text, 4), f"an A record holds an IPv4 address, not {text!r}"
    if rtype == "AAAA":
        return _ip(text, 6), f"an AAAA record holds an IPv6 address, not {text!r}"
    if rtype in HOST_TYPES:
        return host_name(text), f"a {rtype} record holds a host name, not {text!r}"
    if rtype == "SRV":
        parts = text.split()
        ok = (
            len(parts) == 3
            and all(p.isdigit() and int(p) <= 65535 for p in parts[:2])
            and host_name(parts[2]) is not None
        )
        return (
            f"{int(parts[0])} {int(parts[1])} {host_name(parts[2])}" if ok else None
        ), "an SRV record holds 'weight port target'"
    if rtype == "TLSA":
        parts = text.split()
        ok = (
            len(parts) == 4
            and all(p.isdigit() for p in parts[:3])
            and int(parts[0]) <= 3
            and int(parts[1]) <= 1
            and int(parts[2]) <= 2
            and HEX.match(parts[3]) is not None
            and len(parts[3]) % 2 == 0
            and (parts[2] != "1" or len(parts[3]) == 64)
            and (parts[2] != "2" or len(parts[3]) == 128)
        )
        return (
            " ".join([*(str(int(p)) for p in parts[:3]), parts[3].lower()]) if ok else None,
            "a TLSA record holds 'usage(0-3) selector(0-1) matching-type(0-2) hex-data'",
        )
    if rtype == "CAA":
        m = CAA.match(text)
        ok = m is not None and int(m.group(1)) <= 255
        return (
            f'{int(m.group(1))} {m.group(2).lower()} "{m.group(3)}"' if ok and m else None
        ), "a CAA record holds 'flags tag \"value\"'"
    if rtype == "TXT":
        if (
            len(re.findall(r'(?<!\\)"', data.replace("\\\\", ""))) % 2
        ):  # a quoted string left open is refused, not published
            return None, 'a TXT record\'s quoted strings are closed: a quote (") is left open (\\" for a quote inside)'
        return (data if len(data) <= TXT_MAX else None), f"at most {TXT_MAX} characters"
    return text, ""


def _check_ips(ips: object, version: int, where: str) -> tuple[list[str], list[Err]]:
    if not isinstance(ips, list) or not ips:
        return [], [(where, "required", "a non-empty list of IP addresses")]
    out = [_ip(ip, version) for ip in ips]
    bad = [i for i, ip in enumerate(out) if ip is None]
    if bad:
        return [], [(f"{where}.{bad[0]}", "format", f"an IPv{version} address for this record type")]
    return [ip for ip in out if ip is not None], []


def _check_answer(rtype: str, data: object, where: str) -> tuple[str | None, list[Err]]:
    value, help_message = check_data(rtype, data)
    return value, ([] if value is not None else [(where, "format", help_message)])


def check_config(kind: str, cfg: object, rtype: str, where: str) -> tuple[dict[str, Any] | None, list[Err]]:
    """One dynamic config of a record, normalised."""
    if rtype not in DYNAMIC_TYPES[kind]:
        return None, [(where, "constraint", f"{kind} is for {', '.join(DYNAMIC_TYPES[kind])} records, not {rtype}")]
    if not isinstance(cfg, dict):
        return None, [(where, "format", "an object")]
    version = 6 if rtype == "AAAA" else 4
    errs: list[Err] = []
    if kind == "geo_ip_config":
        matches, out = cfg.get("matches"), []
        if not isinstance(matches, list):
            return None, [(f"{where}.matches", "required", "a list of {countries, continents, data}")]
        for i, m in enumerate(matches):
            at = f"{where}.matches.{i}"
            if not isinstance(m, dict):
                errs.append((at, "format", "an object"))
                continue
            countries, continents = m.get("countries") or [], m.get("continents") or []
            if not (
                isinstance(countries, list)
                and all(isinstance(c, str) and re.fullmatch(r"[A-Za-z]{2}", c) for c in countries)
            ):
                errs.append((f"{at}.countries", "format", "two-letter country codes"))
            elif not (
                isinstance(continents, list) and all(isinstance(c, str) and c.upper() in CONTINENTS for c in continents)
            ):
                errs.append((f"{at}.continents", "format", f"continent codes among {', '.join(CONTINENTS)}"))
            elif not countries and not continents:
                errs.append((at, "constraint", "a match names countries or continents"))
            data, e = _check_answer(rtype, m.get("data"), f"{at}.data")
            errs += e
            if not errs:
                out.append(
                    {
                        "countries": [c.upper() for c in countries],
                        "continents": [c.upper() for c in continents],
                        "data": data,
                    }
                )
        default, e = _check_answer(rtype, cfg.get("default"), f"{where}.default")
        errs += e
        return (None if errs else {"matches": out, "default": default}), errs
    if kind == "http_service_config":
        ips, errs = _check_ips(cfg.get("ips"), version, f"{where}.ips")
        url = cfg.get("url")
        if not isinstance(url, str) or not re.match(r"^https?://[^/\s]+", url):
            errs.append((f"{where}.url", "format", "an http:// or https:// URL"))
        strategy = cfg.get("strategy") or "random"
        if strategy not in STRATEGIES:
            errs.append((f"{where}.strategy", "constraint", f"one of {', '.join(STRATEGIES)}"))
        for key in ("must_contain", "user_agent"):
            if cfg.get(key) is not None and not isinstance(cfg[key], str):
                errs.append((f"{where}.{key}", "format", "a string"))
        return (
            None
            if errs
            else {
                "ips": ips,
                "must_contain": cfg.get("must_contain"),
                "url": url,
                "user_agent": cfg.get("user_agent"),
                "strategy": strategy,
            }
        ), errs
    if kind == "weighted_config":
        items = cfg.get("weighted_ips")
        if not isinstance(items, list) or not items:
            return None, [(f"{where}.weighted_ips", "required", "a non-empty list of {ip, weight}")]
        out = []
        for i, w in enumerate(items):
            ip = _ip(w.get("ip"), version) if isinstance(w, dict) else None
            if ip is None:
                errs.append((f"{where}.weighted_ips.{i}.ip", "format", f"an IPv{version} address for this record type"))
            elif not _int_in(w.get("weight"), 0, 255):
                errs.append((f"{where}.weighted_ips.{i}.weight", "constraint", "a whole number from 0 to 255"))
            else:
                out.append({"ip": ip, "weight": w["weight"]})
        return (None if errs else {"weighted_ips": out}), errs
    views = cfg.get("views")  # view_config
    if not isinstance(views, list) or not views:
        return None, [(f"{where}.views", "required", "a non-empty list of {subnet, data}")]
    out = []
    for i, v in enumerate(views):
        at = f"{where}.views.{i}"
        try:
            subnet = (
                str(ipaddress.ip_network(cast(str, v.get("subnet")), strict=False))  # (a string: see the condition)
                if isinstance(v, dict) and isinstance(v.get("subnet"), str)
                else None
            )
        except ValueError:
            subnet = None
        if subnet is None:
            errs.append((f"{at}.subnet", "format", "a subnet in CIDR notation"))
            continue
        data, e = _check_answer(rtype, v.get("data"), f"{at}.data")
        errs += e
        out.append({"subnet": subnet, "data": data})
    return (None if errs else {"views": out}), errs


def check_record(
    raw: object, where: str, inherit: dict[str, Any] | None = None
) -> tuple[dict[str, Any] | None, list[Err]]:
    """A record of a request, normalised, or the reasons it is refused. In a `set`, a missing name,
    type, data or TTL is the replaced record's (`inherit`)."""
    if not isinstance(raw, dict):
        return None, [(where, "format", "a record object")]
    errs: list[Err] = [(f"{where}.{k}", "unknown", "unknown field") for k in sorted(set(raw) - RECORD_FIELDS)]
    base = inherit or {}
    given_type = raw.get("type") if raw.get("type") not in (None, "") else base.get("type")
    rtype = record_type(given_type)
    if rtype is None:
        errs.append(
            (
                f"{where}.type",
                "required" if given_type is None else "constraint",
                f"one of {', '.join(TYPES)}" + ("" if given_type is None else f", not {given_type!r}"),
            )
        )
    name = record_name(raw["name"]) if raw.get("name") is not None else base.get("name", "")
    if name is None:
        errs.append(
            (
                f"{where}.name",
                "format",
                "labels of letters, digits and dashes (a leading underscore or a first '*' allowed)",
            )
        )
    ttl = raw.get("ttl") if raw.get("ttl") is not None else base.get("ttl", DEFAULT_TTL)
    if not _int_in(ttl, TTL_MIN, TTL_MAX):
        errs.append((f"{where}.ttl", "constraint", f"a TTL from {TTL_MIN} to {TTL_MAX} seconds"))
    priority = raw.get("priority")
    if priority is None and rtype in ("MX", "SRV"):
        errs.append((f"{where}.priority", "required", f"a {rtype} record needs a priority"))
    elif priority is not None and not _int_in(priority, 0, 65535):
        errs.append((f"{where}.priority", "constraint", "a priority from 0 to 65535"))
    comment = raw.get("comment")
    if comment is not None and (not isinstance(comment, str) or len(comment) > COMMENT_MAX):
        errs.append((f"{where}.comment", "constraint", f"a text of at most {COMMENT_MAX} characters"))
    data = None
    given_data = raw.get("data") if raw.get("data") not in (None, "") else base.get("data")
    if rtype is not None:
        data, help_message = check_data(rtype, given_data)
        if data is None:
            errs.append((f"{where}.data", "required" if not given_data else "format", help_message))
    kinds = [k for k in DYNAMIC if raw.get(k) is not None]
    config: dict[str, Any] = {}
    if len(kinds) > 1:
        errs.append((where, "constraint", f"at most one of {', '.join(DYNAMIC)}; this record has {', '.join(kinds)}"))
    elif kinds and rtype is not None:
        value, e = check_config(kinds[0], raw[kinds[0]], rtype, f"{where}.{kinds[0]}")
        errs += e
        config = {kinds[0]: value}
    if errs:
        return None, errs
    return {
        "name": name,
        "data": data,
        "type": rtype,
        "ttl": ttl,
        "priority": priority or 0,
        "comment": comment,
        **config,
    }, []


def content(record: dict[str, Any]) -> dict[str, Any]:
    """A stored record without its identity and stamp: what two versions compare."""
    return {k: v for k, v in record.items() if k not in ("id", "updated_at")}
