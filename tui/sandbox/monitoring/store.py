"""The monitoring product's objects (spec 2 §2.2, §3.2, §5, §7, §8; spec/4 "Monitoring"): at most one
monitoring instance per project, and what lives in it — tokens, dashboard users, the default
receiver's contact points, the test alerts sent.

An instance is `creating` for `Timings.activate` seconds after activation, then `ready`; a
deactivation answers it `deleting` and the clock removes it (with everything in it) after
`Timings.deactivate` seconds. One-time secrets (the dashboard password, a token's secret key, a
dashboard user's password) are made here and handed to the route that answers them once; what is
stored never holds them.
"""

from __future__ import annotations

import secrets
import string
from dataclasses import field
from typing import TYPE_CHECKING, Any

from tui.records import record

from ..errors import not_found, or_not_found, precondition_failed, transient_state
from ..lifecycle import GONE, Timeline
from ..product_store import ProductStore

if TYPE_CHECKING:
    from ..app import Sandbox

# the spec's seven, and the traces' two of the public client's TokenScopes
SCOPES = (
    "query_metrics",
    "write_metrics",
    "setup_metrics_rules",
    "query_logs",
    "write_logs",
    "setup_logs_rules",
    "setup_alerts",
    "query_traces",
    "write_traces",
)
ROLES = ("editor", "viewer")
ENDPOINT_HOST = "monitoring.sandbox.example"  # where the instance's push and query addresses point


@record
class Timings:
    activate: float = 5.0  # creating → ready
    deactivate: float = 3.0  # deleting → gone


@record
class Instance:
    """One project's monitoring: the object answered (`obj`) and what it holds."""

    obj: dict[str, Any]
    tokens: dict[str, dict[str, Any]] = field(default_factory=dict)  # id -> token (secret key blank)
    users: dict[int, dict[str, Any]] = field(default_factory=dict)  # id -> dashboard user (no password)
    contact_points: list[dict[str, Any]] = field(default_factory=list)  # {"email": {"to": …}}, in creation order
    next_user_id: int = 1


class MonitoringStore(ProductStore):
    t: Timings

    def __init__(self, sandbox: Sandbox) -> None:
        super().__init__(sandbox, "monitoring_timings", Timings)
        self.timeline = Timeline(self.clock, on_gone=self._gone)
        self.instances: dict[str, Instance] = {}  # project id -> its monitoring
        self.alerts_sent: list[dict[str, Any]] = []  # each test alert: {project_id, at, to: [addresses]}
        # What the platform manages beside the API (spec 2 §2.2): receivers other than the default
        # one, contact points not made through the API. None in the sandbox unless a test sets them.
        self.additional_receivers = False
        self.additional_contact_points = False
        self._secrets = secrets.SystemRandom()  # never a seeded generator: the same secrets in every process

    # ---- the instance ------------------------------------------------------------------------------
    def find(self, project_id: str) -> Instance | None:
        """The project's monitoring settled to now, or None."""
        found = self.instances.get(project_id)
        if found is not None and self.timeline.settle(found.obj):
            return None
        return found

    def instance(self, project_id: str) -> Instance:
        """The project's monitoring (404 when it is not activated)."""
        return or_not_found(self.find(project_id), "monitoring", project_id)

    def ready(self, project_id: str, writes: bool = True) -> Instance:
        """The project's monitoring, for its tokens, users, contact points and alerts: 412 when it
        is not activated; a write also needs it `ready` (409 while creating or deleting)."""
        found = self.find(project_id)
        if found is None:
            raise precondition_failed(
                "monitoring_not_activated", f"activate the monitoring of project {project_id} first"
            )
        if writes and found.obj["status"] != "ready":
            raise transient_state("monitoring", project_id, found.obj["status"])
        return found

    def activate(self, project_id: str) -> tuple[Instance, dict[str, str]]:
        """A new instance, `creating`, and its dashboard's one-time access values."""
        now = self.clock.iso()
        base = f"https://{project_id}.{ENDPOINT_HOST}"
        obj = {
            "project_id": project_id,
            "created_at": now,
            "updated_at": now,
            "status": "creating",
            "managed_alerts_enabled": False,
            "endpoints": {
                "metrics_url": f"{base}/metrics",
                "logs_url": f"{base}/logs",
                "alertmanager_url": f"{base}/alertmanager",
                "dashboard_url": f"https://{project_id}.dashboard.{ENDPOINT_HOST}",
            },
        }
        found = self.instances[project_id] = Instance(obj)
        self.timeline.plan(obj, (self.t.activate, {"status": "ready"}))
        return found, self.dashboard_access(found)

    def dashboard_access(self, found: Instance) -> dict[str, str]:
        """The dashboard's address, admin login and a fresh password (answered once)."""
        return {
            "dashboard_url": found.obj["endpoints"]["dashboard_url"],
            "dashboard_username": f"admin-{found.obj['project_id'][:8]}",
            "dashboard_password": self.password(),
        }

    def deactivate(self, found: Instance) -> None:
        found.obj["status"] = "deleting"
        found.obj["updated_at"] = self.clock.iso()
        self.timeline.replan(found.obj, (self.t.deactivate, {GONE: True}))

    def _gone(self, obj: dict[str, Any]) -> None:
        self.instances.pop(obj["project_id"], None)

    def touch(self, found: Instance) -> None:
        found.obj["updated_at"] = self.clock.iso()

    # ---- secrets -----------------------------------------------------------------------------------
    def password(self, length: int = 20) -> str:
        """A dashboard password: letters, digits and a few signs, one of each class at least."""
        rng = self._secrets
        chars = [
            rng.choice(string.ascii_lowercase),
            rng.choice(string.ascii_uppercase),
            rng.choice(string.digits),
            rng.choice("-_.!"),
        ]
        chars += [rng.choice(string.ascii_letters + string.digits) for _ in range(length - len(chars))]
        rng.shuffle(chars)
        return "".join(chars)

    def secret_key(self) -> str:
        return "".join(self._secrets.choices(string.ascii_letters + string.digits, k=64))

    # ---- tokens ------------------------------------------------------------------------------------
    def add_token(self, found: Instance, name: str, scopes: dict[str, bool]) -> dict[str, Any]:
        """A token, stored with its secret key blank; the answer to its creation holds the key."""
        now = self.clock.iso()
        token = {
            "id": self.ids.uuid(),
            "project_id": found.obj["project_id"],
            "name": name,
            "created_at": now,
            "updated_at": now,
            "scopes": {s: bool(scopes.get(s)) for s in SCOPES},
            "secret_key": "",
        }
        found.tokens[token["id"]] = token
        return {**token, "secret_key": self.secret_key()}

    def token(self, token_id: str) -> tuple[Instance, dict[str, Any]]:
        """A token by id, in whichever project's monitoring holds it (404 otherwise)."""
        for project_id in list(self.instances):
            found = self.find(project_id)
            if found is not None and token_id in found.tokens:
                return found, found.tokens[token_id]
        raise not_found("token", token_id)

    # ---- dashboard users ---------------------------------------------------------------------------
    def add_user(self, found: Instance, login: str, role: str) -> dict[str, Any]:
        user: dict[str, Any] = {"id": found.next_user_id, "login": login, "role": role, "password": None}
        found.next_user_id += 1
        found.users[user["id"]] = user
        return {**user, "password": self.password()}

    def user(self, found: Instance, raw_id: str) -> dict[str, Any]:
        return or_not_found(found.users.get(int(raw_id)) if raw_id.isdigit() else None, "dashboard_user", raw_id)
