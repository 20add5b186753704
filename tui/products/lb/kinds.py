"""Load balancers as listed, shown and deleted (spec 3 §2.3, §3, §4.3; spec/4 "Load balancer"). A
load balancer is highly available only while both its instances are ready, so the list says which
one is not; its detail explains the SSL compatibility level in words and draws its topology
(frontends → backend → servers). No pydantic here: forms live in `forms`, loaded on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from rich.text import Text

from ..kit.base import Call, Child, Column, DetailPanel, Lazy, data_lost, kinds_of
from ..kit.declared import ID, Field
from ..kit.format import COMMON, Tones
from ..kit.kind_options import Order, Reading, Refuses, Rows
from ..kit.shapes import DeleteAsking

if TYPE_CHECKING:
    from ..kit.base import Row
    from ..kit.models import Resource

API = "lb/v1"
REGIONS = ("fr-par", "nl-ams", "pl-waw")  # spec 3 §4.3
FORMS = "tui.products.lb.forms:"
CHILDREN = "tui.products.lb.backends:"
HERE = "tui.products.lb.kinds:"
# spec 3 §3 and spec/4: to_create → creating → ready; to_delete → deleting → gone; pending and
# migrating move on their own. Each is polled until it settles.
TRANSITIONAL = frozenset({"to_create", "creating", "to_delete", "deleting", "pending", "migrating"})
TONES = Tones(busy={"to_create", "to_delete"}, bad={"stopped"}, base=COMMON)
lb_kind = kinds_of(product="Load balancer", api=API, scope_type="region", scopes=REGIONS)

SSL_LEVELS = {  # spec 3 §2.3: who can connect at each level
    "ssl_compatibility_level_intermediate": "intermediate: general purpose, recommended for almost all systems",
    "ssl_compatibility_level_modern": "modern: only clients supporting TLS 1.3",
    "ssl_compatibility_level_old": "old: very old clients too, a last resort",
    "ssl_compatibility_level_unknown": "unknown: the platform's default",
}


def ssl_text(level: object) -> str:
    return SSL_LEVELS.get(str(level or "ssl_compatibility_level_unknown"), str(level))


def instances_of(data: dict[str, Any]) -> list[dict[str, Any]]:
    found = data.get("instances")
    return [i for i in found if isinstance(i, dict)] if isinstance(found, list) else []


def ip_of(data: dict[str, Any]) -> dict[str, Any]:
    """The load balancer's one highly available IP (spec 3 §8: one per load balancer)."""
    found = data.get("ip")
    return next((i for i in found if isinstance(i, dict)), {}) if isinstance(found, list) else {}


def availability(data: dict[str, Any]) -> tuple[str, str]:
    """(tone, words): "highly available" only when both instances are ready (spec 3 §3); else which
    instance is not, and its status."""
    insts = instances_of(data)
    own = str(data.get("status") or "ready") if isinstance(data, dict) else "ready"
    if len(insts) >= 2 and all(i.get("status") == "ready" for i in insts):
        if own != "ready":  # both instances up, but the load balancer itself is going (deleting) or stuck
            return ("bad" if TONES.of(own) in ("bad", "alarm") else "busy"), f"no: the load balancer is {own}"
        return "good", "highly available"
    if not insts:
        return "other", "no instance"
    if len(insts) == 1:
        return "bad", f"one instance only ({insts[0].get('status') or 'unknown'})"
    down = [(n, str(i.get("status") or "unknown")) for n, i in enumerate(insts, 1) if i.get("status") != "ready"]
    statuses = {s for _, s in down}
    words = (
        f"both {down[0][1]}"
        if len(down) == len(insts) and len(statuses) == 1
        else ", ".join(f"#{n} {s}" for n, s in down)
    )
    tone = (
        "bad"
        if any(TONES.of(s) in ("bad", "alarm") for s in statuses)
        else "busy"
        if all(TONES.of(s) == "busy" for s in statuses)
        else "other"
    )
    return tone, "no: " + words


_MARKS = {"good": ("● ", "green"), "busy": ("◐ ", "yellow"), "bad": ("✖ ", "red"), "other": ("○ ", "dim")}


def availability_text(data: dict[str, Any]) -> Text:
    tone, words = availability(data)
    mark, style = _MARKS.get(tone, _MARKS["other"])
    return Text(mark + words, style=style)


def availability_detail(s: Row | Resource) -> str:
    tone, words = availability(s.raw)
    if tone == "good":
        return "yes: both instances are ready; the backup takes over if the master fails"
    down = [
        f"instance #{n} ({i.get('ip_address') or i.get('id') or '?'}): {i.get('status') or 'status unknown'}"
        for n, i in enumerate(instances_of(s.raw), 1)
        if i.get("status") != "ready"
    ]
    return (
        "no: " + ("; ".join(down) or words.removeprefix("no: ")) + ". Until both are ready, a failure is not covered."
    )


