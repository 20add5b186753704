"""Monitoring as shown and acted on (spec 2 §2.2, §3.2, §4.2, §5; spec/4 "Monitoring"): one instance
per project, a panel absent until activated; its tokens, contact points and dashboard users are
lists opened from it. One-time values (the dashboard password, a token's secret key, a user's
password) are kept out of rows, JSON and logs and shown once. No pydantic here: forms live in
`forms`, loaded on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from ..kit import commands
from ..kit.base import ActionSpec, Call, Child, Lazy, ListParams, Parent, kinds_of
from ..kit.declared import Field
from ..kit.format import COMMON, Tones
from ..kit.kind_options import Deleting, Item, Reading, Rows, Secrets, Singleton, Writing
from ..kit.location import FromContext

if TYPE_CHECKING:
    from ..kit.base import ParentRef, Row
    from ..kit.models import Resource
    from ..kit.service import ResourceService

API = "monitoring/v1beta1"
HERE = "tui.products.monitoring.kinds:"
FORMS = "tui.products.monitoring.forms:"
PROJECT = {"project_id": FromContext("project_id")}
# A password reset whose answer was lost: no look can tell whether it was applied.
LOST_PASSWORD = (
    "if it was applied, the old password no longer works and the new one was in the lost answer: "
    "reset again to have one shown (another reset is safe)"
)
BY_PROJECT = ListParams({"project_id": "project_id"})
TONES = Tones(busy={"creating", "deleting", "updating"}, base=COMMON)
SCOPES = (
    "write_metrics",
    "write_logs",
    "query_metrics",
    "query_logs",
    "setup_alerts",
    "setup_metrics_rules",
    "setup_logs_rules",
)
LOGS_API = "loki"  # the logs address's push API (spec 2 §4.2 `{logs_url}/<logs_api>/api/v1/push`)
monitoring_kind = kinds_of(product="Monitoring", api=API, scope_type="global", reading=Reading(list_params=BY_PROJECT))


def endpoint(data: Mapping[str, Any], key: str) -> str:
    found = data.get("endpoints") if isinstance(data, dict) else None
    return str(found.get(key) or "") if isinstance(found, dict) else ""


def _ready(r: Row) -> bool:
    return r.get("status") == "ready"


def _why_not_ready(r: Row) -> str | None:
    return None if _ready(r) else f"monitoring is {r.get('status') or 'not ready'}: wait until it is ready"


def push_targets(data: Mapping[str, Any]) -> tuple[str, str]:
    """Where metrics and logs are pushed (spec 2 §4.2)."""
    metrics, logs = endpoint(data, "metrics_url").rstrip("/"), endpoint(data, "logs_url").rstrip("/")
    return (f"{metrics}/api/v1/push" if metrics else "", f"{logs}/{LOGS_API}/api/v1/push" if logs else "")


PUSH_CONFIG = "url: {url}\n    headers:\n      X-Token: {token}"
METRICS_CONFIG = "remote_write:\n  - " + PUSH_CONFIG  # Prometheus
LOGS_CONFIG = "clients:\n  - " + PUSH_CONFIG  # Promtail


def push_config(template: str, address: str, key: str) -> str:
    """A push configuration with its address and token checked (a URL, a token), each written as a
    double-quoted YAML scalar; CommandRefused when one fails."""
    return commands.config(
        template, url=commands.url("the push address", address), token=commands.token("the token's secret key", key)
    )


def token_once(
    row: Row, secrets: dict[str, Any], extras: dict[str, Any], parent: ParentRef | None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A new token's secret key, and ready-to-paste push configurations made with it: a Prometheus
    `remote_write` for a metrics pusher and a Promtail `clients` entry for a logs pusher (header
    `X-Token`, spec 2 §5). A configuration whose address or key fails its check is not offered:
    why is said in its place."""
    key = str(secrets.get("secret_key") or "")
    metrics, logs = push_targets(parent.data if parent is not None and parent.data else {})
    scopes = row.get("scopes") if isinstance(row.get("scopes"), dict) else {}
    out, said = dict(secrets), dict(extras)
    for name, address, template, scope in (
        ("metrics push (prometheus.yml)", metrics, METRICS_CONFIG, "write_metrics"),
        ("logs push (promtail.yml)", logs, LOGS_CONFIG, "write_logs"),
    ):
        if key and address and scopes.get(scope, True):
            try:
                out[name] = push_config(template, address, key)
            except commands.CommandRefused as err:
                said[name] = f"not offered: {err.reason}"
    first = "(activate monitoring first)"
    return out, {**said, "metrics push address": metrics or first, "logs push address": logs or first}


