"""Load-balancer and frontend forms (pydantic; loaded on first use). A load balancer's type comes
from `GET /lb-types` with its stock (one out of stock is refused here, not by the API); its SSL
compatibility level is explained per spec 3 §2.3; a kept IP (`lb_id` null in `GET /ips`) can be
reused instead of a new one (`ip_id`). The edit is a PUT: name and description are both sent, as
the API requires. A frontend forwards to one of its load balancer's backends, on a port no other
frontend of it listens on (checked against the list before sending); its protocol is chosen when it
is created (the public clients' update does not carry it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, Field, ValidationInfo, field_validator

from ..kit.base import Choices, Context, CreateSpec, EditSpec
from ..kit.fields import check_uuids, ctx, in_stock, meta, sent
from ..kit.vocabulary import Form, Tags, label
from .kinds import SSL_LEVELS

if TYPE_CHECKING:
    from ..kit.base import Row
    from ..kit.service import ResourceService

NEW_IP = "new"  # the IP choice meaning "a new one" (no ip_id sent)
STOCK = {"available": "in stock", "low_stock": "low stock", "out_of_stock": "OUT OF STOCK", "unknown": "stock unknown"}
Level = Literal["ssl_compatibility_level_intermediate", "ssl_compatibility_level_modern", "ssl_compatibility_level_old"]
LEVEL_CHOICES = [
    (SSL_LEVELS[v], v)
    for v in ("ssl_compatibility_level_intermediate", "ssl_compatibility_level_modern", "ssl_compatibility_level_old")
]
UNKNOWN: Literal["ssl_compatibility_level_unknown"] = "ssl_compatibility_level_unknown"

Name = Annotated[str, Field(min_length=1, json_schema_extra=meta("Name", placeholder="e.g. web-lb"))]
Description = Annotated[str, Field(json_schema_extra=meta("Description", placeholder="what it serves (optional)"))]


class CreateForm(Form):
    name: Name
    description: Description = ""
    # Optional only so the form picks the first type offered; a type is required (checked below).
    type: Annotated[str | None, label("Type", validate_default=True, widget="select")] = None
    ssl_compatibility_level: Annotated[Level, label("SSL level", widget="select")] = (
        "ssl_compatibility_level_intermediate"
    )
    ip: Annotated[str, label("IP address", widget="select")] = NEW_IP
    tags: Tags = []

    @field_validator("type")
    @classmethod
    def _type(cls, v: str | None, info: ValidationInfo) -> str:
        if not v:
            raise ValueError("required: choose a type")
        return in_stock(info, v, why="is out of stock: choose another type")

    @field_validator("ip")
    @classmethod
    def _ip(cls, v: str, info: ValidationInfo) -> str:
        kept = ctx(info, "kept")
        if v != NEW_IP and kept is not None and v not in kept:
            raise ValueError("that IP is not kept for reuse in this region (one IP serves one load balancer)")
        return v


async def create_options(service: ResourceService, scope: str) -> tuple[Choices, dict[str, Any]]:
    """The region's types with their stock, and its IPs kept for reuse (`lb_id` null)."""
    types = await service.read_all(scope, "lb-types", key="lb_types")
    ips = await service.read_all(scope, "ips", key="ips")
    kept = {str(ip["id"]): ip for ip in ips if ip.get("id") and not ip.get("lb_id")}
    type_choices = [
        (
            f"{t.get('name')} · {STOCK.get(str(t.get('stock_status')), t.get('stock_status'))} · "
            f"{t.get('description') or ''}",
            str(t.get("name")),
        )
        for t in types
        if t.get("name")
    ]
    ip_choices = [("a new IP", NEW_IP)] + [
        (f"{ip.get('ip_address')} (kept" + (f", reverse {ip['reverse']}" if ip.get("reverse") else "") + ")", rid)
        for rid, ip in kept.items()
    ]
    return (
        {"type": type_choices, "ssl_compatibility_level": LEVEL_CHOICES, "ip": ip_choices},
        {"types": {str(t.get("name")): t for t in types}, "kept": kept},
    )


def create_payload(form: BaseModel, c: Context) -> dict[str, Any]:
    assert isinstance(form, CreateForm)
    body = sent(form, "name", "description", "type", "ssl_compatibility_level", "tags", project_id=c.project_id)
    if form.ip != NEW_IP:
        body["ip_id"] = form.ip
    return body


CREATE = CreateSpec(CreateForm, create_payload, create_options)


class EditForm(Form):
    name: Name
    description: Description = ""
    tags: Tags = []
    ssl_compatibility_level: Annotated[
        Level | Literal["ssl_compatibility_level_unknown"], label("SSL level", widget="select")
    ] = UNKNOWN


async def _edit_options(service: ResourceService, scope: str) -> tuple[Choices, dict[str, Any]]:
    return {"ssl_compatibility_level": LEVEL_CHOICES + [("unknown: left to the platform (not sent)", UNKNOWN)]}, {}


