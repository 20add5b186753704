"""The sandbox's silicon servers: what an operator would notice that no public client checks."""

from __future__ import annotations

import pytest

from tui.sandbox import DEMO_PROJECT_ID

pytestmark = pytest.mark.anyio
ZONES = ("fr-par-1", "fr-par-3")


async def test_no_two_servers_share_a_public_address_across_zones_or_after_a_delete(http):
    async def addresses() -> list[str]:
        found = []
        for zone in ZONES:
            found += [
                s["ip"] for s in (await http.get(f"/vendorx-silicon/v1alpha1/zones/{zone}/servers")).json()["servers"]
            ]
        return found

    seeded = await addresses()
    assert len(seeded) >= 3 and len(set(seeded)) == len(seeded)
    for zone in ZONES:  # one more in each zone: the first of each zone took the same address
        made = await http.post(
            f"/vendorx-silicon/v1alpha1/zones/{zone}/servers",
            json={"type": "M2-L", "name": f"new-{zone}", "project_id": DEMO_PROJECT_ID},
        )
        assert made.status_code == 200, made.text
    now = await addresses()
    assert len(set(now)) == len(now) == len(seeded) + 2
