"""DNS staged changes sent as one PATCH, and the look when its answer is lost (issue 32 items 4, 5):
against the sandbox in process, no Textual."""

from __future__ import annotations

import httpx
import pytest

from tui.api.client import ApiClient, RetryPolicy
from tui.products.kit.base import Context
from tui.products.kit.changeset import ChangeSet
from tui.products.kit.outcome import NotApplied, OutcomeUnclear
from tui.products.dns.kinds import RECORDS
from tui.products.dns.sending import send_changes
from tui.products.kit.location import ParentRef
from tui.products.kit.service import ResourceService
from tui.sandbox import DEMO_PROJECT_ID, DEMO_SECRET_KEY, ManualClock, Sandbox
from tui.sandbox.core import FaultRule
from tui.sandbox.faults import FaultSpec

pytestmark = pytest.mark.anyio
ZONE = "shop.example.com"


def _service(sandbox: Sandbox) -> ResourceService:
    async def no_sleep(_: float) -> None:
        return None

    client = ApiClient(
        "http://sb",
        DEMO_SECRET_KEY,
        transport=httpx.ASGITransport(sandbox.app),
        retry=RetryPolicy(deadline=60),
        sleep=no_sleep,
    )
    return ResourceService(
        client, RECORDS, ParentRef(ZONE, ZONE, "global"), context=lambda sc: Context(DEMO_PROJECT_ID, sc)
    )


class AnotherClientFirst(FaultRule):
    """Another client changes the zone (a new version) just before our PATCH, which the gateway then
    refuses: ours is not applied."""

    sandbox: Sandbox | None = None

    def matches(self, method: str, path: str) -> bool:
        hit = super().matches(method, path)
        if hit and self.sandbox is not None:
            zone = self.sandbox.dns.zones[ZONE]
            self.sandbox.dns.put_records(zone, [{"name": "other", "type": "TXT", "data": "another client"}])
        return hit


async def _staged_delete(service: ResourceService) -> tuple[ChangeSet, list]:
    rows = await service.list_rows("global")
    target = next(r for r in rows if r.data.get("type") == "A")
    changes = ChangeSet()
    changes.delete(target.id, target.data)
    return changes, rows


async def test_a_change_not_applied_while_another_client_changed_the_zone_is_not_said_applied():
    sandbox = Sandbox(clock=ManualClock())
    rule = AnotherClientFirst(502, "/records", "PATCH", times=1)
    rule.sandbox = sandbox
    sandbox.faults.append(rule)
    service = _service(sandbox)
    changes, rows = await _staged_delete(service)
    with pytest.raises(NotApplied) as said:
        await send_changes(service, "global", changes, rows)
    assert "another client" in str(said.value) and "not applied" in str(said.value)
    assert changes.changes[0].key in sandbox.dns.zones[ZONE]["_records"]  # (the record is still there)


async def test_a_change_applied_whose_answer_is_lost_is_found_in_the_new_version():
    sandbox = Sandbox(clock=ManualClock(), faults=FaultSpec(rates={"applied": 1.0}, seed=3, applied_as="500"))
    service = _service(sandbox)
    changes, rows = await _staged_delete(service)
    said = await send_changes(service, "global", changes, rows)
    assert said and "1 change sent: it was applied" in said


async def test_a_look_that_fails_says_it_cannot_tell_and_a_resend_looks_first():
    sandbox = Sandbox(clock=ManualClock(), faults=FaultSpec(rates={"applied": 1.0}, seed=3, applied_as="drop"))
    sandbox.inject(503, "/versions?page_size=10", method="GET")  # the look's read only
    service = _service(sandbox)
    changes, rows = await _staged_delete(service)
    with pytest.raises(OutcomeUnclear) as said:
        await send_changes(service, "global", changes, rows)
    assert "may have been applied" in str(said.value) and "failed too" in str(said.value)
    changes.mark_unknown()
    sandbox.fault_spec.rates.clear()
    again = await send_changes(service, "global", changes, await service.list_rows("global"))
    assert again and "found applied" in again
    assert len([m for m, p in sandbox.requests if m == "PATCH"]) == 1