def _edit_values(row: Row) -> dict[str, Any]:
    level = row.text("ssl_compatibility_level")
    return {
        "name": row.name,
        "description": row.text("description"),
        "tags": list(row.items("tags")),
        "ssl_compatibility_level": level if level in SSL_LEVELS else UNKNOWN,
    }


def _edit_body(form: BaseModel, row: Row) -> dict[str, Any]:
    """The whole object, as the PUT replaces it: name and description always (an empty description
    is one), the level unless it is left to the platform."""
    assert isinstance(form, EditForm)
    body: dict[str, Any] = {"name": form.name, "description": form.description, "tags": form.tags}
    if form.ssl_compatibility_level != UNKNOWN:
        body["ssl_compatibility_level"] = form.ssl_compatibility_level
    return body


EDIT = EditSpec(EditForm, _edit_values, _edit_body, _edit_options, method="PUT")


# ---- frontends ----------------------------------------------------------------------------------
class FrontendForm(Form):
    name: Annotated[str, label("Name", min_length=1, placeholder="e.g. https")]
    inbound_port: Annotated[int, label("Port", ge=1, le=65535, placeholder="1 to 65535, e.g. 443")]
    # Optional only so the form picks the first backend offered; one is required (checked below).
    backend_id: Annotated[str | None, label("Backend", validate_default=True, widget="select")] = None
    timeout_client: Annotated[
        int | None, label("Client timeout", ge=1, placeholder="milliseconds, e.g. 30000 (empty: the platform's)")
    ] = None
    certificate_ids: Annotated[
        list[str], label("Certificates", placeholder="certificate IDs (UUIDs), comma-separated")
    ] = []

    @field_validator("inbound_port")
    @classmethod
    def _port_free(cls, v: int, info: ValidationInfo) -> int:
        ports = ctx(info, "ports") or {}
        current = ctx(info, "current")
        taken = ports.get(v)
        if taken is not None and (current is None or taken[0] != current.id):
            raise ValueError(f"frontend {taken[1]} of this load balancer listens on {v} already")
        return v

    @field_validator("backend_id")
    @classmethod
    def _backend(cls, v: str | None, info: ValidationInfo) -> str:
        backends = ctx(info, "backends")
        if not v:
            raise ValueError(
                "this load balancer has no backend yet: create one first (a → Backends ›)"
                if backends == {}
                else "required: choose a backend"
            )
        if backends and v not in backends:
            raise ValueError("not a backend of this load balancer")
        return v

    @field_validator("certificate_ids")
    @classmethod
    def _certificates(cls, v: list[str]) -> list[str]:
        return check_uuids(v, "certificate IDs")


class FrontendCreateForm(FrontendForm):
    """A new frontend also says what it receives (spec 3 §2.3: `inbound_protocol`, a creation field)."""

    inbound_protocol: Annotated[Literal["tcp", "http"], label("Protocol", widget="select")] = "tcp"


PROTOCOL_CHOICES = [
    ("tcp: any TCP traffic, passed through", "tcp"),
    ("http: HTTP requests, read by the load balancer", "http"),
]


async def frontend_options(service: ResourceService, scope: str) -> tuple[Choices, dict[str, Any]]:
    """The load balancer's backends (to forward to) and the ports its frontends listen on."""
    assert service.parent is not None  # (frontends are listed under their load balancer)
    lb = service.parent.id
    backends = await service.read_all(scope, "lbs", lb, "backends", key="backends")
    frontends = await service.read_all(scope, "lbs", lb, "frontends", key="frontends")
    choices = [
        (
            f"{b.get('name')} · {b.get('forward_protocol')}:{b.get('forward_port')} · {len(b.get('pool') or [])} "
            "server(s)",
            str(b.get("id")),
        )
        for b in backends
        if b.get("id")
    ]
    ports = {
        f.get("inbound_port"): (str(f.get("id")), str(f.get("name")))
        for f in frontends
        if isinstance(f.get("inbound_port"), int)
    }
    return {"backend_id": choices, "inbound_protocol": PROTOCOL_CHOICES}, {
        "backends": {str(b.get("id")): b for b in backends if b.get("id")},
        "ports": ports,
    }


def frontend_payload(form: BaseModel, c: Context) -> dict[str, Any]:
    assert isinstance(form, FrontendForm)  # or FrontendCreateForm: its protocol too
    body = form.model_dump()
    if body["timeout_client"] is None:
        del body["timeout_client"]
    return body


def _frontend_values(row: Row) -> dict[str, Any]:
    return {
        "name": row.name,
        "inbound_port": row.get("inbound_port"),
        "backend_id": str(row.obj("backend").get("id") or "") or None,
        "timeout_client": row.get("timeout_client") if isinstance(row.get("timeout_client"), int) else None,
        "certificate_ids": [str(c) for c in row.items("certificate_ids")],
    }


FRONTEND_CREATE = CreateSpec(FrontendCreateForm, frontend_payload, frontend_options)
FRONTEND_EDIT = EditSpec(
    FrontendForm,
    _frontend_values,
    lambda form, row: frontend_payload(form, Context("", "")),
    frontend_options,
    method="PUT",
)
