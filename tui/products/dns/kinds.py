"""DNS as listed and acted on (spec 3 §2.1, §4.1; spec/4 "DNS"): domains, zones, a zone's records
(edited as a reviewed change set), versions, name servers, TSIG key and certificates. Global scope.
No pydantic here: forms live in `forms` and `records`, loaded on first use."""

from __future__ import annotations

import time
from typing import Any

from ..base import ActionSpec, Call, Child, Column, Lazy, Parent, Row, kinds_of
from ..columns import raw
from ..format import COMMON, Tones, date_of
from ..location import FromContext
from ..set_editor import SetEditor
from ..shapes import FormCall, ShowAnswer
from .names import shown
from ..kind_options import Reading, Rows, Secrets, Writing

API = "domain/v2beta1"
FORMS = "tui.products.dns.forms:"
RECORDS_MODULE = "tui.products.dns.records:"
ZONE_RECORDS = "tui.products.dns.zone_records:"
HERE = "tui.products.dns.kinds:"
PROJECT = {"project_id": FromContext("project_id")}
TONES = Tones(busy={"checking", "pending", "creating", "renewing", "updating"}, bad={"expired", "locked"}, alarm={"expiring"}, base=COMMON)
dns_kind = kinds_of(product="DNS", api=API, scope_type="global", paging="page_size", reading=Reading(page_size=100), model=Lazy("tui.products.models:Resource"),
                    state_field="status")
VERSIONS_KEPT = 100  # spec 3 §8


def zone_of(r: Any) -> dict[str, Any]:
    """A zone's full name, the id the API's paths take (`shop.example.com`), and as read (Unicode)."""
    sub, domain = str(r.get("subdomain") or ""), str(r.get("domain") or "")
    full = f"{sub}.{domain}" if sub else domain
    return {"zone": full, "name": shown(full)}


def custom_ns(r: Any) -> str | None:
    """Why a zone's records cannot be edited here, or None (spec 3 §4.1: only with the default name servers)."""
    ns, default = list(r.get("ns") or []), list(r.get("ns_default") or [])
    if ns and default and sorted(ns) != sorted(default):
        return f"this zone does not use the default name servers ({', '.join(map(str, ns))}): its records are edited where those are run"
    return None


def waiting(r: Any) -> bool:
    """An external domain waiting for its TXT record (the API gives its validation token)."""
    status = r.get("external_domain_registration_status")
    return isinstance(status, dict) and bool(status.get("validation_token"))


def time_left(row: Any) -> float | None:
    """Seconds left of the 48 hours an external domain has to be validated (spec 3 §3, §8)."""
    from .. import times

    registered = times.stamp(row.text("created_at"))
    return registered + 48 * 3600 - time.time() if registered is not None and waiting(row) else None


def leaving_default_ns(records: list[dict[str, Any]], row: Any) -> str | None:
    """What a set of name servers other than the default costs (spec 3 §4.1), said before it is sent."""
    default = sorted(map(str, row.items("ns_default")))
    names = sorted(str(r.get("name") or "").rstrip(".") for r in records)
    if not default or names == [d.rstrip(".") for d in default]:
        return None
    return (f"{shown(row.id)} will no longer use the default name servers ({', '.join(default)}): its records can no longer be "
            "edited here, only where the new name servers are run. Setting the default ones back makes them editable again.")


def validation_left(row: Any) -> str:
    from .. import times

    left = time_left(row)
    return "" if left is None else f"{times.span(left)}" if left > 0 else "overdue"


def validation_text(row: Row, name_servers: list[str]) -> str:
    from .. import times

    token = str((row.get("external_domain_registration_status") or {}).get("validation_token") or "")
    if not token:
        return f"{shown(row.text('domain'))} is {row.text('status') or 'not waiting for validation'}: no TXT record to publish."
    left = time_left(row)
    deadline = f"{times.span(left)} left of the 48 hours to publish it" if left and left > 0 else "The 48 hours to publish it have passed"
    return (f"Publish this TXT record where {shown(row.text('domain'))} is served now:\n\n{txt_record(row)}\n\n{deadline}.\n\n"
            "Once it is seen, the domain is validated; then point its name servers, at the registrar, to:\n"
            + ("\n".join(f"  {ns}" for ns in name_servers) or "  the platform's name servers (the zone's default name servers: Zones view, a → Name servers)"))


