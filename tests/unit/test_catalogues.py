"""Every endpoint of the spec is reachable: the catalogues read inside forms are lists of their own
(database engines and node types, cache versions and node types, silicon types and OSes, bare-metal
offers and OSes), with every column drawn from what the sandbox answers, and the single-object GETs
(a silicon type by name, a silicon OS by id, a database endpoint by id) are what their details read."""

from __future__ import annotations

import httpx
import pytest

from tui.api.client import ApiClient
from tui.products.kit.base import Context, ParentRef
from tui.products.manifest import by_id
from tui.products.rdb.children import ENDPOINTS
from tui.products.rdb.instances import INSTANCES
from tui.products.kit.service import ResourceService
from tui.sandbox import DEMO_PROJECT_ID, DEMO_SECRET_KEY, ManualClock, Sandbox

pytestmark = pytest.mark.anyio

CATALOGUES = {
    "rdb.engines": "fr-par",
    "rdb.node_types": "fr-par",
    "kvcache.versions": "fr-par-1",
    "kvcache.node_types": "fr-par-1",
    "silicon.types": "fr-par-1",
    "silicon.os": "fr-par-1",
    "baremetal.offers": "fr-par-1",
    "baremetal.os": "fr-par-1",
}


@pytest.fixture
async def client():
    c = ApiClient("http://sb", DEMO_SECRET_KEY, transport=httpx.ASGITransport(Sandbox(clock=ManualClock()).app))
    yield c
    await c.aclose()


def _service(client, kind, parent=None):
    return ResourceService(client, kind, parent, context=lambda sc: Context(DEMO_PROJECT_ID, sc))


@pytest.mark.parametrize("entry", list(CATALOGUES))
async def test_each_catalogue_is_a_read_only_list(client, entry):
    kind = by_id(entry).load()
    assert kind.create is None and kind.edit is None and kind.delete is None and not kind.actions
    svc = _service(client, kind)
    rows = await svc.list_rows(CATALOGUES[entry])
    assert rows and all(r.id for r in rows)
    for row in rows:
        for column in kind.columns:
            assert "?" not in str(column.value(row)).split() or column.key in ("cpu",), (column.key, row)
    one = await svc.get(CATALOGUES[entry], rows[0].id) if kind.reading.item.fetch else None
    if one is not None:  # GET /server-type/{name}, GET /os/{id}
        assert one.raw[kind.id_field] == rows[0].get(kind.id_field)  # (the row id also says its zone)
        assert all(label and value(one) for label, value in kind.detail_fields)


async def test_a_database_endpoint_is_read_by_its_id(client):
    instance = next(r for r in await _service(client, INSTANCES).list_rows("fr-par") if r.items("endpoints"))
    svc = _service(client, ENDPOINTS, ParentRef(instance.id, instance.name, "fr-par"))
    listed = await svc.list_rows("fr-par")
    assert {r.id for r in listed} == {e["id"] for e in instance.items("endpoints")}
    one = await svc.get_data("fr-par", listed[0].id)  # GET /endpoints/{id}
    assert one["id"] == listed[0].id and one.get("port")


async def test_sizes_read_as_people_write_them(client):
    """A GiB of memory is 1.07 GB, not 1.07374 cut by its column; large sizes stay whole."""
    from tui.products.kit.format import gb

    kind = by_id("kvcache.node_types").load()
    rows = {r.name: r for r in await _service(client, kind).list_rows("fr-par-1")}
    memory = next(c for c in kind.columns if c.key == "memory")
    assert memory.value(rows["RED1-MICRO"]) == "1.07 GB" and memory.value(rows["RED1-XL"]) == "34.4 GB"
    assert (gb(10_000_000_000_000), gb(500_000_000), gb("x")) == ("10000", "0.5", "?")
