"""The sandbox's monitoring against spec 2 §2.2, §3.2, §4.2, §7, §8 and spec/4 "Monitoring", and as the
platform's public client library (CockpitV1Beta1API of the Python SDK) calls it."""

from __future__ import annotations

import pytest

from helpers import args
from tui.sandbox import DEMO_PROJECT_ID, ManualClock, Sandbox

pytestmark = pytest.mark.anyio
M = "/monitoring/v1beta1"
P = {"project_id": DEMO_PROJECT_ID}
OTHER = "3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a"


async def activated(http, clock, project_id=DEMO_PROJECT_ID):
    r = await http.post(f"{M}/activate", json={"project_id": project_id})
    assert r.status_code == 200, r.text
    clock.advance(5)
    return r.json()


async def test_the_monitoring_is_absent_until_activated_then_creating_then_ready_with_the_clock(http, clock):
    r = await http.get(f"{M}/cockpit", params=P)
    assert r.status_code == 404 and r.json() == {
        "type": "not_found",
        "message": "resource is not found",
        "resource": "monitoring",
        "resource_id": DEMO_PROJECT_ID,
    }
    made = (await http.post(f"{M}/activate", json=P)).json()
    assert (
        made["status"] == "creating"
        and made["project_id"] == DEMO_PROJECT_ID
        and made["managed_alerts_enabled"] is False
    )
    assert set(made["endpoints"]) == {"metrics_url", "logs_url", "alertmanager_url", "dashboard_url"}
    assert {"created_at", "updated_at"} <= set(made)
    clock.advance(4.9)
    assert (await http.get(f"{M}/cockpit", params=P)).json()["status"] == "creating"
    clock.advance(0.1)
    assert (await http.get(f"{M}/cockpit", params=P)).json()["status"] == "ready"


async def test_the_dashboard_password_is_answered_by_activation_and_reset_only(http, clock):
    made = await activated(http, clock)
    assert (
        made["dashboard_url"] == made["endpoints"]["dashboard_url"]
        and made["dashboard_username"]
        and len(made["dashboard_password"]) >= 16
    )
    got = (await http.get(f"{M}/cockpit", params=P)).json()
    assert not {"dashboard_password", "dashboard_username", "dashboard_url"} & set(got)
    reset = (await http.post(f"{M}/reset-dashboard", json=P)).json()
    assert reset["dashboard_password"] != made["dashboard_password"] and reset["status"] == "ready"
    assert "dashboard_password" not in (await http.get(f"{M}/cockpit", params=P)).json()


async def test_one_instance_per_project_so_a_second_activation_is_refused(http, clock):
    await activated(http, clock)
    r = await http.post(f"{M}/activate", json=P)
    assert r.status_code == 409 and r.json()["type"] == "already_exists" and r.json()["resource"] == "monitoring"
    assert (
        await http.post(f"{M}/activate", json={"project_id": OTHER})
    ).status_code == 200  # another project has its own
    assert args(await http.post(f"{M}/activate", json={"project_id": "nope"})) == {"project_id": "format"}


async def test_deactivation_answers_deleting_then_the_clock_removes_everything(http, clock):
    await activated(http, clock)
    token = (await http.post(f"{M}/tokens", json={**P, "name": "push"})).json()
    r = await http.post(f"{M}/deactivate", json=P)
    assert r.status_code == 200 and r.json()["status"] == "deleting"
    r = await http.post(f"{M}/activate", json=P)
    assert r.status_code == 409 and r.json()["current_state"] == "deleting"
    assert (await http.post(f"{M}/tokens", json={**P, "name": "other"})).json()["current_state"] == "deleting"
    clock.advance(3)
    assert (await http.get(f"{M}/cockpit", params=P)).status_code == 404
    assert (await http.get(f"{M}/tokens/{token['id']}")).status_code == 404
    assert (await http.post(f"{M}/deactivate", json=P)).status_code == 404


async def test_everything_but_activation_needs_an_instance(http):
    for path in ("deactivate", "reset-dashboard"):
        assert (await http.post(f"{M}/{path}", json=P)).status_code == 404
    for method, path, body in [
        ("GET", "tokens", None),
        ("POST", "tokens", {"name": "t"}),
        ("GET", "contact-points", None),
        ("POST", "enable-managed-alerts", {}),
        ("POST", "trigger-test-alert", {}),
        ("GET", "dashboard-users", None),
        ("POST", "dashboard-users", {"login": "ann", "role": "viewer"}),
    ]:
        r = await http.request(
            method, f"{M}/{path}", params=P if body is None else None, json=None if body is None else {**P, **body}
        )
        assert r.status_code == 412 and r.json()["precondition"] == "monitoring_not_activated", (path, r.text)


