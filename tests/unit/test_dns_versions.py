"""What a zone version changed, said beside its time (issue 32 item 27: versions were shown by UUID)."""

from __future__ import annotations

import asyncio

from tui.products.dns import versions
from tui.products.dns.kinds import VERSIONS


def rec(rid, data="1.2.3.4", name="www"):
    return {"id": rid, "name": name, "type": "A", "data": data, "ttl": 3600}


class Service:
    def __init__(self, records):
        self.records, self.reads = records, []

    async def read_all(self, scope, *parts, key):
        self.reads.append(parts[-1])
        return self.records[parts[-1]]


def test_a_versions_changes_are_counted_against_the_version_before_it_and_read_once():
    records = {f"v{n}": [rec("a"), *(rec(f"x{i}") for i in range(n))] for n in range(14)}
    records["v13"][0] = rec("a", data="5.6.7.8")  # the newest also changed a record
    rows = [VERSIONS.make_row({"id": f"v{n}", "created_at": f"2026-11-{10 + n:02d}T12:00:00Z"}) for n in range(14)]
    service = Service(records)
    asyncio.run(versions.count_changes(service, "global", rows))
    newest = rows[13]
    assert newest.text("changes") == "+1 ~1 −0" and newest.name == "2026-11-23 12:00:00 (+1 ~1 −0)"
    assert rows[0].text("changes") == "first kept" and rows[1].text("changes") == "not counted"
    assert len(service.reads) == versions.COUNTED + 1  # each version read once, the 11th as a predecessor only
    again = [VERSIONS.make_row(r.data | {"name": ""}) for r in rows]
    service.reads.clear()
    asyncio.run(versions.count_changes(service, "global", again))
    assert service.reads == [] and again[13].text("changes") == "+1 ~1 −0"  # a version never changes: kept
