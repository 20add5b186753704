"""Any JSON type where a list expects another (a string for a list, a number for an object, inside
or at the top) costs at most that cell: rows are made and every column drawn for every kind."""

from __future__ import annotations

import httpx
import pytest

from tui.api.client import ApiClient
from tui.products.kit.base import Context, Row
from tui.products.manifest import list_kinds
from tui.products.kit.service import ResourceService
from tui.sandbox import DEMO_PROJECT_ID, DEMO_SECRET_KEY, ManualClock, Sandbox

pytestmark = pytest.mark.anyio
ODD = ["oops", {"x": "oops"}, ["oops"], 3.5, None, True]
KINDS = [k for k in list_kinds() if k.parent is None]


@pytest.mark.parametrize("kind", KINDS, ids=[k.id for k in KINDS])
async def test_every_field_of_the_wrong_type_costs_at_most_a_cell(kind):
    sandbox = Sandbox(clock=ManualClock())
    client = ApiClient("http://sb", DEMO_SECRET_KEY, transport=httpx.ASGITransport(sandbox.app))
    service = ResourceService(client, kind, context=lambda sc: Context(DEMO_PROJECT_ID, sc))
    if (
        kind.singleton and kind.singleton.absent is not None
    ):  # a page that does not exist until activated (monitoring): activated first
        await service.run(kind.singleton.absent_actions[0].call, kind.all_scopes[0], Row({}))
        sandbox.clock.advance(3600)
    scope = kind.all_scopes[0]
    rows = [kind.make_row(await service.get_singleton(scope))] if kind.singleton else await service.list_rows(scope)
    await client.aclose()
    assert rows, f"{kind.id}: the demo has some to spoil"
    data = rows[0].data
    for key in [k for k in data if k != kind.id_field]:
        for odd in ODD:
            row = kind.make_row({**data, key: odd})  # derived fields (summaries) of an odd object: none, no failure
            for column in kind.columns:
                assert column.value(row) is not None  # a cell that cannot be read shows "?"
                if column.sort_key is not None:
                    column.sort_key(row)


def test_equal_lists_of_a_listing_are_one_copy_and_masked_ones_are_not_shared():
    """Rows of one listing share equal lists of plain values (memory at 50,000 rows); a list holding
    a masked credential keeps its own copy: two secrets with the same mask stay apart."""
    from tui.api.safe import Masked
    from tui.products.kit.shared_values import SharedValues

    shared = SharedValues(["tags", "urls"])
    a = {"tags": ["web", "prod"], "urls": [Masked("vnc://u:one@h")]}
    b = {"tags": ["web", "prod"], "urls": [Masked("vnc://u:two@h")]}
    shared.share(a)
    shared.share(b)
    assert b["tags"] is a["tags"] and b["tags"] == ["web", "prod"]
    assert b["urls"] is not a["urls"] and b["urls"][0].secret == "vnc://u:two@h"