def scopes_text(r: dict[str, Any]) -> str:
    found = r.get("scopes")
    if not isinstance(found, dict):
        return "?"
    on = [s for s in SCOPES if found.get(s) is True] + [
        str(k) for k, v in found.items() if k not in SCOPES and v is True
    ]
    return ", ".join(on) or "none"


def metrics_line(s: Row | Resource) -> str:
    return endpoint(s.raw, "metrics_url") + "  (push: /api/v1/push, header X-Token)"


def logs_line(s: Row | Resource) -> str:
    return endpoint(s.raw, "logs_url") + f"  (push: /{LOGS_API}/api/v1/push, header X-Token)"


def retention(s: Row | Resource) -> str:
    return "32 days; 100,000 active metric series and 5,000 log streams at most"


# One per project (a panel): its id is the project's, its name "Monitoring" (made by `summarize`).
COCKPIT_FIELDS = (
    Field("project_id", "Project", "id", detail=False),
    Field("name", "Name", "name", detail=False),
    Field("status", "Status", "state", tones=TONES),
    Field("endpoints.metrics_url", "Metrics", show=metrics_line),
    Field("endpoints.logs_url", "Logs", show=logs_line),
    Field("endpoints.alertmanager_url", "Alert manager", empty=""),
    Field("endpoints.dashboard_url", "Dashboard", empty=""),
    Field(
        "managed_alerts_enabled",
        "Managed alerts",
        "flag",
        words=("on: the platform's own alerts reach your contact points", "off"),
    ),
    Field("created_at", "Activated", "time", empty=""),
    Field("", "Retention", show=retention),
)

COCKPIT = monitoring_kind(
    id="monitoring.cockpit",
    title="Monitoring",
    singular="monitoring",
    list_key=None,
    paging="whole",
    singleton=Singleton(
        absent="Monitoring is not activated in this project. Activating it creates the metrics, logs and alert "
        "addresses and a dashboard, whose password is shown once.",
        absent_actions=(
            ActionSpec(
                "activate",
                "Activate monitoring",
                call=Call("POST", "activate", PROJECT),
                moves_to=frozenset({"creating", "ready"}),
                if_lost="its dashboard password was in the lost answer: Reset the dashboard (a) "
                "makes a new one once it is ready",
            ),
        ),
    ),
    rows=Rows(
        summarize=lambda d: {"name": "Monitoring"}
    ),  # what notices call it ("Send a test alert: Monitoring — accepted")
    transitional=frozenset({"creating", "deleting", "updating"}),
    fields=COCKPIT_FIELDS,
    columns=(),
    secrets=Secrets(fields=("dashboard_password",), extras=("dashboard_url", "dashboard_username")),
    actions=(
        ActionSpec(
            "reset",
            "Reset the dashboard (new password)",
            _ready,
            why_not=_why_not_ready,
            confirm="The dashboard's password changes: who uses the old one is locked out. The new one is shown once.",
            call=Call("POST", "reset-dashboard", PROJECT),
            if_lost=LOST_PASSWORD,
        ),
        ActionSpec(
            "alerts_on",
            "Turn managed alerts on",
            lambda r: _ready(r) and not r.get("managed_alerts_enabled"),
            call=Call("POST", "enable-managed-alerts", PROJECT),
        ),
        ActionSpec(
            "alerts_off",
            "Turn managed alerts off",
            lambda r: _ready(r) and bool(r.get("managed_alerts_enabled")),
            confirm="The platform's own alerts stop reaching your contact points.",
            call=Call("POST", "disable-managed-alerts", PROJECT),
        ),
        ActionSpec(
            "test_alert",
            "Send a test alert",
            _ready,
            why_not=_why_not_ready,
            call=Call("POST", "trigger-test-alert", PROJECT),  # a POST: read-only sends none
            if_lost="whether it went out shows in the contact points' mailboxes; another test alert is harmless",
        ),
        ActionSpec(
            "deactivate",
            "Deactivate monitoring",
            lambda r: r.get("status") in ("ready", "error"),
            confirm="Pushes with its tokens are refused from then on, its alerts stop and its dashboard closes.",
            call=Call("POST", "deactivate", PROJECT),
        ),
    ),
    children=(
        Child("Tokens", HERE + "TOKENS"),
        Child("Contact points", HERE + "CONTACT_POINTS"),
        Child("Dashboard users", HERE + "USERS"),
    ),
)


