"""Commands, snippets and configurations offered to copy, built from checked values.

What the console offers to copy is pasted into a shell (often as root) or into an agent's
configuration, and many of its values come from API answers: a registry endpoint, a VLAN id, a
tag's name, a push address. An answer holding `host;id>pwned.txt;#` must not become a command that
runs `id`. So every such text is built here, by one function, from values that say what they must
be:

    command("docker login {host} -u nologin --password-stdin", host=host("the registry host", h))

Each value is checked against its kind (a host name, a port, an integer in a range, an image tag,
an image name, a path, a URL, a UUID, a token) and then quoted for where it goes: `shlex.quote` in
a shell command (`command`), a double-quoted scalar in YAML (`config`), as it is in a DNS record
line (`record`: the kinds it takes need no quoting). A value that fails its check
raises `CommandRefused`, saying which value and why; the console shows that instead of the command,
and nothing is copied. A command that sends the platform's secret key somewhere names a host of the
profile's own origins only (`key_goes_to`).

Templates are code, never API text: only the `{name}` placeholders take values.
"""

from __future__ import annotations

import json
import re
import shlex
from typing import Any, Callable, Iterable
from urllib.parse import urlsplit

_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOST = re.compile(rf"{_LABEL}(?:\.{_LABEL})*")
_IPV4 = re.compile(r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}")
_TAG = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}")  # the container clients' tag grammar
_IMAGE_PART = r"[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*"
_IMAGE = re.compile(rf"{_IMAGE_PART}(?:/{_IMAGE_PART})*")  # a repository path: namespace/image
_PATH = re.compile(r"[A-Za-z0-9_.~%@+=,:/][A-Za-z0-9_.~%@+=,:/-]*")  # never an option (-x)
_UUID = re.compile(r"[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}")
_USER = re.compile(r"[a-z_][a-z0-9_.-]{0,31}")
_TOKEN = re.compile(r"[A-Za-z0-9_.~+/=][A-Za-z0-9_.~+/=-]{0,511}")
_INTEGER = re.compile(r"-?[0-9]{1,18}")


