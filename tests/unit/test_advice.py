"""The advisor's rules (issue 52, item 2), each on the sandbox's demo data read as the index reads it (every
product's lists, every zone, a zone's records under it), and the one evaluator: a rule finds exactly the
resources it names, a rule whose kind was not read is said as not run, one missing another kind says so."""

from __future__ import annotations

import asyncio
import copy
import time

import httpx
import pytest

from tui.api.client import ApiClient
from tui.products import manifest
from tui.products.kit.advice import advise
from tui.products.kit.base import ALL, Context, ParentRef
from tui.products.kit.related import Held
from tui.products.kit.service import ResourceService
from tui.sandbox import DEMO_PROJECT_ID, DEMO_SECRET_KEY, ManualClock, Sandbox

# read under each parent
CHILDREN = ("dns.records", "dns.certificates", "lb.backends", "instance.security_group_rules", "rdb.acls")


def read_all(sandbox: Sandbox) -> list[Held]:
    async def run() -> list[Held]:
        client = ApiClient("http://sb", DEMO_SECRET_KEY, transport=httpx.ASGITransport(sandbox.app))
        held: list[Held] = []
        for entry in (e for e in manifest.entries() if e.opens == "list"):
            kind = entry.load()
            scope = "global" if kind.scope_type == "global" else ALL
            service = ResourceService(client, kind, None, context=lambda sc: Context(DEMO_PROJECT_ID, sc))
            rows = [r async for chunk in service.iter_list(scope, concurrency=2) for r in chunk.items]
            held.append(Held(kind, scope, None, rows))
            for child in (c.get() for c in kind.children if c.get().id in CHILDREN):
                for row in rows:
                    parent = ParentRef.of(row, kind.scope_of(row) or scope)
                    under = ResourceService(client, child, parent, context=lambda sc: Context(DEMO_PROJECT_ID, sc))
                    held.append(Held(child, parent.scope, parent, await under.list_rows(parent.scope)))
        await client.aclose()
        return held

    return asyncio.run(run())


@pytest.fixture(scope="module")
def demo():
    sandbox = Sandbox(clock=ManualClock())
    return sandbox, read_all(sandbox)


def found_by(rule_id, held, now=time.time, read=None):
    rule = next(r for r in manifest.advice() if r.id == rule_id)
    findings, not_run = advise([rule], held, read, now)
    return findings, not_run


def test_an_ip_or_a_volume_attached_to_nothing_and_a_server_stopped_in_place(demo):
    sandbox, held = demo
    store = sandbox.instance
    ips = {ip["address"] for zone in store.ips.values() for ip in zone.values() if not ip.get("server")}
    volumes = {v["name"] for zone in store.volumes.values() for v in zone.values() if not v.get("server")}
    in_place = {s["name"] for zone in store.servers.values() for s in zone.values() if s["state"] == "stopped in place"}
    assert ips and volumes and in_place  # the demo holds one of each
    assert {f.name for f in found_by("instance.ip-unattached", held)[0]} == ips
    assert {f.name for f in found_by("instance.volume-unattached", held)[0]} == volumes
    stopped = found_by("instance.server-stopped-in-place", held)[0]
    assert {f.name for f in stopped} == in_place and {f.fix for f in stopped} == {"poweroff"}


def test_a_bare_metal_flexible_ip_attached_to_nothing(demo):
    sandbox, held = demo
    free = {f["ip_address"] for zone in sandbox.fip.fips.values() for f in zone.values() if not f.get("server_id")}
    assert free and {f.name for f in found_by("flexible_ip.unattached", held)[0]} == free


def test_a_record_pointing_at_an_address_nothing_read_holds_and_none_at_one_held(demo):
    _, held = demo
    findings, _ = found_by("dns.record-unheld-address", held)
    addresses = {f.why.split()[2].rstrip(",") for f in findings}
    assert "203.0.113.10" in addresses  # the demo's example.com apex: hosted nowhere read
    servers = {a for h in held if h.kind.id == "instance.servers" for r in h.rows for a in [r.text("public_address")]}
    assert not addresses & servers, "a record naming a server's address is held"
    assert not any(a.startswith("10.") for a in addresses), "a private network's address is no one else's"
    assert all(f.severity == "review" and f.parent is not None for f in findings)  # said under its zone
    # the addresses of every list read count: without them, a record pointing at a server is found too
    records_only = [h for h in held if h.kind.id == "dns.records"]
    assert len(found_by("dns.record-unheld-address", records_only)[0]) > len(findings)


def test_a_domain_expiring_within_30_days(demo):
    sandbox, held = demo
    findings, _ = found_by("dns.domain-expiring", held, now=sandbox.clock.now)
    assert [f.name for f in findings] == ["example.org"] and findings[0].severity == "error"
    assert "expires in" in findings[0].why


def test_a_rule_whose_list_was_not_read_is_said_not_run(demo):
    _, held = demo
    findings, not_run = found_by("dns.record-unheld-address", [h for h in held if h.kind.id != "dns.records"])
    assert findings == [] and not_run == ["A record pointing at an address nothing here holds (dns.records not read)"]


