"""What lives in a DNS zone, each a child kind opened from it (spec 3 §2.1, §4.1): its records (edited
as a reviewed change set), its versions and the records of each, and its certificates. No pydantic
here: the record forms and flows live in `records`, loaded on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from ..kit.base import ActionSpec, Call, Child, Column, Lazy, Parent
from ..kit.declared import Field
from ..kit.files import pem
from ..kit.kind_options import FileFormat, Item, Lookup, Order, Reading, Refuses, Rows, Secrets, Staged, Writing
from ..kit.shapes import SaveField, ShowAnswer
from .common import FORMS, RECORDS_MODULE, TONES, VERSIONS_KEPT, custom_ns, dns_kind
from .names import shown

if TYPE_CHECKING:
    from ..kit.base import Row
    from ..kit.models import Resource

HERE = "tui.products.dns.children:"


def dynamic_of(r: Row | Mapping[str, Any]) -> str:
    """Which dynamic answer a record gives, if any (the list shows the kind only)."""
    for key, label in (
        ("geo_ip_config", "geo-IP"),
        ("http_service_config", "HTTP check"),
        ("weighted_config", "weighted"),
        ("view_config", "views"),
    ):
        if r.get(key):
            return label
    return ""


def record_name(r: Row | Resource) -> str:
    """The name as shown, and as sent when that differs (Punycode); `@` is the zone itself."""
    sent = str(r.raw.get("name") or "")
    if not sent:
        return "@ (the zone itself)"
    return shown(sent) if shown(sent) == sent else f"{shown(sent)} ({sent})"


def dynamic_detail(r: Mapping[str, Any]) -> str:
    """A dynamic answer in full: which kind, and its answers (the list shows the kind only)."""
    kind = dynamic_of(r)
    if not kind:
        return ""
    if isinstance(r.get("weighted_config"), dict):
        ips = r["weighted_config"].get("weighted_ips") or []
        return kind + ": " + ", ".join(f"{i.get('ip')}={i.get('weight')}" for i in ips if isinstance(i, dict))
    if isinstance(r.get("view_config"), dict):
        views = r["view_config"].get("views") or []
        return kind + ": " + ", ".join(f"{v.get('subnet')}→{v.get('data')}" for v in views if isinstance(v, dict))
    if isinstance(r.get("geo_ip_config"), dict):
        geo = r["geo_ip_config"]
        places = [
            (",".join(m.get("countries") or []) or ",".join("continent:" + c for c in m.get("continents") or []))
            + f"→{m.get('data')}"
            for m in geo.get("matches") or []
            if isinstance(m, dict)
        ]
        return kind + ": " + ", ".join(places) + f", everyone else→{geo.get('default')}"
    if isinstance(r.get("http_service_config"), dict):
        http = r["http_service_config"]
        ips = ", ".join(map(str, http.get("ips") or []))
        return f"{kind}: {ips} healthy when {http.get('url')} answers {http.get('must_contain')!r}"
    return kind


def record_cell(r: Row) -> str:
    return shown(r.text("name")) or "@"


def by_name_and_type(r: Row) -> tuple[str, str]:
    return shown(r.text("name")).lower(), r.text("type")


def priority_cell(r: Row) -> str:
    return r.text("priority") if r.get("type") in ("MX", "SRV") else ""


def priority_line(r: Row | Resource) -> str:
    return str(r.raw.get("priority")) if r.raw.get("type") in ("MX", "SRV") else "—"


def dynamic_line(r: Row | Resource) -> str:
    return dynamic_detail(r.raw) or "none"


def address(r: Row) -> str:
    """The address an A or AAAA record answers ("" for any other type: its data is no address)."""
    return str(r.raw.get("data") or "") if r.raw.get("type") in ("A", "AAAA") else ""


# At 80 columns the ones that matter fit whole (name, type, data, dynamic; a longer value ends in
# "…"); TTL and priority follow, seen from 84 columns or by scrolling right.
RECORD_FIELDS = (
    Field("name", "Name", "name", show=record_name),
    Field("type", "Type", ("text", "state"), width=5),  # read as text; a record's type is what it is filtered by
    Field("data", "Data", width=28),
    Field("data", "Address", "ip", key="address", show=address, detail=False),  # found by address
    Field("ttl", "TTL", "count", width=6),  # seconds, sorted as numbers
    Field("priority", "Priority", width=4, head="Prio", show=priority_cell, detail=priority_line),
    Field("comment", "Comment"),
    Field("", "Dynamic", width=10, show=dynamic_of, detail=dynamic_line),
    Field("weighted_config.weighted_ips.ip", "Weighted IPs", "ip", detail=False),
    Field("http_service_config.ips", "Checked IPs", "ip", detail=False),
    Field("id", "ID", "id", empty=""),
)
# By name, then type (the zone itself first): a computed column.
RECORD_COLUMNS = (
    Column("name", "Name", record_cell, width=20, sort_key=by_name_and_type),
    "type",
    "data",
    "dynamic",
    "ttl",
    "priority",
)


RECORDS = dns_kind(
    id="dns.records",
    singular="record",
    parent=Parent("dns.zones", list_path="dns-zones/{parent}/records"),
    # By name, then type (the zone itself first); a new record takes its place on r.
    reading=Reading(item=Item(fetch=False), order=Order(by=("name", False))),
    fields=RECORD_FIELDS,
    columns=RECORD_COLUMNS,
    rows=Rows(
        file=FileFormat(
            "zone file",
            "zone",
            Lazy("tui.products.dns.zone_file:dump"),
            load=Lazy("tui.products.dns.zone_file:load"),
            key=Lazy("tui.products.dns.identity:key"),
            fields=("ttl", "priority"),  # a TTL changed is a change (~), not another record
            holds=Lazy("tui.products.dns.zone_file:holds"),
            where=Lazy("tui.products.dns.zone_file:where"),
            vital=Lazy("tui.products.dns.zone_file:vital"),
        )
    ),
    # Records are edited as a change set: staged, reviewed as a diff, sent in one PATCH of `changes`.
    create=Lazy(RECORDS_MODULE + "RECORD_CREATE"),
    edit=Lazy(RECORDS_MODULE + "RECORD_EDIT"),
    writing=Writing(
        staged=Staged(
            Lazy("tui.products.dns.sending:send_changes"),
            rule=Lazy(RECORDS_MODULE + "stands_alone"),
            label=lambda d: (
                f"{shown(str(d.get('name') or '')) or '@'} {d.get('type', '?')} {d.get('data', '')}".strip()
            ),
        ),
        refuses=Refuses(locked=lambda parent: custom_ns(parent.data) if parent is not None and parent.data else None),
        name_param="name",
    ),
)


def to_the_second(r: Row) -> str:
    return r.text("created_at")[:19].replace("T", " ")


VERSIONS = dns_kind(
    id="dns.versions",
    title=f"Versions (the last {VERSIONS_KEPT} kept)",
    singular="version",
    parent=Parent("dns.zones", list_path="dns-zones/{parent}/versions"),
    # Newest first, a restore's new version included.
    reading=Reading(item=Item(fetch=False), order=Order(by=("created", True))),
    rows=Rows(
        summarize=lambda v: {"name": str(v.get("created_at") or "")[:19].replace("T", " ")},
        lookup=Lookup(listed=Lazy("tui.products.dns.versions:count_changes")),
    ),  # menus and titles say its time, not its UUID
    fields=(
        Field("name", "Name", "name", detail=False),  # its time, and what it changed (`count_changes`)
        Field("id", "Version", "id", width=36, empty=""),
        Field("created_at", "Created", "time", width=19, key="created", show=to_the_second, detail=False),
        Field("created_at", "Created", "time"),
        Field("changes", "Changed", width=14, detail=False),  # made by `count_changes`
    ),
    columns=("created", "changes", "id"),
    children=(Child("Records of this version", HERE + "VERSION_RECORDS"),),
    actions=(
        ActionSpec(
            "diff",
            "Compare with now…",
            shape=None,
            flow=Lazy(RECORDS_MODULE + "compare_flow"),
            mutating=False,
        ),
        ActionSpec("restore", "Restore this version…", flow=Lazy(RECORDS_MODULE + "restore_flow")),
    ),
)

VERSION_RECORDS = dns_kind(
    id="dns.version_records",
    title="Records of the version",
    singular="record",
    collection="records",
    parent=Parent("dns.versions", list_path="dns-zones/version/{parent}"),
    reading=Reading(item=Item(fetch=False)),
    fields=RECORD_FIELDS,
    columns=RECORD_COLUMNS,
)


def certificate_key(c: dict[str, Any]) -> dict[str, Any]:
    """A certificate has no id (spec 3 §2.1): it is its zone's, made at `created_at` — two of one zone
    (an old one beside its renewal) are two rows. Paths name the zone alone (`certificate_zone`)."""
    zone, made = str(c.get("dns_zone") or ""), str(c.get("created_at") or "")
    return {"_key": f"{zone}@{made}" if made else zone, "name": shown(zone)}


def certificate_zone(key: str) -> str:
    return key.split("@", 1)[0]  # no zone name holds an @


def chain_length(c: Row | Resource) -> str:
    return f"{len(str(c.raw.get('certificate_chain') or ''))} characters (JSON view shows it)"


def kept_apart(c: Row | Resource) -> str:
    return "kept apart: a → Show the private key"


CERTIFICATES = dns_kind(
    id="dns.certificates",
    singular="certificate",
    collection="ssl-certificates",
    list_key="certificates",
    rows=Rows(summarize=certificate_key),
    reading=Reading(item=Item(template="ssl-certificates/{id}", key=certificate_zone)),
    parent=Parent("dns.zones", query="dns_zone"),
    transitional=frozenset({"pending", "new"}),
    secrets=Secrets(fields=("private_key",)),
    fields=(
        Field("_key", "Key", "id", detail=False),  # made by `certificate_key`
        Field("name", "Zone", "name", width=24, key="zone", detail=False),  # as read: made by `certificate_key`
        Field("dns_zone", "Zone", "ref", ref="dns.zones"),
        Field("alternative_dns_zones", "Also for", width=24, key="alt"),
        Field("status", "Status", "state", width=10, tones=TONES),
        Field("created_at", "Created", "time", width=10, key="created"),
        Field("expired_at", "Expires", "time", width=10, key="expires"),
        Field("certificate_chain", "Chain", show=chain_length),
        Field("private_key", "Private key", show=kept_apart),
    ),
    columns=("zone", "status", "alt", "created", "expires"),
    actions=(
        ActionSpec(
            "key",
            "Show the private key…",
            lambda r: r.state == "success",
            why_not=lambda r: None if r.state == "success" else "the certificate is not issued yet",
            shape=ShowAnswer(
                "Private key of the certificate of {name}",
                Call("GET", "{id}", mutating=False),
                "Whoever holds this key can serve the zone's names over TLS: keep it secret.",
                secret="private_key",
            ),
        ),
        ActionSpec(
            "chain",
            "Save the certificate chain (PEM)…",
            lambda r: r.state == "success",
            why_not=lambda r: None if r.state == "success" else "the certificate is not issued yet",
            shape=SaveField("Save the certificate chain of {name}", "certificate_chain", "{name}.chain.pem", made=pem),
        ),
    ),
    create=Lazy(FORMS + "CERTIFICATE_CREATE"),
    delete=Call("DELETE", "{id}"),
)
