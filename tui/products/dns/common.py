"""What the DNS kinds share (spec 3 §2.1): the API, the product's defaults and tones, and what a zone
is called. No pydantic here."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Awaitable, Callable, Mapping

from ..kit.base import ActionSpec, kinds_of
from ..kit.format import COMMON, Tones
from ..kit.location import FromContext
from .names import shown

if TYPE_CHECKING:
    from ..kit.base import Lazy, Row
    from ..kit.flows import FlowUI

API = "domain/v2beta1"
FORMS = "tui.products.dns.forms:"
RECORDS_MODULE = "tui.products.dns.records:"
ZONE_RECORDS = "tui.products.dns.zone_records:"
PROJECT = {"project_id": FromContext("project_id")}
TONES = Tones(
    busy={"checking", "pending", "creating", "renewing", "updating"},
    bad={"expired", "locked"},
    alarm={"expiring"},
    base=COMMON,
)
dns_kind = kinds_of(product="DNS", api=API, scope_type="global")
VERSIONS_KEPT = 100  # spec 3 §8


def zone_of(r: Mapping[str, Any]) -> dict[str, Any]:
    """A zone's full name, the id the API's paths take (`shop.example.com`), and as read (Unicode)."""
    sub, domain = str(r.get("subdomain") or ""), str(r.get("domain") or "")
    full = f"{sub}.{domain}" if sub else domain
    return {"zone": full, "name": shown(full)}


def custom_ns(r: Row | Mapping[str, Any]) -> str | None:
    """Why a zone's records cannot be edited here, or None (spec 3 §4.1: only with the default name servers)."""
    ns, default = list(r.get("ns") or []), list(r.get("ns_default") or [])
    if ns and default and sorted(ns) != sorted(default):
        return (
            f"this zone does not use the default name servers ({', '.join(map(str, ns))}): "
            "its records are edited where those are run"
        )
    return None


def _records_editable(r: Row) -> bool:
    return custom_ns(r) is None


def records_action(name: str, label: str, flow: Lazy[Callable[[FlowUI, Row], Awaitable[None]]]) -> ActionSpec:
    """An action on a zone's records: greyed, with why, where other name servers hold them."""
    return ActionSpec(name, label, _records_editable, why_not=custom_ns, flow=flow)
