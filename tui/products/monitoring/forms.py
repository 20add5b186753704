"""Monitoring forms (pydantic; loaded on first use): a token's name is unique in the instance
(spec 2 §7.2), checked against its tokens before sending; its scopes are ticked, or set by a
least-privilege preset (spec 2 §5.3); a contact point is one e-mail address; a dashboard user has a
login and a role."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ValidationInfo, field_validator

from ..kit.base import Choices, Context, CreateSpec
from ..kit.fields import ctx, not_among, sends
from ..kit.vocabulary import Form, label
from .kinds import SCOPES

if TYPE_CHECKING:
    from ..kit.service import ResourceService

# spec 2 §5.3: pushers get one write scope; a dashboard's data source the query and setup scopes
PRESETS: dict[str, tuple[str, ...]] = {
    "metrics_pusher": ("write_metrics",),
    "logs_pusher": ("write_logs",),
    "data_source": ("query_metrics", "query_logs", "setup_alerts", "setup_metrics_rules", "setup_logs_rules"),
}
PRESET_CHOICES = [
    ("metrics pusher: write_metrics only", "metrics_pusher"),
    ("logs pusher: write_logs only", "logs_pusher"),
    ("dashboard data source: query and setup scopes", "data_source"),
    ("custom: the scopes ticked below", "custom"),
]
SCOPE_CHOICES = [(s, s) for s in SCOPES]
EMAIL = r"^[^@\s]+@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$"  # a host's labels


class TokenForm(Form):
    name: Annotated[str, label("Name", min_length=1, max_length=100, placeholder="e.g. prometheus-prod (unique)")]
    preset: Annotated[
        Literal["metrics_pusher", "logs_pusher", "data_source", "custom"], label("Scopes", widget="select")
    ] = "metrics_pusher"
    scopes: Annotated[list[str], label("Custom scopes", widget="multiselect")] = []

    @field_validator("name")
    @classmethod
    def _unique(cls, v: str, info: ValidationInfo) -> str:
        if v != v.strip():
            raise ValueError("no spaces before or after the name")
        if v in (ctx(info, "taken") or ()):
            raise ValueError(f"{v} is already a token's name: names are unique in the monitoring instance")
        return v

    @field_validator("scopes")
    @classmethod
    def _scopes(cls, v: list[str], info: ValidationInfo) -> list[str]:
        unknown = [s for s in v if s not in SCOPES]
        if unknown:
            raise ValueError(f"not a scope: {', '.join(unknown)}")
        preset = info.data.get("preset")
        if preset == "custom" and not v:
            raise ValueError("tick at least one scope, or choose a preset")
        if preset in PRESETS and v and set(v) != set(PRESETS[preset]):
            raise ValueError("the preset sets the scopes: untick them, or choose custom to tick them yourself")
        return v

    def chosen(self) -> tuple[str, ...]:
        return tuple(self.scopes) if self.preset == "custom" else PRESETS[self.preset]


async def token_options(service: ResourceService, scope: str) -> tuple[Choices, dict[str, Any]]:
    """The instance's token names (a name is unique there: checked before sending)."""
    context = service.context_for(scope)
    assert context is not None  # (the console's services are made with their context)
    project = context.project_id
    tokens = await service.read_all(scope, "tokens", key="tokens", params={"project_id": project})
    return {"preset": PRESET_CHOICES, "scopes": SCOPE_CHOICES}, {
        "taken": {str(t.get("name")) for t in tokens if t.get("name")}
    }


def token_payload(form: BaseModel, c: Context) -> dict[str, Any]:
    assert isinstance(form, TokenForm)
    chosen = set(form.chosen())
    return {"project_id": c.project_id, "name": form.name, "scopes": {s: s in chosen for s in SCOPES}}


TOKEN_CREATE = CreateSpec(TokenForm, token_payload, token_options)


class ContactForm(Form):
    to: Annotated[
        str,
        label(
            "E-mail",
            min_length=3,
            max_length=254,
            pattern=EMAIL,
            rule="an e-mail address, such as ops@example.com",
            placeholder="ops@example.com",
        ),
    ]

    @field_validator("to")
    @classmethod
    def _new(cls, v: str, info: ValidationInfo) -> str:
        why = f"{v} is already a contact point (addresses are compared without case)"
        return not_among(info, "taken", v.strip().lower(), why) and v.strip()


async def contact_options(service: ResourceService, scope: str) -> tuple[Choices, dict[str, Any]]:
    """The addresses alerts already go to (one is not added twice, whatever its case)."""
    context = service.context_for(scope)
    assert context is not None  # (the console's services are made with their context)
    project = context.project_id
    found = await service.read_all(scope, "contact-points", key="contact_points", params={"project_id": project})
    taken = {str((c.get("email") or {}).get("to") or "").lower() for c in found if isinstance(c.get("email"), dict)}
    return {}, {"taken": taken}


def contact_payload(form: BaseModel, c: Context) -> dict[str, Any]:
    assert isinstance(form, ContactForm)
    return {"project_id": c.project_id, "contact_point": {"email": {"to": form.to}}}


CONTACT_CREATE = CreateSpec(
    ContactForm,
    contact_payload,
    contact_options,
    identity=lambda payload: {"address": ((payload.get("contact_point") or {}).get("email") or {}).get("to")},
)


class UserForm(Form):
    login: Annotated[
        str,
        label(
            "Login",
            min_length=2,
            max_length=32,
            pattern=r"^[A-Za-z][A-Za-z0-9._@-]*$",
            rule="letters, digits, '.', '_', '@' or '-', starting with a letter",
            placeholder="e.g. alice",
        ),
    ]
    role: Annotated[Literal["viewer", "editor"], label("Role", widget="select")] = "viewer"


async def user_options(service: ResourceService, scope: str) -> tuple[Choices, dict[str, Any]]:
    return {"role": [("viewer: reads dashboards", "viewer"), ("editor: builds and changes dashboards", "editor")]}, {}


USER_CREATE = CreateSpec(UserForm, sends("login", "role"), user_options)
