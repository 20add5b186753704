"""Routes of the sandbox's monitoring (`/monitoring/v1beta1`): spec 2 §4.2 with the rules of §2.2,
§3.2, §7 and §8, and spec/4 "Monitoring" and "Common". What each answers when the spec is silent is
said in the package's docstring."""

from __future__ import annotations

import re
from typing import Any, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..collection import ordered, page
from ..core import checked_body, is_uuid, public
from ..errors import already_exists, invalid_arguments, not_found, precondition_failed, transient_state
from ..routing import Routes
from ..timeseries import pick, series, window
from .store import ROLES, SCOPES, Instance, MonitoringStore

TOKEN_ORDER = {
    "created_at_asc": ("created_at", False),
    "created_at_desc": ("created_at", True),
    "name_asc": ("name", False),
    "name_desc": ("name", True),
}
USER_ORDER = {"login_asc": ("login", False), "login_desc": ("login", True)}
NAME_MAX = 100
LOGIN = re.compile(r"^[A-Za-z][A-Za-z0-9._-]{1,31}$")  # 2 to 32 characters, a letter first
EMAIL = re.compile(r"^[^@\s]+@[^@\s.]+(\.[^@\s.]+)+$")
METRICS = {
    "active_series": (1_200.0, 300.0, 100_000.0),
    "active_log_streams": (40.0, 15.0, 5_000.0),
}  # base, swing, high (spec 2 §8)
NO_CONTENT = 204


def project_of(value: object, default: str) -> str:
    """The project a request names; none named is the key's own (the public clients leave it out
    of a body when the caller gives none)."""
    if value is None or value == "":
        return default
    if not is_uuid(value):
        raise invalid_arguments(("project_id", "format", "a Project ID (UUID)"))
    return value


def _contact_point(body: dict[str, Any]) -> dict[str, Any]:
    """The one contact point a body names: `{"email": {"to": address}}`, the only variant."""
    cp = body.get("contact_point")
    if cp is None:
        raise invalid_arguments(("contact_point", "required", "contact_point is required"))
    if not isinstance(cp, dict):
        raise invalid_arguments(("contact_point", "format", "contact_point is an object"))
    errs = [(f"contact_point.{k}", "unknown", "the only contact point is email") for k in sorted(set(cp) - {"email"})]
    email = cp.get("email")
    if email is None:
        errs.append(("contact_point.email", "required", "one contact point: email"))
    elif not isinstance(email, dict) or set(email) - {"to"}:
        errs.append(("contact_point.email", "format", 'email is {"to": address}'))
    elif not isinstance(email.get("to"), str) or not email["to"]:
        errs.append(("contact_point.email.to", "required", "the e-mail address is required"))
    elif len(email["to"]) > 254 or not EMAIL.match(email["to"]):
        errs.append(("contact_point.email.to", "format", f"{email['to']!r} is not an e-mail address"))
    if errs:
        raise invalid_arguments(*errs)
    assert email is not None  # refused above otherwise
    return {"email": {"to": email["to"]}}


def _scopes(value: object) -> dict[str, bool]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise invalid_arguments(("scopes", "format", f"scopes is an object of booleans: {', '.join(SCOPES)}"))
    errs = [(f"scopes.{k}", "unknown", f"scopes are {', '.join(SCOPES)}") for k in sorted(set(value) - set(SCOPES))]
    errs += [
        (f"scopes.{k}", "format", "true or false") for k in SCOPES if k in value and not isinstance(value[k], bool)
    ]
    if errs:
        raise invalid_arguments(*errs)
    return value