def txt_record(row: Row, parent: Any = None) -> str:
    """The validation record to publish, its domain and token checked (CommandRefused otherwise):
    an answer cannot slip another record or a broken quote into the zone it is pasted in."""
    from .. import commands

    token = (row.get("external_domain_registration_status") or {}).get("validation_token")
    return commands.record('_scaleway-challenge.{domain}. 3600 IN TXT "{token}"',
                           domain=commands.host("the domain", row.text("domain")),
                           token=commands.token("the validation token", token))


def registered(answer: dict[str, Any]) -> dict[str, Any] | None:
    """An external domain as just registered (the answer is the registration, not the domain)."""
    if not answer.get("domain"):
        return None
    return {"domain": answer["domain"], "status": "checking", "is_external": True, "registrar": "EXTERNAL", "created_at": answer.get("created_at"),
            "project_id": answer.get("project_id"), "external_domain_registration_status": {"validation_token": answer.get("validation_token")}}


def zones_text(answer: dict[str, Any]) -> str:
    zones = [z for z in answer.get("dns_zones") or [] if isinstance(z, dict)]
    return "\n".join(f"{shown(zone_of(z)['zone'])}  ({z.get('status', '?')})" for z in zones) or "none"


DOMAINS = dns_kind(
    id="dns.domains",
    title="DNS domains",
    singular="domain",
    collection="domains",
    list_key="domains",
    item_key=None,
    id_field="domain",
    transitional=frozenset({"checking", "creating", "renewing", "updating"}),
    columns=(
        Column("domain", "Domain", lambda r: shown(r.id), width=24),
        Column("status", "Status", lambda r: TONES.text(r.state), width=12, sort_key=lambda r: r.state),
        # Right after the status: a domain waiting to be validated has that long (it was cut at 120 columns, last)
        Column("validate", "Validate within", lambda r: validation_left(r), width=15),
        Column("expires", "Expires", lambda r: date_of(r.text("expired_at")) or "—", width=10, sort_key=lambda r: r.text("expired_at")),
        Column("dnssec", "DNSSEC", lambda r: r.text("dnssec_status"), width=8),
        Column("registrar", "Registrar", lambda r: r.text("registrar"), width=10),
        Column("external", "External", lambda r: "external" if r.get("is_external") else "—", width=8),
        Column("renew", "Auto-renew", lambda r: r.text("auto_renew_status").replace("feature_status_", ""), width=10),
    ),
    detail_fields=(
        ("Domain", lambda d: f"{shown(d.raw.get('domain', ''))} ({d.raw.get('domain', '')})"),
        ("Status", raw("status")),
        ("Expires", lambda d: str(d.raw.get("expired_at") or "never (external)")),
        ("DNSSEC", raw("dnssec_status")),
        ("Registrar", raw("registrar")),
        ("External", lambda d: "yes: registered elsewhere, validated by a TXT record" if d.raw.get("is_external") else "no"),
        ("Auto-renew", raw("auto_renew_status")),
        ("EPP codes", raw("epp_code")),
        ("Updated", raw("updated_at")),
    ),
    reading=Reading(fetch_detail=True, sort=("domain", False)),
    actions=(
        ActionSpec("validation", "Validation TXT record (copy)…", lambda r: waiting(r),
                   why_not=lambda r: None if waiting(r) else "only an external domain waiting for validation has one",
                   flow=Lazy(FORMS + "validation_flow"), mutating=False),
        ActionSpec("zones", "Zones of this domain…", shape=ShowAnswer("Zones of {name}", Call("GET", "domains/{id}/zones", mutating=False), zones_text)),
    ),
    rows=Rows(summarize=lambda d: {"name": shown(str(d.get("domain") or ""))}),
    create=Lazy(FORMS + "REGISTER"),
    writing=Writing(create_path="domains/external-domain", created=lambda answer, payload: registered(answer), name_param="domain"),
)

