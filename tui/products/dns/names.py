"""Internationalised names (spec 3 §1): the API stores and answers ASCII (Punycode); the console
shows Unicode and sends ASCII. Python's own `idna` codec, no package of ours. No pydantic here."""

from __future__ import annotations

import re

LABEL = re.compile(r"^(?!-)[A-Za-z0-9_-]{1,63}(?<!-)$")  # a DNS label as sent (`_` for service names: `_sip._tcp`)


def shown(name: str) -> str:
    """`xn--bcher-kva.example` → `bücher.example`; anything it cannot decode is shown as sent."""
    if "xn--" not in name:
        return name
    out = []
    for label in name.split("."):
        try:
            out.append(label.encode("ascii").decode("idna") if label.startswith("xn--") else label)
        except (UnicodeError, ValueError):
            out.append(label)
    return ".".join(out)


def ascii_name(name: str, what: str = "name", wildcard: bool = False) -> str:
    """A name typed (Unicode allowed, a trailing dot tolerated) as sent: each label in Punycode and
    checked; a ValueError says what is wrong. `@` or nothing is the zone's root (empty)."""
    name = name.strip().rstrip(".")
    if name in ("", "@"):
        return ""
    out = []
    for n, label in enumerate(name.split(".")):
        if wildcard and n == 0 and label == "*":
            out.append(label)
            continue
        try:
            encoded = label.encode("idna").decode("ascii") if not label.isascii() else label.lower()
        except UnicodeError:
            raise ValueError(f"{label!r} is not a label a {what} can hold") from None
        if not LABEL.match(encoded):
            raise ValueError(
                f"each label of a {what} is 1 to 63 letters, digits, '-' or '_', not starting or ending with '-': "
                f"{label!r} is not"
            )
        out.append(encoded)
    if len(".".join(out)) > 253:
        raise ValueError(f"a {what} is at most 253 characters")
    return ".".join(out)


def record_name(typed: str, zone: str | None, wildcard: bool = True) -> str:
    """A record's name as sent: relative to the zone. One ending in a dot is absolute (as in a zone
    file): within the zone it becomes the relative name (`status.example.com.` → `status`, the zone
    itself → the root), outside it, or with no zone to tell, it is refused; a ValueError says why."""
    typed = typed.strip()
    name = ascii_name(typed, "record name", wildcard=wildcard)
    if not typed.endswith(".") or name == "":
        return name
    zone = (zone or "").strip().rstrip(".").lower()
    if name == zone:
        return ""
    if zone and name.endswith("." + zone):
        return name[: -len(zone) - 1]
    where = f"the zone {shown(zone)}" if zone else "the zone"
    raise ValueError(
        f"a name ending in a dot is a full name, and {shown(name)} is not in {where}: "
        f"drop the dot for a name within the zone, such as www"
    )
