"""Form building blocks every product shares (no pydantic here: plain helpers its forms call)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import BaseModel, ValidationInfo

UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
HOST_LABEL = r"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
HOSTNAME = rf"^{HOST_LABEL}(\.{HOST_LABEL})*$"  # a DNS host name (labels of letters, digits, dashes)


def reverse_name(v: str) -> str:
    """A reverse DNS value: empty, or a host name (a final dot allowed); else a ValueError."""
    v = v.strip()
    if v and not re.match(HOSTNAME, v.rstrip(".")):
        raise ValueError("a host name such as host.example.com")
    return v


def network(v: str, example: str = "203.0.113.7/32") -> str:
    """An IP network in CIDR notation, IPv4 or IPv6 (a bare address is one host: /32 or /128).
    Host bits set are refused with the network meant, rather than silently dropped."""
    import ipaddress

    v = v.strip()
    try:
        return str(ipaddress.ip_network(v, strict=True))
    except ValueError:
        try:
            meant = ipaddress.ip_network(v, strict=False)
        except ValueError:
            raise ValueError(f"an IP address or a network in CIDR notation, such as {example}") from None
        raise ValueError(f"host bits are set: did you mean {meant}?") from None


def private_cidr(v: str) -> str:
    """A private (RFC 1918) IPv4 address in CIDR notation, such as 172.16.4.10/22: a service IP or a
    node's address on a private network."""
    import ipaddress

    v = v.strip()
    try:
        iface = ipaddress.IPv4Interface(v)
    except ValueError:
        raise ValueError(f"{v!r} is not an IPv4 address in CIDR notation, such as 10.0.0.5/24") from None
    if "/" not in v or not iface.ip.is_private or iface.ip.is_loopback or iface.ip.is_link_local:
        raise ValueError(f"{v} is not an RFC 1918 address (10/8, 172.16/12, 192.168/16) in CIDR notation")
    return v


def form_body(form: BaseModel) -> dict[str, Any]:
    """What a validated form sends: its values, a secret as its value, an optional secret left
    empty (None) left out — "unchanged", as an edit's new-password field means."""
    out: dict[str, Any] = {}
    fields = type(form).model_fields
    for key, value in form.model_dump().items():
        if hasattr(value, "get_secret_value"):
            value = value.get_secret_value()
        elif value is None and key in fields and _is_secret(fields[key].annotation):
            continue
        out[key] = value
    return out


def sent(form: BaseModel, *names: str, **fixed: Any) -> dict[str, Any]:
    """A create's body: the named values of a validated form, as `form_body` gives them (a secret as
    its value), then the fixed ones (`project_id=context.project_id`). A value the body builds
    otherwise, or sends only when set, the payload builder adds after."""
    values = form_body(form)
    return {**{name: values[name] for name in names}, **fixed}


def sends(*names: str, project: str = "project_id") -> Any:
    """A create's payload builder whose body is the form's named values and the project the context
    is in, under the name the API gives it (`project` or `project_id`)."""

    def payload(form: BaseModel, context: Any) -> dict[str, Any]:
        return sent(form, *names, **{project: context.project_id})

    return payload


def _is_secret(annotation: Any) -> bool:
    from typing import get_args

    from pydantic import SecretStr

    return annotation is SecretStr or any(_is_secret(a) for a in get_args(annotation))


def changed(values: dict[str, Any], before: dict[str, Any]) -> dict[str, Any]:
    """Only what changed: the values that differ from those the form opened with (a new value
    the form had none of counts as changed)."""
    return {k: v for k, v in values.items() if k not in before or before[k] != v}


def meta(label: str, **extra: Any) -> dict[str, Any]:
    """A form field's label and widget hints (placeholder, widget="select"…, hint: a line under it)."""
    return {"label": label, **extra}


def parse_pairs(v: Any) -> Any:
    """`key=value` lines (as typed in a key/value field) → a dict; blank lines and `#` comments
    skipped; a line without `=`, or a key given twice, is refused with its line number."""
    if not isinstance(v, str):
        return v
    out: dict[str, str] = {}
    for number, line in enumerate(v.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"line {number}: key=value expected")
        if key in out:
            raise ValueError(f"line {number}: {key} is given twice")
        out[key] = value.strip()
    return out


def split_tags(v: Any) -> Any:
    """ "web, prod" → ["web", "prod"] (a list stays as it is)."""
    if isinstance(v, str):
        return [t.strip() for t in v.split(",") if t.strip()]
    return v


def ctx(info: ValidationInfo, key: str, default: Any = None) -> Any:
    """A value of the form's validation context (data the options loader fetched)."""
    return (info.context or {}).get(key, default)