ZONES = dns_kind(
    id="dns.zones",
    title="DNS zones",
    singular="zone",
    collection="dns-zones",
    list_key="dns_zones",
    item_key=None,
    id_field="zone",
    # `about`: the service's name and version, under the list
    rows=Rows(summarize=zone_of, about=Lazy(ZONE_RECORDS + "service_info")),
    reading=Reading(fetch_detail=False, sort=("zone", False)),
    transitional=frozenset({"pending"}),
    columns=(
        Column("zone", "Zone", lambda r: shown(r.id), width=26),
        Column("status", "Status", lambda r: TONES.text(r.state), width=10, sort_key=lambda r: r.state),
        Column("domain", "Domain", lambda r: shown(r.text("domain")), width=18),
        Column("ns", "Name servers", lambda r: "default" if not custom_ns(r) else "custom: " + ", ".join(map(str, r.items("ns"))), width=22),
        Column("updated", "Updated", lambda r: date_of(r.text("updated_at")), width=10, sort_key=lambda r: r.text("updated_at")),
    ),
    detail_fields=(
        ("Zone", lambda z: f"{shown(zone_of(z.raw)['zone'])} ({zone_of(z.raw)['zone']})"),
        ("Status", lambda z: str(z.raw.get("status", "")) + (f": {z.raw.get('message')}" if z.raw.get("message") else "")),
        ("Name servers", lambda z: ", ".join(map(str, z.raw.get("ns") or [])) + (" (default)" if not custom_ns(z.raw) else " (not the default: records are not edited here)")),
        ("Default name servers", raw("ns_default")),
        ("Master name servers", raw("ns_master")),
        ("Updated", raw("updated_at")),
    ),
    children=(
        Child("Records", HERE + "RECORDS"),
        Child("Versions", HERE + "VERSIONS"),
        Child("Certificates", HERE + "CERTIFICATES"),
    ),
    actions=(
        ActionSpec("rename", "Rename…", shape=FormCall("Rename {name}", Lazy(FORMS + "RenameForm"), Call("PATCH", "dns-zones/{id}", PROJECT),
                                                        done="{name}: renamed to {form.new_dns_zone}", then="reload")),
        ActionSpec("clone", "Clone to another zone…", flow=Lazy(FORMS + "clone_flow")),
        ActionSpec("refresh", "Refresh (recreate)…", shape=FormCall("Refresh {name}: recreated from the platform's copy, its NS records back", Lazy(FORMS + "RefreshForm"), Call("POST", "dns-zones/{id}/refresh"),
                                                                    done="{name}: refreshed", then="reload", submit_label="Refresh")),
        ActionSpec("nameservers", "Name servers…", shape=SetEditor(
            "Name servers of {name}", Lazy(FORMS + "NameServer"), (Column("name", "Name server", lambda r: str(r.get("name", "")), width=30),
                                                                  Column("ip", "Glue IPs", lambda r: ", ".join(map(str, r.get("ip") or [])), width=30)),
            Call("PUT", "dns-zones/{id}/nameservers"), "ns", ("name", "ip"), "name server", read=Call("GET", "dns-zones/{id}/nameservers", mutating=False),
            unique="name", confirm=leaving_default_ns, options=Lazy(FORMS + "nameserver_options"), describe="The zone's name servers, with glue IPs where a name server lies inside the zone. Other name servers "
                                    "than the default mean its records are no longer edited here.")),
        ActionSpec("tsig", "TSIG key for zone transfers (AXFR)…", shape=ShowAnswer(
            "TSIG key of {name}", Call("GET", "dns-zones/{id}/tsig-key", mutating=False), "Secondary servers sign their transfer requests with this key.",
            secret="key", copy=("name", "algorithm"))),
        ActionSpec("import", "Import records from another provider…", lambda r: custom_ns(r) is None, why_not=custom_ns, flow=Lazy(FORMS + "import_flow")),
        ActionSpec("clear", "Remove every record (a clear change)…", lambda r: custom_ns(r) is None, why_not=custom_ns,
                   flow=Lazy(ZONE_RECORDS + "clear_flow")),
        ActionSpec("delete_records", "Delete every record (DELETE …/records)…", lambda r: custom_ns(r) is None, why_not=custom_ns,
                   flow=Lazy(ZONE_RECORDS + "delete_records_flow")),
    ),
    create=Lazy(FORMS + "ZONE_CREATE"),
    delete=Call("DELETE", "dns-zones/{id}", params=PROJECT),
    writing=Writing(delete_needs_name=True, deletable=lambda r: "a root zone can't be deleted (the platform refuses it): delete its domain instead" if not r.get("subdomain") else None, delete_warning=lambda r: "The zone and all its records, NS included, are deleted: the names in it stop resolving", name_param="dns_zone"),
)