async def test_a_refusal_names_the_staged_change_not_an_index():
    """Issue 32 item 19: the platform's `changes.2…` is said as the staged change sent third."""
    from tui.api.errors import InvalidArguments

    service = _service(Sandbox(clock=ManualClock()))
    changes = ChangeSet()
    for record in (
        {"name": "beside", "type": "A", "data": "192.0.2.1"},
        {"name": "elsewhere", "type": "A", "data": "192.0.2.2"},
        {"name": "beside", "type": "CNAME", "data": "target.example.com."},
    ):
        changes.add(record)
    with pytest.raises(InvalidArguments) as refused:
        await send_changes(service, "global", changes, await service.list_rows("global"))
    assert list(refused.value.field_messages()) == ["change 3 of 3 (add beside CNAME target.example.com.):"]


def test_the_review_names_the_zone_root_by_its_label_and_wraps_between_words():
    """Issue 32 item 27: an add of the zone's root reads `@ A …`, not `name=—`; a long review line
    wraps at a space, not mid-word."""
    from tui.ui.widgets.text_lines import _cut

    changes = ChangeSet()
    changes.add({"name": "", "type": "A", "data": "192.0.2.1", "ttl": 3600, "comment": None})
    [line] = changes.diff(RECORDS.writing.staged.label)
    assert line.startswith("+ add     @ A 192.0.2.1") and "name=" not in line and "—" not in line
    first, rest = _cut("~ change  www A 192.0.2.1  (? sent before, outcome unknown)", 30)
    assert first == "~ change  www A 192.0.2.1  (?" and rest == "sent before, outcome unknown)"


class SecondPatchLost(FaultRule):
    """The answer to the second PATCH is lost (502), and it was not applied."""

    seen: list[int] = []

    def matches(self, method: str, path: str) -> bool:
        if not super().matches(method, path):
            return False
        self.seen.append(1)
        return len(self.seen) == 2


async def test_many_changes_go_a_request_at_a_time_and_one_lost_partway_leaves_only_its_own_unknown(monkeypatch):
    """Issue (zone-file import) item 4: changes beyond what one request carries (`CHUNK`, 2 here) go in
    several, in order; the second's answer lost and no look able to tell, the first's are applied, the
    second's may be (unknown), the third's were not sent."""
    from tui.products.dns import sending
    from tui.products.kit.outcome import PartlySent

    monkeypatch.setattr(sending, "CHUNK", 2, raising=False)
    sandbox = Sandbox(clock=ManualClock())
    sandbox.faults.append(SecondPatchLost(502, "/records", "PATCH"))
    sandbox.inject(503, "/versions?page_size=10", method="GET")  # the look's read only
    service = _service(sandbox)
    changes = ChangeSet()
    keys = [changes.add({"name": f"n{n}", "type": "A", "data": "192.0.2.9", "ttl": 3600}) for n in range(5)]
    with pytest.raises(PartlySent) as stopped:
        await send_changes(service, "global", changes, await service.list_rows("global"))
    assert stopped.value.applied == keys[:2] and stopped.value.unknown == keys[2:4]
    assert "2 changes of 5 were applied" in str(stopped.value) and "cannot be told" in str(stopped.value)
    assert len([m for m, p in sandbox.requests if m == "PATCH"]) == 2
    assert {r["name"] for r in sandbox.dns.zones[ZONE]["_records"].values()} >= {"n0", "n1"}


async def test_name_servers_sent_off_the_defaults_say_what_is_sent_where_the_cost_is_asked():
    """Walk 23 F20: `Send these name servers?` said what leaving the defaults costs, not which were removed."""
    from scripted_ui import ScriptedUI, confirm, records
    from tui.products.dns.kinds import ZONES
    from tui.sandbox import ManualClock, Sandbox

    sandbox = Sandbox(clock=ManualClock())
    from tui.products.kit.flows import StepCancelled

    ui = ScriptedUI(sandbox, ZONES, "global")
    with pytest.raises(StepCancelled, match="Not confirmed: nothing was sent"):  # (said plainly in the editor)
        await ui.act("example.com", "Name servers…", records(lambda rs: rs[:1]), confirm(False))
    kind, title, message = ui.asked[-1]
    assert kind == "confirm" and "1 removed, 0 added" in message and "no longer use the default" in message
    assert "Removed:\n  ns1." in message and "[]" not in message  # (an empty glue list says nothing)
    await ui.aclose()
