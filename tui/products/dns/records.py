"""DNS records edited as a change set (spec 3 §2.1, §4.1, §7.3): the record form with its per-type
rules and one of the four dynamic kinds (`dynamic_records`) or none, the staged changes sent as one `changes`
PATCH in order, and a zone's versions compared with now and restored. Pydantic: loaded on first use."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated, Any, Literal, get_args

from pydantic import BaseModel, Field, ValidationInfo, field_validator

from ..kit.base import Call, Context, CreateSpec, EditSpec
from ..kit.diff import Entry
from ..kit.fields import ctx
from ..kit.flows import confirms_first
from ..kit.vocabulary import Form, label
from .dynamic_records import Dynamic, NoDynamic, is_ip
from .names import record_name, shown

if TYPE_CHECKING:
    from ..kit.base import Row
    from ..kit.flows import FlowUI
    from ..kit.service import ResourceService

RecordType = Literal["A", "AAAA", "CNAME", "TXT", "MX", "SRV", "NS", "PTR", "CAA", "TLSA", "ALIAS"]
TYPES: tuple[str, ...] = get_args(RecordType)
EXAMPLES = {  # a record's data, as the Data field shows it for each type
    "A": "e.g. 192.0.2.10",
    "AAAA": "e.g. 2001:db8::10",
    "CNAME": "e.g. www.example.net.",
    "TXT": "e.g. v=spf1 mx ~all",
    "MX": "e.g. mail.example.com. (Prio below)",
    "SRV": "weight port target, e.g. 5 5060 sip.example.com.",
    "NS": "e.g. ns1.example.net.",
    "PTR": "e.g. host.example.com.",
    "CAA": 'e.g. 0 issue "letsencrypt.org"',
    "TLSA": "usage selector type hex, e.g. 3 1 1 0a1b…",
    "ALIAS": "e.g. lb.example.net.",
}
TTL_MIN, TTL_MAX = 60, 2_592_000  # what the platform takes (the sandbox refuses outside it too)
HOST = re.compile(
    r"^(?=.{1,253}\.?$)"  # the whole name, then its labels
    r"([A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9])?\.?$"
)
CAA = re.compile(r'^(\d{1,3}) (issue|issuewild|iodef) "[^"]*"$')
TLSA = re.compile(r"^([0-3]) ([01]) ([0-2]) ([0-9A-Fa-f]+)$")
CONFIGS = ("geo_ip_config", "http_service_config", "weighted_config", "view_config")
FIELDS = ("name", "type", "data", "ttl", "priority", "comment", *CONFIGS)
DYNAMIC_TYPES = {
    "http_service": ("A", "AAAA"),
    "weighted": ("A", "AAAA"),
    "geo_ip": ("A", "AAAA", "CNAME", "TXT"),
    "view": ("A", "AAAA", "CNAME", "TXT"),
}


def check_data(rtype: str, data: str) -> str | None:
    """What is wrong with a record's data for its type, or None (the priority MX and SRV need is
    checked on its own field)."""
    if rtype == "A":
        return None if is_ip(data, 4) else "an IPv4 address, such as 192.0.2.10"
    if rtype == "AAAA":
        return None if is_ip(data, 6) else "an IPv6 address, such as 2001:db8::10"
    if rtype in ("CNAME", "NS", "PTR", "ALIAS", "MX"):
        return None if HOST.match(data) else f"a {rtype} record points to a host name, such as mail.example.com."
    if rtype == "SRV":
        parts = data.split()
        if len(parts) != 3 or not all(p.isdigit() and int(p) <= 65535 for p in parts[:2]) or not HOST.match(parts[2]):
            return "an SRV record's data is 'weight port target', such as 10 5060 sip.example.com."
        return None
    if rtype == "CAA":
        m = CAA.match(data)
        return (
            None
            if m and int(m.group(1)) <= 255
            else 'a CAA record\'s data is \'flags tag "value"\', such as 0 issue "letsencrypt.org"'
        )
    if rtype == "TLSA":
        return (
            None
            if TLSA.match(data)
            else "a TLSA record's data is 'usage selector matching-type hex', such as 3 1 1 0a1b…"
        )
    if rtype == "TXT":
        if not data:
            return "a TXT record holds some text"
        return (
            None
            if balanced(data)
            else 'a TXT record\'s quotes come in pairs ("…" "…"; \\" for a quote inside): one is left open'
        )
    return None


def balanced(text: str) -> bool:
    """Whether the quotes of a TXT record's text pair up (a `\\"` is a quote inside, not a delimiter)."""
    return len(re.findall(r'(?<!\\)"', text.replace("\\\\", ""))) % 2 == 0


