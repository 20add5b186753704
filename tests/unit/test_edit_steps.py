"""An edit sent as several requests (`products/kit/edit_steps.py`), on a load balancer's backend: an
unchanged form sends nothing, and a failure after a success says what was applied and what not."""

from __future__ import annotations

import pytest

from tui.api.errors import ApiError, InvalidArguments, OutcomeUnknown
from tui.products.kit.base import Row
from tui.products.kit.edit_steps import PartlyApplied, send_steps
from tui.products.lb.backend_forms import EDIT

pytestmark = pytest.mark.anyio

BACKEND = Row(
    {
        "id": "b1",
        "name": "site",
        "forward_protocol": "http",
        "forward_port": 80,
        "forward_port_algorithm": "roundrobin",
        "sticky_sessions": "none",
        "pool": ["10.0.0.1"],
        "send_proxy_v2": False,
        "timeout_server": 300_000,
        "timeout_connect": 5000,
        "health_check": {
            "port": 80,
            "check_delay": "3s",
            "check_timeout": 1000,
            "check_max_retries": 3,
            "http_config": {"uri": "/health", "method": "GET", "code": 200, "host_header": ""},
        },
    }
)


class Service:
    """Records what is sent; `fail` names the call path that answers an error."""

    act = None  # (not bound to a journal's act)

    def __init__(self, fail: str = "") -> None:
        self.sent: list[tuple[str, str, dict]] = []
        self.fail = fail

    async def run(self, call, scope, row, body):
        if call.path == self.fail:
            raise InvalidArguments(400, "invalid argument(s)", "invalid_arguments", {}, call.method, call.path)
        self.sent.append((call.method, call.path, body))
        return {}

    async def get_row(self, scope, rid):
        return BACKEND


def edited(**changes):
    values = EDIT.from_resource(BACKEND)
    values.update(changes)
    return EDIT.form_model.model_validate(values)


async def test_an_edit_that_changes_nothing_sends_nothing():
    """(What one changed part sends is the Pilot flow's: tests/ui/test_ui_lb.py.)"""
    service = Service()
    _, said = await send_steps(service, "fr-par", BACKEND, EDIT, edited())
    assert service.sent == [] and said == "site: nothing changed; nothing was sent"  # "3s" read as the 3000 ms it is


async def test_a_failure_after_a_success_says_what_was_applied_and_what_was_not():
    service = Service(fail="{id}/servers")
    check = {**EDIT.from_resource(BACKEND)["health_check"], "check": {"kind": "tcp"}}
    with pytest.raises(PartlyApplied) as caught:
        await send_steps(
            service, "fr-par", BACKEND, EDIT, edited(name="shop", server_ip=["10.0.0.2"], health_check=check)
        )
    assert [p for _, p, _ in service.sent] == ["{id}"]
    assert (
        caught.value.summary
        == "servers not saved (400 invalid argument(s)). Applied already: settings. Not sent: health check"
    )

    first = Service(fail="{id}")  # nothing applied: the error as it came
    with pytest.raises(ApiError) as caught:
        await send_steps(first, "fr-par", BACKEND, EDIT, edited(name="shop"))
    assert not isinstance(caught.value, PartlyApplied) and first.sent == []


class LosingService(Service):
    """The answer to `lose` is lost (OutcomeUnknown); `applied` says whether the platform took it: the
    backend read back then holds what was sent, or still the old value."""

    def __init__(self, lose: str, applied: bool) -> None:
        super().__init__()
        self.lose, self.applied, self.now = lose, applied, BACKEND

    async def run(self, call, scope, row, body):
        if call.path == self.lose:
            if self.applied:
                self.now = Row({**BACKEND.data, "pool": body["server_ip"]})
            raise OutcomeUnknown(502, "bad gateway", method=call.method, url=call.path)
        return await super().run(call, scope, row, body)

    async def get_row(self, scope, rid):
        return self.now


async def test_a_part_whose_answer_is_lost_is_read_back_and_said_applied_or_not():
    check = {**EDIT.from_resource(BACKEND)["health_check"], "check": {"kind": "tcp"}}
    form = edited(server_ip=["10.0.0.1", "10.0.0.9"], health_check=check)
    took = LosingService("{id}/servers", applied=True)
    _, said = await send_steps(took, "fr-par", BACKEND, EDIT, form)
    assert [p for _, p, _ in took.sent] == ["{id}/healthcheck"]  # applied after all: the next part is sent
    assert "Saved site: sent servers and health check" in said
    assert "servers: the answer was lost (502 bad gateway); looked again: it now holds what was sent" in said

    lost = LosingService("{id}/servers", applied=False)
    with pytest.raises(PartlyApplied) as caught:
        await send_steps(lost, "fr-par", BACKEND, EDIT, form)
    assert lost.sent == []  # not applied: nothing after it is sent
    assert caught.value.summary == (
        "servers: the answer was lost (502 bad gateway); looked again: it does not hold what was sent: "
        "it was not applied. Applied already: nothing. Not sent: health check"
    )