async def test_writes_wait_for_ready_while_reads_answer(http, clock):
    await http.post(f"{M}/activate", json=P)
    r = await http.post(f"{M}/tokens", json={**P, "name": "early"})
    assert r.status_code == 409 and r.json()["type"] == "transient_state" and r.json()["current_state"] == "creating"
    assert (await http.get(f"{M}/tokens", params=P)).json() == {"tokens": [], "total_count": 0}


async def test_managed_alerts_are_switched_with_204_and_show_on_the_instance(http, clock):
    await activated(http, clock)
    r = await http.post(f"{M}/enable-managed-alerts", json=P)
    assert r.status_code == 204 and r.content == b""
    assert (await http.get(f"{M}/cockpit", params=P)).json()["managed_alerts_enabled"] is True
    assert (await http.post(f"{M}/enable-managed-alerts", json=P)).status_code == 204  # idempotent
    assert (await http.post(f"{M}/disable-managed-alerts", json=P)).status_code == 204
    assert (await http.get(f"{M}/cockpit", params=P)).json()["managed_alerts_enabled"] is False


async def test_a_test_alert_goes_to_every_contact_point_and_needs_one(http, clock, sandbox):
    await activated(http, clock)
    r = await http.post(f"{M}/trigger-test-alert", json=P)
    assert r.status_code == 412 and r.json()["precondition"] == "no_contact_point"
    for to in ("ops@example.com", "oncall@example.org"):
        await http.post(f"{M}/contact-points", json={**P, "contact_point": {"email": {"to": to}}})
    r = await http.post(f"{M}/trigger-test-alert", json=P)
    assert r.status_code == 204 and r.content == b""
    assert [a["to"] for a in sandbox.monitoring.alerts_sent] == [["ops@example.com", "oncall@example.org"]]


async def test_contact_points_are_email_only_listed_with_their_flags_and_deleted_by_value(http, clock):
    await activated(http, clock)
    cp = {"email": {"to": "ops@example.com"}}
    r = await http.post(f"{M}/contact-points", json={**P, "contact_point": cp})
    assert r.status_code == 200 and r.json() == cp
    listed = (await http.get(f"{M}/contact-points", params=P)).json()
    assert listed == {
        "contact_points": [cp],
        "total_count": 1,
        "has_additional_receivers": False,
        "has_additional_contact_points": False,
    }
    assert (await http.post(f"{M}/contact-points", json={**P, "contact_point": cp})).json()["type"] == "already_exists"
    assert args(
        await http.post(f"{M}/contact-points", json={**P, "contact_point": {"email": {"to": "not an address"}}})
    ) == {"contact_point.email.to": "format"}
    assert args(
        await http.post(f"{M}/contact-points", json={**P, "contact_point": {"email": cp["email"], "slack": {}}})
    ) == {"contact_point.slack": "unknown"}
    assert args(await http.post(f"{M}/contact-points", json=P)) == {"contact_point": "required"}
    r = await http.post(f"{M}/delete-contact-point", json={**P, "contact_point": cp})
    assert r.status_code == 204 and r.content == b""
    assert (await http.post(f"{M}/delete-contact-point", json={**P, "contact_point": cp})).status_code == 404
    assert (await http.get(f"{M}/contact-points", params=P)).json()["total_count"] == 0


async def test_a_token_secret_is_answered_once_and_read_back_empty(http, clock):
    await activated(http, clock)
    scopes = {"write_metrics": True, "write_logs": False}
    made = (await http.post(f"{M}/tokens", json={**P, "name": "pusher", "scopes": scopes})).json()
    assert len(made["secret_key"]) >= 32 and made["project_id"] == DEMO_PROJECT_ID and made["name"] == "pusher"
    assert made["scopes"] == {
        "query_metrics": False,
        "write_metrics": True,
        "setup_metrics_rules": False,
        "query_logs": False,
        "write_logs": False,
        "setup_logs_rules": False,
        "setup_alerts": False,
        "query_traces": False,
        "write_traces": False,
    }
    got = (await http.get(f"{M}/tokens/{made['id']}")).json()
    assert got == {**made, "secret_key": ""}
    assert (await http.get(f"{M}/tokens", params=P)).json()["tokens"][0]["secret_key"] == ""
    r = await http.delete(f"{M}/tokens/{made['id']}")
    assert r.status_code == 204 and r.content == b""
    assert (await http.get(f"{M}/tokens/{made['id']}")).json()["resource"] == "token"