def cname_beside(rtype: str, name: str, rows: list[dict[str, Any]]) -> str | None:
    """RFC 1034 §3.6.2, checked against the zone's other records as staged (`rows`): a CNAME stands
    alone at its name. What is wrong, or None."""
    here = [r for r in rows if str(r.get("name") or "").rstrip(".").lower() == name]
    at = shown(name) or "@"
    if rtype == "CNAME" and here:
        kinds = ", ".join(sorted({str(r.get("type") or "?") for r in here}))
        return (
            f"a CNAME stands alone at its name, and {at} already holds {kinds}: "
            "pick another name, or remove those first"
        )
    if rtype != "CNAME" and any(r.get("type") == "CNAME" for r in here):
        return f"{at} holds a CNAME, which stands alone at its name: pick another name, or remove the CNAME first"
    return None


def stands_alone(rows: list[dict[str, Any]], changed: list[int]) -> tuple[int, str] | None:
    """The form's rule between records (`cname_beside`) over a zone's records as staged: the first
    of those at `changed` that breaks it among the others, and why (an undo that brings back a CNAME
    beside a record staged since; a review of changes that put one beside another). The records are
    grouped by name once, so a review of thousands costs one pass."""
    by_name: dict[str, list[int]] = {}
    for i, r in enumerate(rows):
        by_name.setdefault(str(r.get("name") or "").rstrip(".").lower(), []).append(i)
    for i in changed:
        name = str(rows[i].get("name") or "").rstrip(".").lower()
        others = [rows[j] for j in by_name.get(name, ()) if j != i]
        problem = cname_beside(str(rows[i].get("type") or ""), name, others) if others else None
        if problem:
            return i, problem
    return None


class RecordForm(Form):
    name: Annotated[str, label("Name", min_length=1, max_length=253, placeholder="www, or @ for the zone itself")]
    type: Annotated[RecordType, label("Type", widget="select")] = "A"
    data: Annotated[
        str,
        label("Data", min_length=1, max_length=2048, placeholder="e.g. 192.0.2.10", placeholder_by=("type", EXAMPLES)),
    ]
    ttl: Annotated[int, label("TTL (s)", ge=TTL_MIN, le=TTL_MAX)] = 3600
    priority: Annotated[
        int | None, label("Prio (MX, SRV)", ge=0, le=65535, validate_default=True, placeholder="MX and SRV only")
    ] = None
    comment: Annotated[str, label("Comment", max_length=255, placeholder="optional")] = ""
    dynamic: Dynamic = Field(default_factory=NoDynamic)  # made, not deep-copied, for each record checked

    @field_validator("name")
    @classmethod
    def _name(cls, v: str, info: ValidationInfo) -> str:
        return record_name(v, ctx(info, "zone"))

    @field_validator("type")
    @classmethod
    def _type(cls, v: str, info: ValidationInfo) -> str:
        name = info.data.get("name")
        if v == "CNAME" and name == "":
            raise ValueError("the zone itself (@) cannot be a CNAME: use ALIAS")
        if name is not None:
            beside = cname_beside(v, name, ctx(info, "rows") or [])
            if beside:
                raise ValueError(beside)
        return v

    @field_validator("data")
    @classmethod
    def _data(cls, v: str, info: ValidationInfo) -> str:
        problem = check_data(str(info.data.get("type") or ""), v.strip())
        if problem:
            raise ValueError(problem)
        return v.strip()

    @field_validator("priority")
    @classmethod
    def _priority(cls, v: int | None, info: ValidationInfo) -> int | None:
        rtype = info.data.get("type")
        if rtype in ("MX", "SRV") and v is None:
            raise ValueError(f"an {rtype} record needs a priority: lower is tried first")
        return v if rtype in ("MX", "SRV") else None

    @field_validator("dynamic")
    @classmethod
    def _dynamic(cls, v: Dynamic, info: ValidationInfo) -> Dynamic:
        allowed = DYNAMIC_TYPES.get(v.kind)
        kind = info.data.get("type")
        if allowed and kind not in allowed:
            raise ValueError(  # (each dynamic kind's class names its title: pydantic types it optional)
                f"a {v.model_config.get('title', '').split(':')[0]} record is of type "  # type: ignore[union-attr]
                f"{' or '.join(allowed)}"
            )
        family = {"A": 4, "AAAA": 6}.get(str(kind))
        wrong = [a for a in getattr(v, "answers", list)() if family and a and not is_ip(a, family)]
        if wrong:  # each answer is an address of the record's own family (the platform refuses the rest)
            raise ValueError(f"an {kind} record answers IPv{family} addresses: {wrong[0]} is not")
        return v

    def record(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "type": self.type,
            "data": self.data.strip(),
            "ttl": self.ttl,
            "comment": self.comment or None,
        }
        if self.priority is not None:
            out["priority"] = self.priority
        if not isinstance(self.dynamic, NoDynamic):
            out.update(self.dynamic.config())
        return out