def routes(store: MonitoringStore) -> list[Route]:
    routes = Routes("/monitoring/v1beta1")

    async def body_of(request: Request, allowed: set[str]) -> tuple[dict[str, Any], str]:
        body = await checked_body(request, allowed | {"project_id"})
        return body, project_of(body.get("project_id"), store.project_id)

    def queried(request: Request) -> str:
        return project_of(request.query_params.get("project_id"), store.project_id)

    def answer(found: Instance, **extra: object) -> Response:
        return JSONResponse({**public(found.obj), **extra})

    # ---- the instance ------------------------------------------------------------------------------
    @routes.post("/activate")
    async def activate(request: Request) -> Response:
        _, project = await body_of(request, set())
        found = store.find(project)
        if found is not None and found.obj["status"] == "deleting":
            raise transient_state("monitoring", project, "deleting")
        if found is not None:
            raise already_exists(
                "monitoring", f"the monitoring of project {project} is already active: one per project"
            )
        found, access = store.activate(project)
        return answer(found, **access)

    @routes.get("/cockpit")
    async def get_instance(request: Request) -> Response:
        return answer(store.instance(queried(request)))

    @routes.get("/cockpit/metrics")
    async def metrics(request: Request) -> Response:
        project = queried(request)
        store.instance(project)
        start, end = window(request.query_params, store.clock.now(), "start_date", "end_date")
        out = [
            series(name, project, start, end, store.clock.iso, base=base, swing=swing, high=high)
            for name in pick(request.query_params, list(METRICS))
            for base, swing, high in [METRICS[name]]
        ]
        return JSONResponse({"timeseries": out})

    @routes.post("/deactivate")
    async def deactivate(request: Request) -> Response:
        _, project = await body_of(request, set())
        found = store.instance(project)
        if found.obj["status"] != "deleting":
            store.deactivate(found)
        return answer(found)

    @routes.post("/reset-dashboard")
    async def reset_dashboard(request: Request) -> Response:
        _, project = await body_of(request, set())
        found = store.instance(project)
        if found.obj["status"] != "ready":
            raise transient_state("monitoring", project, found.obj["status"])
        store.touch(found)
        return answer(found, **store.dashboard_access(found))

    @routes.post("/enable-managed-alerts", "/disable-managed-alerts")
    async def managed_alerts(request: Request) -> Response:
        _, project = await body_of(request, set())
        found = store.ready(project)
        found.obj["managed_alerts_enabled"] = request.url.path.endswith("/enable-managed-alerts")
        store.touch(found)
        return Response(status_code=NO_CONTENT)

    @routes.post("/trigger-test-alert")
    async def test_alert(request: Request) -> Response:
        _, project = await body_of(request, set())
        found = store.ready(project)
        if not found.contact_points:
            raise precondition_failed(
                "no_contact_point", "add a contact point first: a test alert is sent to the contact points"
            )
        store.alerts_sent.append(
            {"project_id": project, "at": store.clock.iso(), "to": [c["email"]["to"] for c in found.contact_points]}
        )
        return Response(status_code=NO_CONTENT)

    # ---- contact points ----------------------------------------------------------------------------
    @routes.get("/contact-points")
    async def list_contact_points(request: Request) -> Response:
        found = store.ready(queried(request), writes=False)
        return page(
            request,
            "contact_points",
            found.contact_points,
            dict,
            extra={
                "has_additional_receivers": store.additional_receivers,
                "has_additional_contact_points": store.additional_contact_points,
            },
        )

    @routes.post("/contact-points")
    async def create_contact_point(request: Request) -> Response:
        body, project = await body_of(request, {"contact_point"})
        cp = _contact_point(body)
        found = store.ready(project)
        if cp in found.contact_points:
            raise already_exists("contact_point", f"{cp['email']['to']} is already a contact point")
        found.contact_points.append(cp)
        return JSONResponse(cp)

    @routes.post("/delete-contact-point")
    async def delete_contact_point(request: Request) -> Response:
        body, project = await body_of(request, {"contact_point"})
        cp = _contact_point(body)
        found = store.ready(project)
        if cp not in found.contact_points:
            raise not_found("contact_point", cp["email"]["to"])
        found.contact_points.remove(cp)
        return Response(status_code=NO_CONTENT)

    # ---- tokens ------------------------------------------------------------------------------------
    def listing(
        path: str,
        key: str,
        table: Callable[[Instance], dict[Any, Any]],
        orders: dict[str, tuple[str, bool]],
        default: str,
    ) -> None:
        """GET `path`: the project's tokens or dashboard users (its `table`), in the order asked."""

        async def list_them(request: Request) -> Response:
            found = store.ready(queried(request), writes=False)
            return page(request, key, ordered(request, list(table(found).values()), orders, default), dict)

        routes.get(path)(list_them)

    listing("/tokens", "tokens", lambda found: found.tokens, TOKEN_ORDER, "created_at_asc")

    @routes.post("/tokens")
    async def create_token(request: Request) -> Response:
        body, project = await body_of(request, {"name", "scopes"})
        name = body.get("name")
        if not isinstance(name, str) or not name.strip():
            raise invalid_arguments(("name", "required", "a token name is required"))
        if len(name) > NAME_MAX:
            raise invalid_arguments(("name", "constraint", f"at most {NAME_MAX} characters"))
        scopes = _scopes(body.get("scopes"))
        found = store.ready(project)
        if any(t["name"] == name for t in found.tokens.values()):  # spec 2 §7.2: invalid
            raise invalid_arguments(
                ("name", "constraint", f"a token named {name!r} exists: names are unique in the monitoring")
            )
        return JSONResponse(store.add_token(found, name, scopes))

    @routes.get("/tokens/{token_id}")
    async def get_token(request: Request) -> Response:
        return JSONResponse(dict(store.token(request.path_params["token_id"])[1]))

    @routes.delete("/tokens/{token_id}")
    async def delete_token(request: Request) -> Response:
        found, token = store.token(request.path_params["token_id"])
        if found.obj["status"] != "ready":
            raise transient_state("monitoring", found.obj["project_id"], found.obj["status"])
        del found.tokens[token["id"]]
        return Response(status_code=NO_CONTENT)

    # ---- dashboard users ---------------------------------------------------------------------------
    listing("/dashboard-users", "dashboard_users", lambda found: found.users, USER_ORDER, "login_asc")

    @routes.post("/dashboard-users")
    async def create_user(request: Request) -> Response:
        body, project = await body_of(request, {"login", "role"})
        login, role = body.get("login"), body.get("role")
        errs = []
        if not login:
            errs.append(("login", "required", "a login is required"))
        elif not isinstance(login, str) or not LOGIN.match(login):
            errs.append(("login", "format", "2 to 32 letters, digits, '.', '_' or '-', a letter first"))
        if not role:
            errs.append(("role", "required", f"a role is required: {' or '.join(ROLES)}"))
        elif role not in ROLES:
            errs.append(("role", "constraint", f"the role is {' or '.join(ROLES)}"))
        if errs:
            raise invalid_arguments(*errs)
        assert login is not None and role is not None  # refused above otherwise
        found = store.ready(project)
        if any(u["login"] == login for u in found.users.values()):
            raise already_exists("dashboard_user", f"a dashboard user {login!r} exists")
        return JSONResponse(store.add_user(found, login, role))

    @routes.post("/dashboard-users/{user_id}/delete")
    async def delete_user(request: Request) -> Response:
        _, project = await body_of(request, set())
        found = store.ready(project)
        del found.users[store.user(found, request.path_params["user_id"])["id"]]
        return Response(status_code=NO_CONTENT)

    @routes.post("/dashboard-users/{user_id}/reset-password")
    async def reset_password(request: Request) -> Response:
        _, project = await body_of(request, set())
        found = store.ready(project)
        return JSONResponse({**store.user(found, request.path_params["user_id"]), "password": store.password()})

    return routes.table()