def test_a_public_registry_namespace(demo):
    sandbox, held = demo
    public = {n["name"] for zone in sandbox.registry.namespaces.items.values() for n in zone.values() if n["is_public"]}
    findings, _ = found_by("registry.namespace-public", held)
    assert public and {f.name for f in findings} == public and {f.fix for f in findings} == {"edit"}


def test_a_backend_sending_to_an_address_nothing_holds_or_to_a_stopped_server(demo):
    _, held = demo
    unheld, _ = found_by("lb.backend-unheld-address", held)
    assert [(f.name, f.parent.name) for f in unheld] == [("api-servers", "web-lb")]  # 2001:db8::21: no one's
    assert found_by("lb.backend-stopped-server", held)[0] == []  # web-01 and web-02 run
    servers = next(h for h in held if h.kind.id == "instance.servers")
    stopped = [copy.copy(r) for r in servers.rows]
    for row in stopped:
        row.state = "stopped" if row.name == "web-01" else row.state
    now_held = [Held(h.kind, h.scope, h.parent, stopped) if h is servers else h for h in held]
    findings, _ = found_by("lb.backend-stopped-server", now_held)
    assert [f.name for f in findings] == ["web-servers"] and "web-01" in findings[0].why



def test_ssh_or_a_database_port_open_to_every_address(demo):
    sandbox, held = demo
    findings, _ = found_by("instance.rule-open-to-world", held)
    # (web-public lets HTTP and HTTPS in from anywhere, not admin ports, and SSH from the office alone)
    assert [(f.name, f.scope) for f in findings] == [("inbound accept TCP 22 from 0.0.0.0/0", "nl-ams-1")]
    assert findings[0].why.startswith("SSH (22) accepted") and findings[0].severity == "error"
    clusters = [c for zone in sandbox.kvcache.clusters.values() for c in zone.values()]
    caches = {c["name"] for c in clusters if any(a.get("ip_cidr") == "0.0.0.0/0" for a in c.get("acl_rules") or [])}
    assert {f.name for f in found_by("kvcache.acl-open-to-world", held)[0]} == caches
    assert found_by("rdb.acl-open-to-world", held)[0] == []  # the demo's databases let offices in, not everyone



def test_a_database_whose_disk_is_full_whose_backups_are_off_or_a_backup_past_its_expiry(demo):
    sandbox, held = demo
    instances = [i for zone in sandbox.rdb.instances.values() for i in zone.values()]
    full = {i["name"] for i in instances if i["status"] == "disk_full"}
    assert full and {f.name for f in found_by("rdb.disk-full", held)[0]} == full
    part = next(h for h in held if h.kind.id == "rdb.instances")
    off = part.kind.make_row({**instances[0], "backup_schedule": {"disabled": True, "frequency": 24}})
    findings, _ = found_by("rdb.backups-off", [Held(part.kind, part.scope, None, [off])])
    assert [f.name for f in findings] == [instances[0]["name"]]
    backups = next(h for h in held if h.kind.id == "rdb.backups")
    past = backups.kind.make_row({"id": "b1", "name": "old", "status": "ready", "expires_at": "2020-01-01T00:00:00Z"})
    findings, _ = found_by("rdb.backup-expired", [Held(backups.kind, backups.scope, None, [past])])
    assert [f.name for f in findings] == ["old"] and findings[0].why.startswith("expired")


def test_text_sent_where_an_address_belongs_is_no_address_to_take_over(demo):
    _, held = demo
    records = next(h for h in held if h.kind.id == "dns.records")
    odd = records.kind.make_row({"id": "x1", "name": "odd", "type": "A", "data": "\x00\x9b31m", "ttl": 60})
    part = Held(records.kind, records.scope, records.parent, [odd])
    assert found_by("dns.record-unheld-address", [part])[0] == []


def test_a_certificate_expiring_within_30_days_read_under_its_zone(demo):
    sandbox, held = demo
    findings, not_run = found_by("dns.certificate-expiring", held, now=sandbox.clock.now)
    assert not_run == [] and [f.name for f in findings] == ["mail.example.org"]  # issued 75 days ago, for 90
    assert findings[0].parent is not None and findings[0].why.startswith("expires in 15 d 0 h (")


def _past_or_near(now: float, versions: dict[str, str], days: int = 90) -> set[str]:
    from datetime import datetime

    return {v for v, end in versions.items() if datetime.fromisoformat(end).timestamp() - now <= days * 86400}


