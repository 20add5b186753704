"""An edit the API takes as several requests, one per part of the resource (a load balancer's
backend: its settings, its server pool and its health check each have a route of their own).

    EditSpec(BackendForm, values, method="PUT", steps=(
        EditStep("settings", Call("PUT", "{id}"), settings_body),
        EditStep("servers", Call("PUT", "{id}/servers"), servers_body),
    ))

A step is sent only when what it would send differs from what the form opened with, in the order
declared, so an operator who changed one part sends one request. What was sent is said. When a
step fails after an earlier one succeeded, the error says exactly which parts were applied, which
failed and which were not sent: the operator is never left guessing what the platform now holds.
No Textual and no pydantic here: the console's edit form calls `send_steps`.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Callable

from ...api.errors import ApiError
from ...records import record
from .location import Call
from .looks import read_back
from .writes import attempt

if TYPE_CHECKING:
    from pydantic import BaseModel

    from .base import EditSpec, Row
    from .service import ResourceService


@record(frozen=True, eq=False)
class EditStep:
    what: str  # the part, as the operator reads it: "settings", "servers", "health check"
    call: Call  # where it goes: "PUT {id}/servers"
    body: Callable[[Any], dict[str, Any]]  # what it sends, from a validated form


class PartlyApplied(ApiError):
    """A step failed after others were applied: the message names each part's fate. Raised into
    the edit form, which stays open with what was typed."""

    def __init__(self, err: ApiError, failed: str, applied: list[str], not_sent: list[str], looked: str = "") -> None:
        if looked:  # its answer was lost, and a look found it not applied (or cannot tell)
            said = f"{failed}: the answer was lost ({err.summary}); looked again: {looked}"
        else:
            said = f"{failed} not saved ({err.summary})"
        said += f". Applied already: {_words(applied)}"
        said += f". Not sent: {_words(not_sent)}" if not_sent else ""
        super().__init__(err.status, said, err.type, err.body, err.method, err.url)
        self.applied, self.failed, self.not_sent = applied, failed, not_sent

    @property
    def summary(self) -> str:
        return self.message

    @property
    def hint(self) -> str:
        return (
            "What was applied stays applied. Saving again sends every changed part again (each replaces "
            "what is there, so that is safe); esc leaves it as it is now."
        )


def _words(parts: list[str]) -> str:
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else (parts[0] if parts else "nothing")


def opened_form(spec: EditSpec, row: Row) -> Any:
    """The form as it opened (the resource's values validated), or None when they do not validate
    (a value the API sends that the form does not know): then every step counts as changed."""
    try:
        return spec.form_model.model_validate(spec.from_resource(row))
    except Exception:
        return None


def _holds(spec: EditSpec, step: EditStep, body: dict[str, Any], now: Any) -> bool:
    """Whether the resource read again holds what `step` sent (its form's part, read the same way)."""
    form = opened_form(spec, now)
    return form is not None and step.body(form) == body


async def send_steps(
    service: ResourceService, scope: str, row: Row, spec: EditSpec, form: BaseModel
) -> tuple[Any, str]:
    """Send the steps of `spec` whose body changed; (the resource read back, what was said)."""
    before = opened_form(spec, row)
    todo = [(step, step.body(form)) for step in spec.steps]
    todo = [(step, body) for step, body in todo if before is None or step.body(before) != body]
    name = row.name or row.id
    if not todo:
        return row, f"{name}: nothing changed; nothing was sent"
    applied: list[str] = []
    lost: list[str] = []  # what a look said of a part whose answer was lost, found applied
    for n, (step, body) in enumerate(todo):
        # a lost answer may have been applied: read it again and compare what this part sends
        holds = partial(_holds, spec, step, body)
        try:
            done = await attempt(
                service.act,
                partial(service.run, step.call, scope, row, body),
                partial(read_back, service=service, scope=scope, rid=row.id, holds=holds),
            )
        except ApiError as err:
            if not applied:
                raise
            raise PartlyApplied(err, step.what, applied, [s.what for s, _ in todo[n + 1 :]]) from None
        if done.lost is not None and done.found is not None:
            if not done.found.applied:
                not_sent = [s.what for s, _ in todo[n + 1 :]]
                raise PartlyApplied(done.lost, step.what, applied, not_sent, done.found.says) from None
            lost.append(f"{step.what}: the answer was lost ({done.lost.summary}); looked again: {done.found.says}")
        applied.append(step.what)
    unchanged = [s.what for s in spec.steps if s.what not in applied]
    said = f"Saved {name}: sent {_words(applied)}" + (f"; {_words(unchanged)} unchanged, not sent" if unchanged else "")
    said += "".join(f".\n{line}" for line in lost)
    try:
        return await service.get_row(scope, row.id), said
    except ApiError as err:  # all was applied: reading it back is no reason to keep the form open
        return row, f"{said} (reading it back failed: {err.summary}; r refreshes)"