async def test_a_token_name_is_unique_and_its_scopes_are_known_booleans(http, clock):
    await activated(http, clock)
    await http.post(f"{M}/tokens", json={**P, "name": "pusher"})
    assert args(await http.post(f"{M}/tokens", json={**P, "name": "pusher"})) == {
        "name": "constraint"
    }  # spec 2 §7.2: invalid
    assert args(await http.post(f"{M}/tokens", json={**P, "name": ""})) == {"name": "required"}
    assert args(await http.post(f"{M}/tokens", json={**P, "name": "t", "scopes": {"read_all": True}})) == {
        "scopes.read_all": "unknown"
    }
    assert args(await http.post(f"{M}/tokens", json={**P, "name": "t", "scopes": {"write_logs": "yes"}})) == {
        "scopes.write_logs": "format"
    }
    assert args(await http.post(f"{M}/tokens", json={**P, "name": "t", "colour": "red"})) == {"colour": "unknown"}


async def test_tokens_page_and_order_as_the_spec_says(http, clock):
    await activated(http, clock)
    for name in ("b", "c", "a"):
        await http.post(f"{M}/tokens", json={**P, "name": name})
        clock.advance(1)
    names = lambda r: [t["name"] for t in r.json()["tokens"]]  # noqa: E731
    assert names(await http.get(f"{M}/tokens", params=P)) == ["b", "c", "a"]  # created_at_asc by default
    assert names(await http.get(f"{M}/tokens", params={**P, "order_by": "created_at_desc"})) == ["a", "c", "b"]
    assert names(await http.get(f"{M}/tokens", params={**P, "order_by": "name_asc"})) == ["a", "b", "c"]
    assert names(await http.get(f"{M}/tokens", params={**P, "order_by": "name_desc", "page": 2, "page_size": 2})) == [
        "a"
    ]
    assert (await http.get(f"{M}/tokens", params={**P, "page_size": 2})).json()["total_count"] == 3
    assert args(await http.get(f"{M}/tokens", params={**P, "order_by": "size_asc"})) == {"order_by": "constraint"}


async def test_dashboard_users_have_integer_ids_a_role_and_a_password_shown_once(http, clock):
    await activated(http, clock)
    made = (await http.post(f"{M}/dashboard-users", json={**P, "login": "ann", "role": "editor"})).json()
    assert isinstance(made["id"], int) and made["role"] == "editor" and made["password"]
    await http.post(f"{M}/dashboard-users", json={**P, "login": "bob", "role": "viewer"})
    listed = (await http.get(f"{M}/dashboard-users", params={**P, "order_by": "login_desc"})).json()
    assert [u["login"] for u in listed["dashboard_users"]] == ["bob", "ann"] and listed["total_count"] == 2
    assert all(u["password"] is None for u in listed["dashboard_users"])
    reset = (await http.post(f"{M}/dashboard-users/{made['id']}/reset-password", json=P)).json()
    assert reset["id"] == made["id"] and reset["password"] and reset["password"] != made["password"]
    r = await http.post(f"{M}/dashboard-users/{made['id']}/delete", json=P)
    assert r.status_code == 204 and r.content == b""
    assert (await http.post(f"{M}/dashboard-users/{made['id']}/delete", json=P)).json()["resource"] == "dashboard_user"
    assert (await http.post(f"{M}/dashboard-users/abc/reset-password", json=P)).status_code == 404


async def test_a_dashboard_user_needs_a_login_once_and_a_known_role(http, clock):
    await activated(http, clock)
    await http.post(f"{M}/dashboard-users", json={**P, "login": "ann", "role": "editor"})
    assert (await http.post(f"{M}/dashboard-users", json={**P, "login": "ann", "role": "viewer"})).json()[
        "type"
    ] == "already_exists"
    assert args(await http.post(f"{M}/dashboard-users", json={**P, "login": "1x", "role": "admin"})) == {
        "login": "format",
        "role": "constraint",
    }
    assert args(await http.post(f"{M}/dashboard-users", json={**P, "login": "cy", "role": "unknown_role"})) == {
        "role": "constraint"
    }
    assert args(await http.post(f"{M}/dashboard-users", json=P)) == {"login": "required", "role": "required"}


