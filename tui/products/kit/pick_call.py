"""A choice among a few values, then one request that sets it (`PickCall`): the security group of a
server, a flexible IP's MAC type — a declared shape (see `shapes`), named here on its own."""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any, Callable

from .base import Lazy, Row
from .location import Call
from .shapes import Shape, fill_text

if TYPE_CHECKING:
    from .flows import FlowUI


class PickCall(Shape):
    """One value picked, then `call` with it at `key` of the body (dotted for a nested field:
    "security_group.id"). `choices` is a fixed list of (label, value), or a `Lazy` of `async (ui,
    row) -> (choices, current)`; picking the current value sends nothing. With `none`, a first
    choice so labelled sends null (leave the group). A choice may be an object (a server row):
    `value` gives what is sent of it, and `confirm(ui, row, picked)` (may be async: it may read what
    is there now) what sending it does, asked first (Cancel focused) under `confirm_title`."""

    asks_at_send = True  # on a production profile the send asks the name, after the pick (`flows.asks_at_send`)

    title: str
    choices: Lazy[Any] | tuple[tuple[str, Any], ...]
    call: Call
    key: str
    done: str = "{name}: {picked}"
    none: str | None = None
    value: Callable[[Any], Any] | None = None
    confirm: Callable[[Any, Row, Any], Any] | None = None
    confirm_title: str = "{name}: {picked}?"
    confirm_label: str = "Send"

    @property
    def mutating(self) -> bool:
        return self.call.mutating

    async def __call__(self, ui: FlowUI, row: Row) -> None:
        from . import outcome

        if isinstance(self.choices, Lazy):
            choices, current = await self.choices.get()(ui, row)
        else:
            choices, current = list(self.choices), None
        unset = object()  # the picker's value for "none" (None means cancelled)
        offered = ([(self.none, unset)] if self.none is not None else []) + list(choices)
        picked = await ui.pick(
            fill_text(self.title, row, ui),
            offered,
            current=unset if self.none is not None and current is None else current,
        )
        if picked is None:
            return
        if picked == current or (picked is unset and current is None):
            ui.notify(f"{fill_text(self.title, row, ui)}: that is the current choice; nothing was sent.")
            return
        label = next((str(c[0]) for c in offered if c[1] is picked), str(picked))
        label = label.split(" · ")[0].split("  ")[0].strip()  # the choice's name, not its details
        if self.confirm is not None and picked is not unset:
            said = self.confirm(ui, row, picked)
            said = await said if inspect.isawaitable(said) else said
            if not await ui.confirm(fill_text(self.confirm_title, row, ui, picked=label), said, self.confirm_label):
                return
        value = None if picked is unset else (self.value(picked) if self.value is not None else picked)
        body: dict[str, Any] = {}
        *path, last = self.key.split(".")
        nested = body
        for part in path:
            nested = nested.setdefault(part, {})
        nested[last] = value
        if value is None and path:  # leaving: the field itself is null
            body = {path[0]: None}
        was = next((str(c[0]) for c in offered if c[1] == current), None) if current is not None else self.none
        was = (was or "none").split(" · ")[0].split("  ")[0].strip()
        await ui.cleared(f"{fill_text(self.title, row, ui)}: {was} → {label}")  # what the send changes
        _, lost = await outcome.send(ui.service(), self.call, ui.scope, row, body)
        ui.notify(lost or fill_text(self.done, row, ui, picked=label), "warning" if lost else "information")
        ui.follow(row)
