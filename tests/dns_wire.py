"""Talking to the sandbox's DNS over ASGI in contract tests: a zone's records, a change set sent, a record
made, its versions (tests/contract/test_sandbox_dns*.py)."""

D = "/domain/v2beta1"
Z = f"{D}/dns-zones"


async def records(http, zone, **params):
    r = await http.get(f"{Z}/{zone}/records", params={"page_size": 1000, **params})
    assert r.status_code == 200, r.text
    return r.json()["records"]


async def patch(http, zone, *changes, **extra):
    return await http.patch(f"{Z}/{zone}/records", json={"changes": list(changes), **extra})


def add(*recs):
    return {"add": {"records": list(recs)}}


def a(name, ip, **extra):
    return {"name": name, "type": "A", "data": ip, "ttl": 3600, **extra}


async def versions(http, zone):
    return (await http.get(f"{Z}/{zone}/versions", params={"page_size": 1000})).json()