# At 80 columns the ones that matter fit whole (name, type, data, dynamic; a longer value ends in
# "…"); TTL and priority follow, seen from 84 columns or by scrolling right.
RECORD_COLUMNS = (
    Column("name", "Name", lambda r: shown(r.text("name")) or "@", width=20, sort_key=lambda r: (shown(r.text("name")).lower(), r.text("type"))),
    Column("type", "Type", lambda r: r.text("type"), width=5),
    Column("data", "Data", lambda r: r.text("data"), width=28),
    Column("dynamic", "Dynamic", lambda r: dynamic_of(r), width=10),
    Column("ttl", "TTL", lambda r: r.text("ttl"), width=6, sort_key=lambda r: r.get("ttl") or 0),
    Column("priority", "Prio", lambda r: r.text("priority") if r.get("type") in ("MX", "SRV") else "", width=4),
)


def dynamic_of(r: Any) -> str:
    for key, label in (("geo_ip_config", "geo-IP"), ("http_service_config", "HTTP check"), ("weighted_config", "weighted"), ("view_config", "views")):
        if r.get(key):
            return label
    return ""


def record_name(r: Any) -> str:
    """The name as shown, and as sent when that differs (Punycode); `@` is the zone itself."""
    sent = str(r.raw.get("name") or "")
    if not sent:
        return "@ (the zone itself)"
    return shown(sent) if shown(sent) == sent else f"{shown(sent)} ({sent})"


def dynamic_detail(r: Any) -> str:
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
        places = [f"{','.join(m.get('countries') or []) or ','.join('continent:' + c for c in m.get('continents') or [])}→{m.get('data')}"
                  for m in geo.get("matches") or [] if isinstance(m, dict)]
        return kind + ": " + ", ".join(places) + f", everyone else→{geo.get('default')}"
    if isinstance(r.get("http_service_config"), dict):
        http = r["http_service_config"]
        return f"{kind}: {', '.join(map(str, http.get('ips') or []))} healthy when {http.get('url')} answers {http.get('must_contain')!r}"
    return kind


RECORDS = dns_kind(
    id="dns.records",
    title="Records",
    singular="record",
    collection="records",
    list_key="records",
    item_key=None,
    parent=Parent("dns.zones", list_path="dns-zones/{parent}/records"),
    state_field="type",
    # By name, then type (the zone itself first); a new record takes its place on r.
    reading=Reading(fetch_detail=False, sort=("name", False)),
    columns=RECORD_COLUMNS,
    detail_fields=(
        ("Name", record_name),
        ("Type", raw("type")),
        ("Data", raw("data")),
        ("TTL", raw("ttl")),
        ("Priority", lambda r: str(r.raw.get("priority")) if r.raw.get("type") in ("MX", "SRV") else "—"),
        ("Comment", raw("comment")),
        ("Dynamic", lambda r: dynamic_detail(r.raw) or "none"),
        ("ID", lambda r: str(r.raw.get("id", ""))),
    ),
    # Records are edited as a change set: staged, reviewed as a diff, sent in one PATCH of `changes`.
    create=Lazy(RECORDS_MODULE + "RECORD_CREATE"),
    edit=Lazy(RECORDS_MODULE + "RECORD_EDIT"),
    writing=Writing(batch=Lazy("tui.products.dns.sending:send_changes"), staged_rule=Lazy(RECORDS_MODULE + "stands_alone"), label=lambda d: f"{shown(str(d.get('name') or '')) or '@'} {d.get('type', '?')} {d.get('data', '')}".strip(), locked=lambda parent: custom_ns(parent.data) if parent is not None and parent.data else None, name_param="name"),
)

