"""A create whose answer is lost (the sandbox applies it, then answers 500) is looked for in a fresh
listing by what identifies it, for every kind — not only kinds with a name filter — and a create
that did not happen (a gateway timeout before the platform acted) is said not to have happened."""

from __future__ import annotations

import httpx
import pytest

from tui.api.client import ApiClient, RetryPolicy
from tui.products.kit import looks, outcome
from tui.products.kit.writes import Looked
from tui.products.kit.base import Context, ParentRef
from tui.products.baremetal.networks import PRIVATE_NETWORKS
from tui.products.baremetal.servers import SERVERS as BM_SERVERS
from tui.products.flexible_ip.fips import FIPS
from tui.products.rdb.children import ACLS, DATABASES, REPLICAS, SETTINGS, USERS
from tui.products.rdb.instances import INSTANCES
from tui.products.kit.service import ResourceService
from tui.products.silicon.servers import SERVERS as SILICON
from tui.sandbox import DEMO_PROJECT_ID, DEMO_SECRET_KEY, ManualClock, Sandbox
from tui.sandbox.faults import FaultSpec

pytestmark = pytest.mark.anyio

PN = "5a0c8a4e-1f0e-4d5b-9a43-8f8f0f0f0f01"


def _client(sandbox: Sandbox) -> ApiClient:
    async def no_sleep(_: float) -> None:
        return None

    return ApiClient(
        "http://sb",
        DEMO_SECRET_KEY,
        transport=httpx.ASGITransport(sandbox.app),
        retry=RetryPolicy(deadline=60),
        sleep=no_sleep,
    )


def _service(client: ApiClient, kind, parent=None) -> ResourceService:
    return ResourceService(client, kind, parent, context=lambda sc: Context(DEMO_PROJECT_ID, sc))


async def _parent(client: ApiClient, kind, scope: str, ok) -> ParentRef:
    rows = await _service(client, kind).list_rows(scope)
    row = next(r for r in rows if ok(r))
    return ParentRef(row.id, row.name, scope)


def _ready(r) -> bool:
    return r.state == "ready" and r.get("engine", "").startswith("PostgreSQL")


# (kind, scope, parent kind and test, payload): one create of each kind that has no name filter
CASES = {
    "database": (DATABASES, "fr-par", (INSTANCES, _ready), {"name": "lost_db"}),
    "user": (
        USERS,
        "fr-par",
        (INSTANCES, _ready),
        {"name": "lost_user", "password": "Very-long-pass-42!", "is_admin": False},
    ),
    "acl rule": (ACLS, "fr-par", (INSTANCES, _ready), {"rules": [{"ip": "198.51.100.0/24", "description": "lost"}]}),
    "setting": (SETTINGS, "fr-par", (INSTANCES, _ready), {"settings": [{"name": "work_mem", "value": "8"}]}),
    "read replica": (REPLICAS, "fr-par", (INSTANCES, _ready), None),
    "flexible ip": (
        FIPS,
        "fr-par-2",
        None,
        {"project_id": DEMO_PROJECT_ID, "description": "lost answer", "tags": [], "is_ipv6": False},
    ),
    "private network": (
        PRIVATE_NETWORKS,
        "fr-par-1",
        (BM_SERVERS, lambda r: r.state == "ready"),
        {"private_network_id": PN},
    ),
    "silicon server": (SILICON, "fr-par-3", None, {"name": "lost-mac", "type": "M2-M", "project_id": DEMO_PROJECT_ID}),
}


async def _setup(sandbox: Sandbox, case: str):
    kind, scope, parent_of, payload = CASES[case]
    client = _client(sandbox)
    parent = await _parent(client, parent_of[0], scope, parent_of[1]) if parent_of else None
    if payload is None:  # a read replica of the instance
        payload = {"instance_id": parent.id, "endpoint_spec": [{"direct_access": {}}], "same_zone": True}
    svc = _service(client, kind, parent)
    known = [r.id for r in await svc.list_rows(scope)]
    return client, svc, scope, payload, known


@pytest.mark.parametrize("case", list(CASES))
async def test_a_lost_create_is_found_by_what_identifies_it(case):
    sandbox = Sandbox(clock=ManualClock(), faults=FaultSpec(rates={"applied": 1.0}, seed=3, applied_as="500"))
    client, svc, scope, payload, known = await _setup(sandbox, case)
    row, looked = await outcome.create(svc, scope, payload, known)
    assert looked is not None and "may have been applied" in looked and "created after all" in looked
    assert row.id not in known and row.id in {r.id for r in await svc.list_rows(scope)}
    await client.aclose()


@pytest.mark.parametrize("case", list(CASES))
async def test_a_create_that_did_not_happen_is_said_not_to(case):
    sandbox = Sandbox(clock=ManualClock())
    client, svc, scope, payload, known = await _setup(sandbox, case)
    sandbox.inject(504, "", method="POST", times=1)  # the gateway answered; the platform never acted
    with pytest.raises(Looked) as lost:
        await outcome.create(svc, scope, payload, known)
    assert "it was not created, and may be created again" in lost.value.message
    await client.aclose()


