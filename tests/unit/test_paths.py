"""Every value placed in a path is percent-encoded by the one function that builds paths, and a
request a hostile id would move to another path ('.' or '..' segments, which httpx resolves) is
refused before anything is sent."""

from __future__ import annotations

import pytest

from tui.api.errors import ConfigError
from tui.products.kit.base import Call, Context, Row
from tui.products.instance.servers import SERVERS
from tui.products.kit.service import ResourceService
from tui.sandbox import DEMO_PROJECT_ID

pytestmark = pytest.mark.anyio


def test_a_value_stays_inside_its_segment():
    row = Row({"id": "a?b=1#c/d", "zone": "fr-par-1"})
    assert (
        SERVERS.call_path(Call("POST", "{id}/action"), "fr-par-1", row)
        == "/instance/v1/zones/fr-par-1/servers/a%3Fb%3D1%23c%2Fd/action"
    )
    assert SERVERS.item_path("fr-par-1", "x y#") == "/instance/v1/zones/fr-par-1/servers/x%20y%23"
    assert SERVERS.base("../../x") == "/instance/v1/zones/..%2F..%2Fx"


@pytest.mark.parametrize("rid", ["..", "."])
async def test_a_dot_segment_id_is_refused_before_sending(make_client, sandbox, rid):
    svc = ResourceService(make_client(), SERVERS, context=lambda sc: Context(DEMO_PROJECT_ID, sc))
    before = len(sandbox.requests)
    with pytest.raises(ConfigError, match="another path"):
        await svc.run(Call("POST", "{id}/action", {"action": "poweroff"}), "fr-par-1", Row({"id": rid}))
    with pytest.raises(ConfigError, match="another path"):
        await svc.call("PATCH", "fr-par-1", "servers", rid, body={"name": "x"})
    assert len(sandbox.requests) == before  # nothing was sent


async def test_a_hostile_id_is_sent_inside_its_own_segment(make_client):
    import httpx

    seen: list[httpx.URL] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.url)
        return httpx.Response(404, json={"type": "not_found", "message": "no such server"})

    from tui.api.client import ApiClient
    from tui.api.errors import NotFound

    client = ApiClient("http://sb", "k", transport=httpx.MockTransport(handler))
    svc = ResourceService(client, SERVERS, context=lambda sc: Context(DEMO_PROJECT_ID, sc))
    with pytest.raises(NotFound):
        await svc.run(Call("POST", "{id}/action", {"action": "poweroff"}), "fr-par-1", Row({"id": "../../x?y=1#"}))
    assert (
        seen[0].raw_path == b"/instance/v1/zones/fr-par-1/servers/..%2F..%2Fx%3Fy%3D1%23/action" and not seen[0].query
    )
    await client.aclose()


def test_two_certificates_of_one_zone_are_two_rows_read_and_deleted_by_the_zone():
    from tui.products.dns.kinds import CERTIFICATES

    old, renewed = (
        CERTIFICATES.make_row({"dns_zone": "example.com", "status": s, "created_at": at})
        for s, at in (("success", "2025-01-01T00:00:00Z"), ("pending", "2026-01-01T00:00:00Z"))
    )
    assert (
        old.id != renewed.id and old.name == renewed.name == "example.com"
    )  # keyed by what identifies one (spec 3 §2.1)
    assert {CERTIFICATES.call_path(CERTIFICATES.delete, "global", r) for r in (old, renewed)} == {
        "/domain/v2beta1/ssl-certificates/example.com"
    }
    assert CERTIFICATES.item_path("global", renewed.id) == "/domain/v2beta1/ssl-certificates/example.com"
