"""The form vocabulary: field types every product's forms share, each carrying its rule, its
parsing and its label (pydantic `Annotated` types; loaded with the forms, not at start-up).

    tags: Tags = []
    password: Password
    password: Annotated[Password, Field(json_schema_extra=meta("New password", widget="password"))]

A form may relabel a field with an outer `Field` (as above); the rule stays the type's.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, SecretStr, model_validator
from pydantic.fields import FieldInfo

from .fields import check_password, meta, network, parse_pairs, private_cidr, reverse_name, split_tags, uuid_of


class Form(BaseModel):
    """What every form is: strict, a value it does not name refused rather than dropped (a form
    titles itself as pydantic takes it, `class Tcp(Form, title="TCP: …")`, its strictness kept)."""

    model_config = ConfigDict(extra="forbid")


RULES = frozenset({"min_length", "max_length", "pattern", "ge", "le", "gt", "lt", "validate_default"})


def label(text: str, **given: Any) -> FieldInfo:
    """A form field's label, rules and hints in one line, inside its type: its rules as pydantic takes them
    (lengths, pattern, bounds) and its hints as the form shows them (placeholder, widget, rule, hint):
    `name: Annotated[str, label("Name", max_length=63, placeholder="e.g. web")] = ""`."""
    rules = {k: v for k, v in given.items() if k in RULES}
    hints = {k: v for k, v in given.items() if k not in RULES}
    return Field(**rules, json_schema_extra=meta(text, **hints))


def labels_of(model: type[BaseModel]) -> dict[str, str]:
    """A form's fields as the operator reads them: each field's label (its name, spaced, without one)."""
    out = {}
    for name, info in model.model_fields.items():
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        out[name] = str(extra.get("label") or name.replace("_", " ").capitalize())
    return out


# "web, prod" as typed → ["web", "prod"]
Tags = Annotated[
    list[str], BeforeValidator(split_tags), Field(json_schema_extra=meta("Tags", placeholder="e.g. web, prod"))
]

# The platform's password rule (length and character classes), checked without echoing the value.
Password = Annotated[
    SecretStr, AfterValidator(check_password), Field(json_schema_extra=meta("Password", widget="password"))
]

# A reverse DNS name: empty, or a host name (a final dot allowed).
ReverseName = Annotated[
    str,
    Field(max_length=255, json_schema_extra=meta("Reverse DNS", placeholder="e.g. host.example.com")),
    AfterValidator(reverse_name),
]

# An IP address or network in CIDR notation, IPv4 or IPv6; host bits set are refused with the network meant.
Network = Annotated[
    str,
    Field(min_length=1, json_schema_extra=meta("IP or network", placeholder="e.g. 203.0.113.7/32")),
    AfterValidator(network),
]


def private_network_id(v: str) -> str:
    return uuid_of(v, "private network ID")


# A private network's UUID (lower-cased).
PrivateNetworkId = Annotated[
    str,
    Field(json_schema_extra=meta("Network ID", placeholder="the private network's UUID")),
    AfterValidator(private_network_id),
]


def service_ip(v: str) -> str:
    return private_cidr(v) if v.strip() else ""


# An address on a private network in CIDR notation, or empty: the network's IPAM assigns one.
ServiceIp = Annotated[
    str,
    Field(json_schema_extra=meta("Service IP", placeholder="CIDR, such as 172.16.4.10/22; empty: assigned by IPAM")),
    AfterValidator(service_ip),
]

# Text over several lines (a payload, a message, a script): the one field where a newline is typed.
LongText = Annotated[str, Field(json_schema_extra=meta("Text", widget="multiline"))]

# A key/value map (an inference model's config), typed as `key=value` lines.
KeyValues = Annotated[
    dict[str, str],
    BeforeValidator(parse_pairs),
    Field(json_schema_extra=meta("Values", widget="keyvalue", placeholder="key=value, one per line")),
]

# Several of a list of choices (monitoring token scopes): ticked with space; the choices come from
# the form's options, as a select's do.
Several = Annotated[list[str], Field(json_schema_extra=meta("Choose", widget="multiselect"))]


class TagChange(Form, title="Tags of several resources"):
    """Tags added to and removed from every marked resource at once (each resource's own edit then
    checks and sends its new tags)."""

    add: Annotated[Tags, Field(json_schema_extra=meta("Add", placeholder="e.g. web, prod"))] = []
    remove: Annotated[Tags, Field(json_schema_extra=meta("Remove", placeholder="e.g. old"))] = []

    @model_validator(mode="after")
    def _something(self) -> "TagChange":
        both = sorted(set(self.add) & set(self.remove))
        if both:
            raise ValueError(f"{', '.join(both)} is both added and removed: keep it in one of them")
        if not self.add and not self.remove:
            raise ValueError("Give a tag to add or one to remove")
        return self