def instances_detail(s: Row | Resource) -> str:
    return (
        "\n".join(
            f"#{n} {i.get('status') or 'unknown'}  {i.get('ip_address') or '-'}  "
            f"{i.get('zone') or i.get('region') or ''}  {i.get('id') or ''}"
            for n, i in enumerate(instances_of(s.raw), 1)
        )
        or "none"
    )


def ip_detail(s: Row | Resource) -> str:
    ip = ip_of(s.raw)
    if not ip:
        return "none"
    return f"{ip.get('ip_address') or '?'}  reverse {ip.get('reverse') or 'none'}  ({ip.get('id') or '?'})"


def subscriber_detail(s: Row | Resource) -> str:
    sub = s.raw.get("subscriber")
    if not isinstance(sub, dict) or not sub:
        return "none"
    email, hook = sub.get("email_config"), sub.get("webhook_config")
    where = (
        f"e-mail {email.get('email')}"
        if isinstance(email, dict)
        else f"webhook {hook.get('uri')}"
        if isinstance(hook, dict)
        else ""
    )
    return f"{sub.get('name') or sub.get('id') or '?'}" + (f": {where}" if where else "")


def summarize(data: dict[str, Any]) -> dict[str, Any]:
    """The IP's address and id as row fields (the list's column, the delete's question)."""
    ip = ip_of(data)
    return {"ip_address": str(ip.get("ip_address") or ""), "ip_id": str(ip.get("id") or "")}


def _deletable(r: Row) -> str | None:
    return "it is being deleted already" if r.state in ("to_delete", "deleting") else None


def goes_with(r: Row | Mapping[str, Any]) -> str:
    """What a load balancer's delete takes with it, in words ("" when nothing)."""

    def some(n: object, word: str) -> str:
        n = n if isinstance(n, int) else 0
        return f"{n} {word}{'s' if n != 1 else ''}" if n else ""

    parts = [p for p in (some(r.get("frontend_count"), "frontend"), some(r.get("backend_count"), "backend")) if p]
    several = len(parts) > 1 or parts and not parts[0].startswith("1 ")
    return f"Its {' and '.join(parts)} {'are' if several else 'is'} deleted with it." if parts else ""


DELETE = DeleteAsking(
    "Delete {name}: keep its IP {ip_address}?",
    "release_ip",
    (
        (
            "Keep {ip_address} for reuse",
            "false",
            "its IP {ip_address} is kept for reuse: a new load balancer can take it.",
        ),
        (
            "Release {ip_address}",
            "true",
            "its IP {ip_address} is released: the address goes back to the platform, gone for good.",
        ),
    ),
    warning=lambda r: goes_with(r),
)


def availability_cell(r: Row) -> Text:
    return availability_text(r.raw)


def availability_words(r: Row) -> str:
    return availability(r.raw)[1]


def ssl_line(s: Row | Resource) -> str:
    return ssl_text(s.raw.get("ssl_compatibility_level"))


# Highly available or why not, in its tone; sorted by the words (a computed column).
HA = Column("ha", "HA", availability_cell, width=18, sort_key=availability_words)
LB_FIELDS = (
    ID,
    Field("name", "Name", "name", width=14),
    Field("description", "Description"),
    Field("status", "Status", "state", width=11, tones=TONES),
    Field("instances", "Highly available", show=availability_detail),
    Field("instances.ip_address", "Instances", "ip", show=instances_detail),
    Field("ip.ip_address", "IP address", "ip", width=15, key="ip", detail=False),
    Field("ip.ip_address", "IP", "ip", show=ip_detail),
    Field("ssl_compatibility_level", "SSL compatibility", show=ssl_line),
    Field("type", "Type", width=8),
    Field("frontend_count", "Frontends", "count", width=5, head="Front", key="frontends", empty="?"),
    Field("backend_count", "Backends", "count", width=4, head="Back", key="backends", empty="?"),
    Field("subscriber", "Subscriber", show=subscriber_detail),
    Field("tags", "Tags", "tags", width=10),
    Field("region", "Region", "place", width=6),
    Field("project_id", "Project", "id"),
    Field("created_at", "Created", "time", empty=""),
    Field("updated_at", "Updated", "time", empty=""),
)

LBS = lb_kind(
    id="lb.lbs",
    singular="load balancer",
    transitional=TRANSITIONAL,
    rows=Rows(summarize=summarize),
    fields=LB_FIELDS,
    columns=("name", "status", HA, "ip", "frontends", "backends", "type", "region", "tags"),
    panels=(DetailPanel("Topology", tree="tui.products.lb.topology:topology"),),
    children=(Child("Backends", CHILDREN + "BACKENDS"), Child("Frontends", CHILDREN + "FRONTENDS")),
    create=Lazy(FORMS + "CREATE"),
    edit=Lazy(FORMS + "EDIT"),
    delete=Call("DELETE", "{id}"),  # the plain verb; the flow asks about the IP first
    # Its frontends, backends and (released) address are lost.
    writing=data_lost(flow=Lazy(HERE + "DELETE"), refuses=Refuses(delete=_deletable), name_param="name"),
    reading=Reading(order=Order(by=("name", False))),
)
