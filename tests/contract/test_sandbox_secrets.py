"""Secrets and passwords the sandbox makes come from a cryptographic source, never from a seeded
generator (issue 32, item 11): two sandboxes started alike — two demo processes — answered the same
token secret (`AEcKp7Re…`), the same dashboard password, TSIG key and VNC password."""

from __future__ import annotations

from urllib.parse import urlsplit

import httpx
import pytest

from tui.sandbox import DEMO_PROJECT_ID, DEMO_SECRET_KEY, ManualClock, Sandbox

pytestmark = pytest.mark.anyio
M = "/monitoring/v1beta1"
P = {"project_id": DEMO_PROJECT_ID}


async def secrets_of(sandbox: Sandbox, clock: ManualClock) -> dict[str, str]:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(sandbox.app), base_url="http://sb", headers={"X-Auth-Token": DEMO_SECRET_KEY}
    ) as http:
        made = (await http.post(f"{M}/activate", json=P)).json()
        clock.advance(5)
        token = (await http.post(f"{M}/tokens", json={**P, "name": "pusher", "scopes": {"write_metrics": True}})).json()
        user = (await http.post(f"{M}/dashboard-users", json={**P, "login": "ops", "role": "editor"})).json()
        tsig = (await http.get("/domain/v2beta1/dns-zones/example.com/tsig-key")).json()
        servers = (await http.get("/vendorx-silicon/v1alpha1/zones/fr-par-1/servers")).json()["servers"]
    vnc = urlsplit(servers[0]["vnc_url"]).password
    return {
        "dashboard password": made["dashboard_password"],
        "token secret": token["secret_key"],
        "user password": user["password"],
        "TSIG key": tsig["key"],
        "VNC password": vnc,
    }


async def test_two_sandboxes_started_alike_make_different_secrets():
    first, second = ManualClock(), ManualClock()
    a, b = await secrets_of(Sandbox(clock=first), first), await secrets_of(Sandbox(clock=second), second)
    assert all(a.values()) and all(b.values()), (a, b)
    assert [name for name in a if a[name] == b[name]] == []