def token_scopes(t: Row | Resource) -> str:
    return scopes_text(t.raw)


TOKENS = monitoring_kind(
    id="monitoring.tokens",
    singular="token",
    parent=Parent("monitoring.cockpit", list_path="tokens", item_path="tokens/{id}"),
    fields=(
        Field("id", "ID", "id", detail=False),
        Field("name", "Name", "name", width=24),
        Field("scopes", "Scopes", width=48, show=token_scopes),
        Field("created_at", "Created", "time", width=10, key="created", empty=""),
    ),
    columns=("name", "scopes", "created"),
    secrets=Secrets(fields=("secret_key",), once_view=Lazy(HERE + "token_once")),
    create=Lazy(FORMS + "TOKEN_CREATE"),
    delete=Call("DELETE", "{id}"),
    writing=Writing(deleting=Deleting(warning=lambda r: "Whatever pushes or queries with it is refused from then on")),
)


def contact_summary(data: dict[str, Any]) -> dict[str, Any]:
    email: dict[str, Any] = data["email"] if isinstance(data.get("email"), dict) else {}
    to = str(email.get("to") or "")
    return {"address": to or "(not an e-mail contact point)", "name": to}


async def contact_flags(service: ResourceService, scope: str) -> str:
    """What the contact-point list's two flags say (spec 2 §2.2), from a one-item page of it."""
    context = service.context_for(scope)
    assert context is not None  # (the console's services are made with their context)
    found = await service.call(
        "GET", scope, "contact-points", params={"page_size": 1, "project_id": context.project_id}
    )
    said = []
    if found.get("has_additional_receivers"):
        said.append("alerts also go to receivers set up in the dashboard, beyond these")
    if found.get("has_additional_contact_points"):
        said.append("the dashboard holds contact points not managed here")
    return "; ".join(said) or "no other receiver: alerts go to these addresses only"


def _contact_body(r: Row) -> dict[str, Any]:
    return {**PROJECT, "contact_point": {"email": {"to": r.get("address")}}}


CONTACT_POINTS = monitoring_kind(
    id="monitoring.contact_points",
    singular="contact point",
    collection="contact-points",
    reading=Reading(item=Item(fetch=False)),
    parent=Parent("monitoring.cockpit", list_path="contact-points"),
    rows=Rows(summarize=contact_summary, about=Lazy(HERE + "contact_flags")),
    # Its address names it and is its id (made by `contact_summary`).
    fields=(Field("address", "E-mail", ("name", "id"), width=40, empty=""),),
    columns=("address",),
    create=Lazy(FORMS + "CONTACT_CREATE"),
    delete=Call("POST", "delete-contact-point", _contact_body),
)

ROLES = {
    "editor": "editor: builds and changes dashboards",
    "viewer": "viewer: reads dashboards",
    "unknown_role": "no role",
}


def role_words(u: Row | Resource) -> str:
    role = u.raw.get("role")
    said = "" if role is None else str(role)
    return ROLES.get(said, said)


USERS = monitoring_kind(
    id="monitoring.users",
    singular="dashboard user",
    collection="dashboard-users",
    reading=Reading(item=Item(fetch=False)),
    parent=Parent("monitoring.cockpit", list_path="dashboard-users", item_path="dashboard-users/{id}"),
    rows=Rows(summarize=lambda d: {"name": str(d.get("login") or "")}),
    fields=(
        Field("id", "ID", "id", detail=False),
        Field("login", "Login", "name", width=24, empty=""),
        Field("role", "Role", width=40, show=role_words),
    ),
    columns=("login", "role"),
    secrets=Secrets(fields=("password",), renewal="reset_password"),
    create=Lazy(FORMS + "USER_CREATE"),
    delete=Call("POST", "{id}/delete", PROJECT),
    actions=(
        ActionSpec(
            "reset_password",
            "Reset the password",
            confirm="The old password stops working; the new one is shown once.",
            call=Call("POST", "{id}/reset-password", PROJECT),
            if_lost=LOST_PASSWORD,
        ),
    ),
)