def test_an_engine_or_a_cache_version_past_or_near_its_end_of_life(demo):
    from tui.sandbox.kvcache.store import VERSIONS as CACHE_VERSIONS
    from tui.sandbox.rdb.catalog import VERSIONS as ENGINE_VERSIONS

    sandbox, held = demo
    now = sandbox.clock.now()
    ending = _past_or_near(now, {f"{e}-{v}": eol for e, v, _, _, eol in ENGINE_VERSIONS})
    instances = [i for zone in sandbox.rdb.instances.values() for i in zone.values()]
    expected = {i["name"] for i in instances if i["engine"] in ending}
    findings, _ = found_by("rdb.engine-end-of-life", held, now=sandbox.clock.now)
    assert expected and {f.name for f in findings} == expected
    assert len(expected) < len(instances)  # PostgreSQL-15 is years from its end
    ending = _past_or_near(now, {v: eol for v, _, eol, *_ in CACHE_VERSIONS})
    clusters = [c for zone in sandbox.kvcache.clusters.values() for c in zone.values()]
    expected = {c["name"] for c in clusters if c["version"] in ending}
    findings, _ = found_by("kvcache.version-end-of-life", held, now=sandbox.clock.now)
    assert expected and {f.name for f in findings} == expected and "end of life" in findings[0].why
    # without the catalogue there is nothing to go by: said as a partial read, nothing found
    no_catalogue = [h for h in held if h.kind.id != "kvcache.versions"]
    findings, not_run = found_by("kvcache.version-end-of-life", no_catalogue, now=sandbox.clock.now)
    assert findings == [] and not_run == []


def test_a_backup_older_than_the_age_set_or_its_default(demo):
    sandbox, held = demo
    rule = next(r for r in manifest.advice() if r.id == "rdb.backup-old")
    now = sandbox.clock.now()
    backups = [b for region in sandbox.rdb.backups.values() for b in region.values()]
    from datetime import datetime

    def older(days: int) -> set[str]:  # (one locked by the platform is a hold, kept on purpose: not a finding)
        return {
            b["name"]
            for b in backups
            if now - datetime.fromisoformat(b["created_at"]).timestamp() > days * 86400 and b["status"] != "locked"
        }

    assert older(60) == {"orders-q3-close"} and older(2) > older(60)  # (its locked legal hold is older still)
    assert {f.name for f in advise([rule], held, None, sandbox.clock.now)[0]} == older(60)
    findings, _ = advise([rule], held, None, sandbox.clock.now, {"backup_days": 2})
    assert {f.name for f in findings} == older(2) and {f.fix for f in findings} == {"delete"}
    assert "older than the 2 days set" in findings[0].why


def test_a_fix_the_resource_refuses_as_read_is_said_with_why(demo):
    _, held = demo
    backups = next(h for h in held if h.kind.id == "rdb.backups")
    past = {"id": "b1", "name": "hold", "status": "locked", "expires_at": "2020-01-01T00:00:00Z"}
    found = found_by("rdb.backup-expired", [Held(backups.kind, backups.scope, None, [backups.kind.make_row(past)])])
    assert [f.refused for f in found[0]] == [
        "it is locked by the platform: nothing deletes it until it is unlocked (ask support)"
    ]
    ready = backups.kind.make_row({**past, "status": "ready"})
    assert found_by("rdb.backup-expired", [Held(backups.kind, backups.scope, None, [ready])])[0][0].refused == ""


def test_a_load_balancer_not_highly_available(demo):
    sandbox, held = demo
    lbs = [lb for region in sandbox.lb.lbs.items.values() for lb in region.values()]
    down = {
        lb["name"]
        for lb in lbs
        if lb["status"] == "ready" and not all(i.get("status") == "ready" for i in lb.get("instances") or [])
    }
    findings, _ = found_by("lb.not-highly-available", held)
    assert down and {f.name for f in findings} == down and "not highly available" in findings[0].why


def test_the_ages_set_in_the_config_a_profiles_over_every_ones_and_wrong_ones_said(tmp_path):
    from tui.config import ConfigFile, resolve

    path = tmp_path / "config.toml"
    path.write_text(
        '[advisor]\nbackup_days = 30\nsnapshot_days = "a month"\n'
        "[profiles.prod]\n[profiles.prod.advisor]\nbackup_days = 7\nmuted = []\n"
        "[profiles.other]\n[profiles.other.advisor]\nbackup_days = 0\n"
        "[profiles.third]\n[profiles.third.advisor]\nbackup_days = true\n"
    )
    cfg = ConfigFile.load(path)
    assert resolve({"profile": "prod"}, env={}, cfg=cfg).advisor_days == {"backup_days": 7}
    assert resolve({"profile": "other"}, env={}, cfg=cfg).advisor_days == {"backup_days": 30}
    said = resolve({"profile": "other"}, env={}, cfg=cfg).advisor_problems
    assert len(said) == 3 and "snapshot_days = 'a month' left out" in said[0] and "profiles.other.advisor" in said[1]
    assert said[2].startswith("[profiles.third.advisor] backup_days = true left out")  # as written: not True


def test_a_rule_that_fails_on_what_was_read_is_said_not_run_and_the_others_run(demo):
    from tui.products.kit.advice import Tested

    def surprised(row):
        raise TypeError("an odd value")

    _, held = demo
    odd = Tested("x.odd", "An odd rule", "Soon broken", "warning", "lb.lbs", test=surprised)
    expiring = next(r for r in manifest.advice() if r.id == "dns.domain-expiring")
    findings, not_run = advise([odd, expiring], held)
    assert not_run == ["An odd rule (failed on what was read: TypeError, logged)"]
    assert findings and {f.rule for f in findings} == {"dns.domain-expiring"}