async def record_options(
    service: ResourceService, scope: str
) -> tuple[dict[str, list[tuple[str, str]]], dict[str, Any]]:
    parent = getattr(service, "parent", None)  # the zone: a name ending in a dot is read against it
    strategies = [("one at random", "random"), ("one by the resolver's hash", "hashed"), ("all healthy", "all")]
    zone = {"zone": parent.id if parent is not None else None}
    return {"type": [(t, t) for t in TYPES], "dynamic.http_service.strategy": strategies}, zone


def _payload(form: BaseModel, ctx: Context) -> dict[str, Any]:
    assert isinstance(form, RecordForm)
    return form.record()


def record_of(data: dict[str, Any]) -> dict[str, Any]:
    """A record as sent: its fields (an empty dynamic config left out)."""
    out = {k: data[k] for k in FIELDS if data.get(k) not in (None, {}, "")}
    out["name"] = str(data.get("name") or "")
    return out


def _values(row: Row) -> dict[str, Any]:
    """The form's values from a record as listed (its dynamic config back to the variant's fields)."""
    data = getattr(row, "data", None) or getattr(row, "raw", {})
    out: dict[str, Any] = {
        "name": shown(str(data.get("name") or "")) or "@",
        "type": data.get("type") or "A",
        "data": str(data.get("data") or ""),
        "ttl": data.get("ttl") or 3600,
        "priority": data.get("priority") if data.get("type") in ("MX", "SRV") else None,
        "comment": str(data.get("comment") or ""),
    }
    if data.get("weighted_config"):
        out["dynamic"] = {
            "kind": "weighted",
            "weights": {w.get("ip"): str(w.get("weight")) for w in data["weighted_config"].get("weighted_ips") or []},
        }
    elif data.get("view_config"):
        out["dynamic"] = {
            "kind": "view",
            "views": {v.get("subnet"): v.get("data") for v in data["view_config"].get("views") or []},
        }
    elif data.get("http_service_config"):
        c = data["http_service_config"]
        out["dynamic"] = {
            "kind": "http_service",
            "ips": c.get("ips") or [],
            "url": c.get("url") or "",
            "must_contain": c.get("must_contain") or "",
            "user_agent": c.get("user_agent") or "",
            "strategy": c.get("strategy") or "random",
        }
    elif data.get("geo_ip_config"):
        c = data["geo_ip_config"]
        out["dynamic"] = {
            "kind": "geo_ip",
            "default": c.get("default") or "",
            "matches": {
                ",".join([*(m.get("countries") or []), *(f"continent:{x}" for x in m.get("continents") or [])]): m.get(
                    "data"
                )
                for m in c.get("matches") or []
            },
        }
    return out


