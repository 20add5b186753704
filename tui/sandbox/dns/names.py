"""Names in the DNS sandbox: domains, zones, record labels and host-name data, stored as ASCII.

Spec 3 §1: names and data travel as Unicode (UTF-8); internationalised names are stored as ASCII
(Punycode). Every name the sandbox takes goes through one of these functions first, so `bücher` and
`xn--bcher-kva` name the same record, and what is answered is always the ASCII form. Labels are
encoded with Python's own `idna` codec, one label at a time (underscore labels such as `_dmarc` are
plain ASCII and never go through it). Each function answers the ASCII name, or None when the value
is not a name of that kind.
"""

from __future__ import annotations

import re

HOST_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")
# A record's own labels may start with an underscore (_dmarc, _sip._tcp) and the first may be `*`.
RECORD_LABEL = re.compile(r"^(?:\*|_?[a-z0-9](?:[a-z0-9_-]{0,61}[a-z0-9])?)$")
# Host names in record data (CNAME targets, DKIM keys) may hold underscores too.
DATA_LABEL = re.compile(r"^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$")
TLD = re.compile(r"^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$")
MAX_NAME = 253


def to_ascii(name: str) -> str | None:
    """The name in lower-case ASCII, each non-ASCII label in Punycode; None if a label cannot be."""
    out = []
    for label in name.split("."):
        if label.isascii():
            out.append(label.lower())
            continue
        try:
            out.append(label.encode("idna").decode("ascii"))
        except UnicodeError:
            return None
    return ".".join(out)


def domain_name(value: object) -> str | None:
    """A domain or zone name: two labels or more, a trailing dot allowed, an alphabetic (or
    Punycode) top-level label."""
    if not isinstance(value, str) or not value.strip():
        return None
    name = to_ascii(value.strip().removesuffix("."))
    if name is None or len(name) > MAX_NAME:
        return None
    labels = name.split(".")
    if len(labels) < 2 or not all(HOST_LABEL.match(label) for label in labels) or not TLD.match(labels[-1]):
        return None
    return name


def subdomain_name(value: object) -> str | None:
    """The `subdomain` of a zone: empty for the root zone, else host labels (`shop`, `eu.shop`)."""
    if value is None or value == "":
        return ""
    if not isinstance(value, str):
        return None
    name = to_ascii(value.strip().removesuffix("."))
    if name is None or not all(HOST_LABEL.match(label) for label in name.split(".")):
        return None
    return name


def record_name(value: object) -> str | None:
    """A record's name within its zone: empty (or `@`) for the zone's root, else labels; a
    wildcard `*` only as the first label."""
    if value is None or value in ("", "@"):
        return ""
    if not isinstance(value, str):
        return None
    name = to_ascii(value.strip())
    if name is None or not name or len(name) > MAX_NAME:
        return None
    labels = name.split(".")
    if not all(RECORD_LABEL.match(label) for label in labels) or "*" in labels[1:]:
        return None
    return name


def host_name(value: object) -> str | None:
    """A host name in record data (CNAME, ALIAS, NS, PTR, MX and SRV targets), relative or
    absolute (a trailing dot kept as given); `.` alone is the null target."""
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    if text == ".":
        return "."
    absolute = text.endswith(".")
    name = to_ascii(text.removesuffix("."))
    if name is None or len(name) > MAX_NAME or not all(DATA_LABEL.match(label) for label in name.split(".")):
        return None
    return name + "." if absolute else name


def zone_name(domain: str, subdomain: str) -> str:
    """The full name of a zone, as `{dns_zone}` is written in paths: `shop.example.com`."""
    return f"{subdomain}.{domain}" if subdomain else domain


def same_hosts(a: list[str], b: list[str]) -> bool:
    """Whether two name-server lists name the same servers (order and trailing dots aside)."""
    return sorted(n.lower().removesuffix(".") for n in a) == sorted(n.lower().removesuffix(".") for n in b)