VERSIONS = dns_kind(
    id="dns.versions",
    title=f"Versions (the last {VERSIONS_KEPT} kept)",
    singular="version",
    collection="versions",
    list_key="versions",
    item_key=None,
    parent=Parent("dns.zones", list_path="dns-zones/{parent}/versions"),
    # Newest first, a restore's new version included.
    reading=Reading(fetch_detail=False, sort=("created", True)),
    rows=Rows(summarize=lambda v: {"name": str(v.get("created_at") or "")[:19].replace("T", " ")}, enrich=Lazy("tui.products.dns.versions:count_changes")),  # menus and titles say its time, not its UUID
    columns=(
        Column("created", "Created", lambda r: r.text("created_at")[:19].replace("T", " "), width=19, sort_key=lambda r: r.text("created_at")),
        Column("changes", "Changed", lambda r: r.text("changes"), width=14),
        Column("id", "Version", lambda r: r.id, width=36),
    ),
    detail_fields=(("Version", lambda v: str(v.raw.get("id", ""))), ("Created", raw("created_at"))),
    children=(Child("Records of this version", HERE + "VERSION_RECORDS"),),
    actions=(
        ActionSpec("diff", "Compare with now…", shape=None, flow=Lazy(RECORDS_MODULE + "compare_flow"), mutating=False),
        ActionSpec("restore", "Restore this version…", flow=Lazy(RECORDS_MODULE + "restore_flow")),
    ),
)

VERSION_RECORDS = dns_kind(
    id="dns.version_records",
    title="Records of the version",
    singular="record",
    collection="records",
    list_key="records",
    item_key=None,
    parent=Parent("dns.versions", list_path="dns-zones/version/{parent}"),
    state_field="type",
    reading=Reading(fetch_detail=False),
    columns=RECORD_COLUMNS,
)

def certificate_key(c: Any) -> dict[str, Any]:
    """A certificate has no id (spec 3 §2.1): it is its zone's, made at `created_at` — two of one zone
    (an old one beside its renewal) are two rows. Paths name the zone alone (`certificate_zone`)."""
    zone, made = str(c.get("dns_zone") or ""), str(c.get("created_at") or "")
    return {"_key": f"{zone}@{made}" if made else zone, "name": shown(zone)}


def certificate_zone(key: str) -> str:
    return key.split("@", 1)[0]  # no zone name holds an @


CERTIFICATES = dns_kind(
    id="dns.certificates",
    title="Certificates",
    singular="certificate",
    collection="ssl-certificates",
    list_key="certificates",
    item_key=None,
    id_field="_key",
    rows=Rows(summarize=certificate_key),
    reading=Reading(path_id=certificate_zone, item_template="ssl-certificates/{id}"),
    parent=Parent("dns.zones", query="dns_zone"),
    transitional=frozenset({"pending", "new"}),
    secrets=Secrets(fields=("private_key",)),
    columns=(
        Column("zone", "Zone", lambda r: r.name, width=24),
        Column("status", "Status", lambda r: TONES.text(r.state), width=10),
        Column("alt", "Also for", lambda r: ", ".join(map(str, r.items("alternative_dns_zones"))), width=24),
        Column("created", "Created", lambda r: date_of(r.text("created_at")), width=10, sort_key=lambda r: r.text("created_at")),
        Column("expires", "Expires", lambda r: date_of(r.text("expired_at")), width=10),
    ),
    detail_fields=(
        ("Zone", raw("dns_zone")),
        ("Also for", raw("alternative_dns_zones")),
        ("Status", raw("status")),
        ("Created", raw("created_at")),
        ("Expires", raw("expired_at")),
        ("Chain", lambda c: f"{len(str(c.raw.get('certificate_chain') or ''))} characters (JSON view shows it)"),
        ("Private key", lambda c: "kept apart: a → Show the private key"),
    ),
    actions=(ActionSpec("key", "Show the private key…", lambda r: r.state == "success",
                        why_not=lambda r: None if r.state == "success" else "the certificate is not issued yet",
                        shape=ShowAnswer("Private key of the certificate of {name}", Call("GET", "{id}", mutating=False),
                                         "Whoever holds this key can serve the zone's names over TLS: keep it secret.", secret="private_key")),),
    create=Lazy(FORMS + "CERTIFICATE_CREATE"),
    delete=Call("DELETE", "{id}"),
)