def _patch(form: BaseModel, row: Row) -> dict[str, Any]:
    """What changed in the record (a `set` sends the whole record: the staged row merges it)."""
    assert isinstance(form, RecordForm)
    new = form.record()
    old = record_of(getattr(row, "data", {}) or {})
    out = {k: v for k, v in new.items() if old.get(k) != v}
    for key in CONFIGS:  # a dynamic config dropped or replaced by another
        if key in old and key not in new:
            out[key] = None
    return out


RECORD_CREATE = CreateSpec(RecordForm, _payload, record_options)
RECORD_EDIT = EditSpec(RecordForm, _values, _patch, record_options)


def label_of(r: dict[str, Any]) -> str:
    return f"{shown(str(r.get('name') or '')) or '@'} {r.get('type', '?')} {r.get('data', '')}".strip()


async def compare_flow(ui: FlowUI, version: Row) -> None:
    """The platform's diff of a version against now, each change with the values it had then."""
    svc: ResourceService = ui.service()
    diff = await svc.call("GET", ui.scope, "dns-zones", "version", version.id, "diff")
    old = {str(r.get("id")): r for r in await svc.read_all(ui.scope, "dns-zones", "version", version.id, key="records")}
    shown_fields = ("name", "type", "data", "ttl", "priority", "comment", *CONFIGS)
    entries: list[Entry] = []
    for change in diff.get("changes") or []:
        if not isinstance(change, dict):
            continue
        if isinstance(change.get("delete"), dict):
            was = old.get(str(change["delete"].get("id")), {})
            entries.append(Entry("delete", label_of(was) if was else str(change["delete"].get("id")), []))
        elif isinstance(change.get("set"), dict):
            was = old.get(str(change["set"].get("id")), {})
            for new in change["set"].get("records") or []:
                entries.append(
                    Entry(
                        "change",
                        label_of(was or new),
                        [(f, was.get(f), new.get(f)) for f in shown_fields if was.get(f) != new.get(f)],
                    )
                )
        elif isinstance(change.get("add"), dict):
            for new in change["add"].get("records") or []:
                kept = ("ttl", *(("priority",) if new.get("type") in ("MX", "SRV") else ()), "comment", *CONFIGS)
                entries.append(
                    Entry(
                        "add", label_of(new), [(f, None, new.get(f)) for f in kept if new.get(f) not in (None, "", {})]
                    )
                )
    zone = svc.parent.name if svc.parent is not None else ""
    await ui.dialog(
        "diff",
        title=f"{shown(zone)}: the version of {version.text('created_at')[:19].replace('T', ' ')} → now",
        entries=entries,
    )


@confirms_first  # its own question says what is undone, and takes the name typed
async def restore_flow(ui: FlowUI, version: Row) -> None:
    """The zone's records become the version's (itself a new version; 100 are kept, the oldest dropped)."""
    from ..kit.flows import confirm_loss
    from .kinds import VERSIONS_KEPT, custom_ns

    svc: ResourceService = ui.service()
    zone = svc.parent
    name = zone.name if zone is not None else ""
    why = custom_ns(zone.data) if zone is not None and zone.data else None
    if why:
        ui.notify(f"Not restored: {why}.", "warning")
        return
    when = version.text("created_at")[:19].replace("T", " ")
    await confirm_loss(
        ui,
        f"Restore {shown(name)} as it was at {when}?",
        f"Every record of {shown(name)} becomes what it was in this version: records added since are deleted, "
        "changes undone. "
        f"The restore is itself a new version (the last {VERSIONS_KEPT} are kept, the oldest dropped), so it can be "
        "undone the same way.",
        "Restore",
        name,
    )
    await svc.call("POST", ui.scope, "dns-zones", "version", version.id, "restore", body={})
    ui.notify(f"{shown(name)}: restored to the version of {when}")
    ui.reload()


__all__ = ["Call", "RECORD_CREATE", "RECORD_EDIT", "RecordForm", "compare_flow", "restore_flow"]