def refused_by(info: ValidationInfo, catalogue: str, v: str, flag: str, marked: Any, why: str) -> str:
    """`v`, unless the catalogue the form's options loaded under `catalogue` (a dict by name) marks
    it (`flag` equal to `marked`): then a ValueError, `v` and `why` ("is deprecated: choose ...")."""
    found = (ctx(info, catalogue) or {}).get(v)
    if found is not None and found.get(flag) == marked:
        raise ValueError(f"{v} {why}")
    return v


def in_stock(
    info: ValidationInfo, v: str, catalogue: str = "types", why: str = "is out of stock: choose another"
) -> str:
    """`v`, unless the node or server types loaded say it is out of stock."""
    return refused_by(info, catalogue, v, "stock_status", "out_of_stock", why)


def number_error(value: str, kind: str, low: Any, high: Any, unit: str = "") -> str | None:
    """Why `value` is not a number of its kind ("INT" or "FLOAT", as engines type their settings)
    between `low` and `high` (either None: unbounded), or None."""
    try:
        n = int(value) if kind == "INT" else float(value)
    except ValueError:
        return "a whole number" if kind == "INT" else "a number"
    if (low is not None and n < low) or (high is not None and n > high):
        return f"from {low} to {high}" + (f" {unit}" if unit else "")
    return None


def json_object(text: str, example: str = "{…}") -> dict[str, Any]:
    """A payload typed as JSON, which must be an object; a ValueError says what is wrong."""
    import json

    try:
        value = json.loads(text)
    except ValueError as err:
        raise ValueError(f"the payload is not JSON: {err}") from None
    if not isinstance(value, dict):
        raise ValueError(f"the payload must be a JSON object, such as {example}")
    return value


def not_among(info: ValidationInfo, taken: str, v: Any, why: str) -> Any:
    """`v`, unless the form's options loaded it among `taken` (a network the server is already in)."""
    if v in (ctx(info, taken) or ()):
        raise ValueError(why)
    return v


def network_if(chosen: bool, v: str, why: str) -> str:
    """A private network's ID where the endpoint chosen is on one; else none (one typed refused, `why`)."""
    if chosen:
        return uuid_of(v, "private network ID")
    if v.strip():
        raise ValueError(why)
    return ""


def given_twice(values: Any) -> Any:
    """The first value given a second time, or None."""
    seen: set[Any] = set()
    for value in values:
        if value in seen:
            return value
        seen.add(value)
    return None


def once_each(values: list[Any]) -> list[Any]:
    """`values`, unless one is given twice: a ValueError names it."""
    twice = given_twice(values)
    if twice is not None:
        raise ValueError(f"{twice} is listed twice")
    return values


def uuid_of(v: str, what: str) -> str:
    """`v` as a lower-case UUID, or a ValueError naming what it should be."""
    v = v.strip().lower()
    if not UUID_RE.match(v):
        raise ValueError(f"a {what} (UUID)")
    return v


def check_uuids(values: list[str], what: str) -> list[str]:
    out = [v.strip().lower() for v in values]
    bad = [v for v in out if not UUID_RE.match(v)]
    if bad:
        raise ValueError(f"{what} are UUIDs: {', '.join(bad[:3])} is not")
    return once_each(out)


PASSWORD_RULE = "8 to 128 characters with a lower-case letter, an upper-case letter, a digit and a special character"


def password_missing(pw: str) -> list[str]:
    """What a password lacks under the platform's rule (empty: it passes)."""
    missing = []
    if len(pw) < 8:
        missing.append(f"{8 - len(pw)} more character{'s' if 8 - len(pw) > 1 else ''}")
    if len(pw) > 128:
        missing.append("at most 128 characters")
    for test, what in (
        (str.islower, "a lower-case letter"),
        (str.isupper, "an upper-case letter"),
        (str.isdigit, "a digit"),
    ):
        if not any(test(c) for c in pw):
            missing.append(what)
    if not any(not c.isalnum() for c in pw):
        missing.append("a special character")
    return missing


def password_strength(pw: str) -> str:
    """A one-line verdict shown under a password field as it is typed (never the password)."""
    if not pw:
        return ""
    missing = password_missing(pw)
    if missing:
        return "strength: too weak — needs " + ", ".join(missing)
    score = len(pw) + 4 * len({c for c in pw if not c.isalnum()})
    return "strength: strong" if score >= 20 else "strength: fair (longer is stronger)"


def check_password(v: Any) -> Any:
    """A pydantic validator's body: the platform's password rule, the value untouched."""
    raw = v.get_secret_value() if hasattr(v, "get_secret_value") else str(v)
    missing = password_missing(raw)
    if missing:
        raise ValueError(PASSWORD_RULE + ": needs " + ", ".join(missing))
    return v