async def test_a_create_not_found_as_sent_while_something_new_appeared_cannot_be_told():
    """Something new but not as sent (made meanwhile by someone else, or a listing whose answer differs)
    is not "it was not created": creating again on that word could make a second one."""
    sandbox = Sandbox(clock=ManualClock())
    client, svc, scope, payload, known = await _setup(sandbox, "database")
    sandbox.inject(504, "", method="POST", times=1)  # it was not made: yet the look cannot know that
    with pytest.raises(Looked) as lost:
        await outcome.create(svc, scope, payload, known[1:])  # one already there is seen as new
    said = lost.value.message
    assert "cannot tell whether it was created" in said and "may be created again" not in said
    await client.aclose()


async def test_only_what_nothing_identifies_cannot_be_told():
    assert looks.identity(FIPS, {"tags": []}) == {}
    assert looks.identity(ACLS, {"rules": [{"ip": "10.0.0.0/8"}]}) == {"ip": "10.0.0.0/8"}
    assert looks.identity(PRIVATE_NETWORKS, {"private_network_id": PN}) == {"private_network_id": PN}
    assert looks.identity(SILICON, {"name": "m", "type": "M2-M"}) == {"name": "m"}


async def test_an_action_that_declares_the_states_it_moves_to_is_told_applied_or_not():
    from tui.api.errors import OutcomeUnknown
    from tui.products.inference.kinds import MODELS

    pause = next(a for a in MODELS.actions if a.name == "pause")
    for faults, applied, words in (
        (FaultSpec(rates={"applied": 1.0}, seed=3, applied_as="500"), True, "it was applied"),
        (None, False, "it was not applied, and may be asked again"),
    ):
        sandbox = Sandbox(clock=ManualClock(), faults=faults)
        client = _client(sandbox)
        svc = _service(client, MODELS)
        ready = next(r for r in await svc.list_rows("global") if r.state == "ready")
        if faults is None:
            sandbox.inject(504, "/pause", method="POST", times=1)  # the gateway answered; the platform never acted
        with pytest.raises(OutcomeUnknown):
            await svc.run(pause.call, "global", ready)
        found = await looks.after_action(svc, "global", ready.id, ready.state, pause.moves_to)
        assert found.applied is applied and words in found.says
        await client.aclose()


async def test_an_activation_lost_before_the_platform_acted_is_said_not_applied():
    from tui.api.errors import OutcomeUnknown
    from tui.products.kit.base import Row
    from tui.products.monitoring.kinds import COCKPIT

    activate = COCKPIT.singleton.absent_actions[0]
    sandbox = Sandbox(clock=ManualClock())
    client = _client(sandbox)
    svc = _service(client, COCKPIT)
    nothing = Row({})  # the absent page's row
    sandbox.inject(504, "/activate", method="POST", times=1)  # the gateway answered; the platform never acted
    with pytest.raises(OutcomeUnknown):
        await svc.run(activate.call, "global", nothing)
    found = await looks.after_action(svc, "global", nothing.id, nothing.state, activate.moves_to, activate.if_lost)
    assert found.applied is False and "it was not applied" in found.says  # not "it is gone"
    await client.aclose()


def test_a_look_says_what_changed_when_the_state_says_nothing():
    """Walk: an OS install whose answer was lost was said "still ready, which does not tell" while
    its install had begun: what changed since it was sent is said (one level into objects, times and
    the console's own fields left out, at most three)."""
    was = {"status": "ready", "install": {"status": "completed", "os": "a"}, "updated_at": "1", "_moving": False}
    now = {"status": "ready", "install": {"status": "to_install", "os": "b"}, "updated_at": "2", "_moving": True}
    assert looks.changes(was, now) == "install.os: a → b; install.status: completed → to_install"
    assert looks.changes(was, was) == ""
    many = looks.changes({k: 0 for k in "abcde"}, {k: 1 for k in "abcde"})
    assert many == "a: 0 → 1; b: 0 → 1; c: 0 → 1 (and 2 more)"
    assert looks.changes({"x": "x" * 100}, {"x": None}) == f"x: {'x' * 39}… → none"


async def test_an_edit_whose_answer_is_lost_is_read_back_and_told_applied_or_not():
    for faults, applied in ((FaultSpec(rates={"applied": 1.0}, seed=3, applied_as="500"), True), (None, False)):
        sandbox = Sandbox(clock=ManualClock(), faults=faults)
        client = _client(sandbox)
        svc = _service(client, FIPS)
        fip = (await svc.list_rows("fr-par-2"))[0]
        if not applied:
            sandbox.inject(504, f"/{fip.id}", method="PATCH", times=1)  # the platform never acted
        if applied:
            row, told = await outcome.update(svc, "fr-par-2", fip, {"description": "told once"})
            assert row.get("description") == "told once"
            assert told and "Looked again: it now holds what was sent: the change was applied" in told
        else:
            with pytest.raises(Looked) as said:
                await outcome.update(svc, "fr-par-2", fip, {"description": "told once"})
            assert "it was not changed (description still as before)" in said.value.message
        await client.aclose()