class CommandRefused(ValueError):
    """A command, snippet or configuration not built: `reason` says which value failed and why
    (shown in place of the command; nothing is copied)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Value:
    """A value for a template, with what it must be: `kind` (a checker's name), `label` (what it
    is, as a refusal says it: "the registry host") and the value itself, as the API gave it."""

    __slots__ = ("kind", "label", "value", "low", "high")

    def __init__(self, kind: str, label: str, value: Any, low: int | None = None, high: int | None = None) -> None:
        self.kind, self.label, self.value, self.low, self.high = kind, label, value, low, high

    def checked(self) -> str:
        """The value as text once it passed its check; CommandRefused otherwise."""
        text = "" if self.value is None else str(self.value)
        if not text:
            raise CommandRefused(f"{self.label} is empty")
        why = CHECKS[self.kind](text, self)
        if why:
            raise CommandRefused(f"{self.label} {_shown(text)} {why}")
        return text


def _shown(text: str) -> str:
    """A refused value as a refusal quotes it: one line, control characters visible (as everywhere
    else: an escape already shown visibly in the answer is not escaped again), not too long."""
    from ...api.safe import clean

    return "'" + clean(text[:80]) + ("…'" if len(text) > 80 else "'")


def _host(text: str, v: Value | None = None) -> str | None:
    if len(text) <= 253 and (_HOST.fullmatch(text) or _IPV4.fullmatch(text)):
        return None
    return "is not a host name (letters, digits, hyphens and dots only)"


def _address(text: str, v: Value | None = None) -> str | None:
    """A host with an optional port (`registry.example:5000`)."""
    host, colon, port = text.rpartition(":") if ":" in text else (text, "", "")
    if _host(host) or (colon and _port(port)):
        return "is not a host name with an optional port (host or host:port)"
    return None


_SCOPE_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")  # an IPv6 zone (`fe80::1%eth0`): an interface's name at most


def _ip(text: str, v: Value | None = None) -> str | None:
    import ipaddress

    try:
        ipaddress.ip_address(text)  # (Python takes any text after % as a scope id)
    except ValueError:
        return "is not an IP address"
    scope = text.partition("%")[2]
    if "%" in text and not _SCOPE_ID.fullmatch(scope):
        return "is not an IP address (its scope id after % may hold letters, digits, . - _ only)"
    return None


def _port(text: str, v: Value | None = None) -> str | None:
    return None if text.isascii() and text.isdigit() and 1 <= int(text) <= 65535 else "is not a port (1 to 65535)"


def _integer(text: str, v: Value) -> str | None:
    if not _INTEGER.fullmatch(text):
        return "is not a whole number"
    number = int(text)
    if (v.low is not None and number < v.low) or (v.high is not None and number > v.high):
        return f"is not between {v.low} and {v.high}"
    return None


def _pattern(regex: re.Pattern[str], what: str) -> Callable[[str, Value], str | None]:
    return lambda text, v: None if regex.fullmatch(text) else what


def _url(text: str, v: Value) -> str | None:
    parts = urlsplit(text)
    try:
        port = parts.port
    except ValueError:
        port = -1
    bad = (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or _host(parts.hostname)
        or port == -1
        or "@" in parts.netloc
        or parts.query
        or parts.fragment
        or not _PATH.fullmatch(parts.path or "/")
    )
    return "is not an http(s) address (scheme, host, optional port and path only)" if bad else None


CHECKS: dict[str, Callable[[str, Value], str | None]] = {
    "host": _host,
    "address": _address,
    "ip": _ip,
    "port": _port,
    "integer": _integer,
    "tag": _pattern(_TAG, "is not an image tag (letters, digits, _ . -, at most 128, not starting with . or -)"),
    "image": _pattern(
        _IMAGE, "is not an image name (lower-case letters, digits and . _ - separators, parts joined by /)"
    ),
    "path": _pattern(_PATH, "is not a plain path (letters, digits and _ . ~ % @ + = , : / -, not starting with -)"),
    "url": _url,
    "uuid": _pattern(_UUID, "is not a UUID"),
    "token": _pattern(_TOKEN, "is not a token (letters, digits and _ . ~ + / = -, not starting with -)"),
    "user": _pattern(_USER, "is not a user name (lower-case letters, digits and _ . -, starting with a letter or _)"),
}


def _checked_as(kind: str) -> Callable[[str, Any], Value]:
    def value(label: str, v: Any) -> Value:
        return Value(kind, label, v)

    value.__name__ = kind
    return value


def integer(label: str, value: Any, low: int | None = None, high: int | None = None) -> Value:
    return Value("integer", label, value, low, high)


# A value checked as its kind says before it is quoted: `host("Host", row.get("ip"))`.
host, address, port, tag, image = map(_checked_as, ("host", "address", "port", "tag", "image"))
path, url, uuid, token, user, ip = map(_checked_as, ("path", "url", "uuid", "token", "user", "ip"))


def _build(template: str, quote: Callable[[str], str], values: dict[str, Value]) -> str:
    return template.format_map({name: quote(v.checked()) for name, v in values.items()})


def command(template: str, **values: Value) -> str:
    """A shell command or snippet: each `{name}` of `template` is its value, checked then
    shell-quoted (`shlex.quote`). CommandRefused when a value fails its check."""
    return _build(template, shlex.quote, values)


def config(template: str, **values: Value) -> str:
    """A YAML configuration: each `{name}` is its value, checked then written as a double-quoted
    scalar (a token of digits stays a string). CommandRefused when a value fails its check."""
    return _build(template, json.dumps, values)


def record(template: str, **values: Value) -> str:
    """A line for a zone file or a record form: each `{name}` is its value once checked, as it is
    (the kinds it takes — host names, tokens — hold no quote, space or newline to escape)."""
    return _build(template, str, values)


def key_goes_to(host_value: Value, origins: Iterable[str], profile: str = "") -> str:
    """The host a command sends the secret key to, once checked to be a host of the profile's own
    origins (its API URL, its generative-model API URL, the origins it allows); CommandRefused
    otherwise, saying how to allow it."""
    text = host_value.checked()
    name = text.rpartition(":")[0] if _address(text) is None and ":" in text else text
    hosts = {(urlsplit(o).hostname or "").lower() for o in origins if o}
    if name.lower() not in hosts:
        whose = f"profile {profile!r}" if profile else "the profile"
        raise CommandRefused(
            f"{host_value.label} {name} is not one of the origins {whose} sends the secret key to "
            f"(add https://{name} to its allowed_origins to have this line)"
        )
    return text