async def test_the_instance_series_are_read_as_time_series(http, clock):
    await activated(http, clock)
    series = (await http.get(f"{M}/cockpit/metrics", params={**P, "metric_name": "active_series"})).json()["timeseries"]
    assert [s["name"] for s in series] == ["active_series"] and series[0]["points"]


def test_scale_activates_the_monitoring_with_n_tokens():
    sandbox = Sandbox(clock=ManualClock(), scale=30)
    found = sandbox.monitoring.instances[DEMO_PROJECT_ID]
    assert found.obj["status"] == "ready" and len(found.tokens) == 30


def test_the_demo_leaves_the_monitoring_to_be_activated(sandbox):
    assert sandbox.monitoring.instances == {}


# ---- as the public client library (CockpitV1Beta1API) sends it -----------------------------------
async def test_activate_get_and_deactivate_as_the_client_sends_them(http, clock):
    # activate_cockpit(): marshal_ActivateCockpitRequest leaves project_id out when none is given
    r = await http.post(f"{M}/activate", json={})
    assert r.status_code == 200 and r.json()["project_id"] == DEMO_PROJECT_ID
    clock.advance(5)
    # get_cockpit(): GET /cockpit?project_id=<default project>
    assert (await http.get(f"{M}/cockpit", params=P)).json()["status"] == "ready"
    # get_cockpit_metrics(): start_date, end_date, metric_name, project_id
    r = await http.get(
        f"{M}/cockpit/metrics", params={**P, "start_date": "2026-01-15T09:00:00Z", "end_date": "2026-01-15T10:00:00Z"}
    )
    assert r.status_code == 200 and len(r.json()["timeseries"]) == 2
    # deactivate_cockpit(project_id=…)
    assert (await http.post(f"{M}/deactivate", json=P)).json()["status"] == "deleting"


async def test_tokens_as_create_token_and_list_tokens_send_them(http, clock):
    await activated(http, clock)
    # create_token(): project_id, name, scopes (only the booleans the caller set)
    made = await http.post(
        f"{M}/tokens", json={**P, "name": "token-brave-lion", "scopes": {"write_metrics": True, "query_logs": True}}
    )
    assert made.status_code == 200 and made.json()["secret_key"]
    # list_tokens(): order_by, page, page_size and project_id are all sent
    r = await http.get(f"{M}/tokens", params={"order_by": "created_at_asc", "page": 1, "page_size": 20, **P})
    assert r.json()["total_count"] == 1 and r.json()["tokens"][0]["name"] == "token-brave-lion"


async def test_contact_points_and_alerts_as_the_client_sends_them(http, clock, sandbox):
    await activated(http, clock)
    cp = {"email": {"to": "ops@example.com"}}
    # create_contact_point(), list_contact_points(page, page_size, project_id), trigger_test_alert(),
    # delete_contact_point()
    assert (await http.post(f"{M}/contact-points", json={**P, "contact_point": cp})).status_code == 200
    assert (await http.get(f"{M}/contact-points", params={"page": 1, "page_size": 20, **P})).json()[
        "contact_points"
    ] == [cp]
    assert (await http.post(f"{M}/trigger-test-alert", json=P)).status_code == 204
    # enable_managed_alerts() / disable_managed_alerts(): a body of project_id alone
    assert (await http.post(f"{M}/enable-managed-alerts", json={})).status_code == 204
    assert (await http.post(f"{M}/delete-contact-point", json={**P, "contact_point": cp})).status_code == 204


async def test_dashboard_users_as_the_client_sends_them(http, clock):
    await activated(http, clock)
    # create_grafana_user(login, role, project_id) → the dashboard-users route of the spec
    made = (
        await http.post(f"{M}/dashboard-users", json={"login": "ann", "project_id": DEMO_PROJECT_ID, "role": "viewer"})
    ).json()
    # list_grafana_users(): order_by, page, page_size, project_id
    listed = (
        await http.get(f"{M}/dashboard-users", params={"order_by": "login_asc", "page": 1, "page_size": 20, **P})
    ).json()
    assert [u["id"] for u in listed["dashboard_users"]] == [made["id"]]
    # reset_grafana_user_password() and delete_grafana_user(): POST with a body of project_id alone
    assert (await http.post(f"{M}/dashboard-users/{made['id']}/reset-password", json=P)).json()["password"]
    assert (await http.post(f"{M}/dashboard-users/{made['id']}/delete", json=P)).status_code == 204