async def test_a_whole_set_whose_answer_is_lost_is_read_again_and_compared_with_what_was_sent():
    from tui.api.errors import NotFound
    from tui.products.kit.base import Call

    sandbox = Sandbox(clock=ManualClock())
    client = _client(sandbox)
    svc = _service(client, INSTANCES)
    instance = next(r for r in await svc.list_rows("fr-par") if _ready(r))
    sent = {"rules": [{"ip": "198.51.100.0/24", "description": "office"}]}
    put = Call("PUT", "{id}/acls")

    async def read():
        return await svc.run(Call("GET", "{id}/acls"), "fr-par", instance)

    async def failing():
        raise NotFound(404, "gone", method="GET", url="/acls")

    def holds(now):
        return [(r["ip"], r["description"]) for r in now["rules"]] == [("198.51.100.0/24", "office")]

    sandbox.inject(504, "/acls", method="PUT", times=1)  # not applied: the set is still the old one
    with pytest.raises(Looked) as said:
        await outcome.send_whole(svc, put, "fr-par", instance, sent, read, holds)
    assert "the set is not what was sent: it was not applied" in said.value.message
    sandbox.inject(504, "/acls", method="PUT", times=1)
    with pytest.raises(Looked) as said:
        await outcome.send_whole(svc, put, "fr-par", instance, sent, failing, holds)
    assert "reading the set again failed too" in said.value.message
    answer, told = await outcome.send_whole(svc, put, "fr-par", instance, sent, read, holds)
    assert told is None and holds(answer)  # answered: nothing to look for
    await client.aclose()


def test_a_batchs_own_look_is_said_applied_not_applied_or_unclear():
    from tui.api.errors import OutcomeUnknown

    err = OutcomeUnknown(500, "boom", method="PATCH", url="/records")
    assert "Looked: 2 records there" in outcome.judged(err, looks.Found(None, "2 records there", True))
    with pytest.raises(outcome.NotApplied):
        outcome.judged(err, looks.Found(None, "none there", False))
    with pytest.raises(outcome.OutcomeUnclear):
        outcome.judged(err, looks.Found(None, "cannot tell", None))


async def test_a_delete_whose_answer_is_lost_says_under_way_or_not_applied_never_just_still_there():
    from tui.api.errors import OutcomeUnknown
    from tui.products.rdb.backups import BACKUPS

    for faults, says in (
        (FaultSpec(rates={"applied": 1.0}, seed=3, applied_as="500"), "now: the delete may be under way"),
        (None, "the delete was not applied"),
    ):
        sandbox = Sandbox(clock=ManualClock(), faults=faults)
        client = _client(sandbox)
        svc = _service(client, BACKUPS)
        backup = next(r for r in await svc.list_rows("fr-par") if r.state == "ready")
        if faults is None:
            sandbox.inject(504, f"/{backup.id}", method="DELETE", times=1)  # the platform never acted
        with pytest.raises(OutcomeUnknown):
            await svc.delete("fr-par", backup)
        found = await looks.after_delete(svc, "fr-par", backup.id)
        assert says in found.says and found.applied is not True
        await client.aclose()


async def test_a_reboot_whose_answer_was_lost_is_not_said_undone_by_a_server_still_running():
    """Walk 22: a reboot ends running, as it began: a look seeing `running` cannot say it did not happen
    (it said "not applied, and may be asked again", inviting a second reboot of a production server). Seen
    rebooting (stopping, starting), it was applied (walk 23: it said it could not tell, and named API fields)."""
    from tui.api.errors import OutcomeUnknown
    from tui.products.instance.servers import SERVERS

    reboot = next(a for a in SERVERS.actions if a.name == "reboot")
    sandbox = Sandbox(clock=ManualClock(), faults=FaultSpec(rates={"applied": 1.0}, seed=3, applied_as="500"))
    client = _client(sandbox)
    svc = _service(client, SERVERS)
    web = next(r for r in await svc.list_rows("fr-par-1") if r.state == "running")
    with pytest.raises(OutcomeUnknown) as lost:
        await svc.run(reboot.call, "fr-par-1", web)
    found = await looks.after_lost(lost.value, svc, "fr-par-1", [web], reboot.moves_to, reboot.if_lost)
    assert found.applied is True and "it was applied" in found.says and "allowed_actions" not in found.says
    sandbox.clock.advance(120)  # rebooted, and running again by the time it is looked at
    found = await looks.after_lost(lost.value, svc, "fr-par-1", [web], reboot.moves_to, reboot.if_lost)
    assert found.applied is None and "a reboot ends where it began" in found.says
    await client.aclose()
