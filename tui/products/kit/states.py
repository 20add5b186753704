"""An action allowed in some states, and why not in the others: one declaration for both sides of
an `ActionSpec` (`available=READY.ok, why_not=READY.why`).

    READY = When("ready", what="the cluster")      # "the cluster is creating: wait until it is ready"
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .base import Row


class When:
    def __init__(self, *states: str, what: str = "it", until: str | None = None) -> None:
        self.states = frozenset(states)
        self.what = what
        self.until = until or " or ".join(states)

    def ok(self, row: Row) -> bool:
        return row.state in self.states

    def why(self, row: Row) -> str | None:
        return (
            None
            if row.state in self.states
            else f"{self.what} is {row.state or 'changing'}: wait until it is {self.until}"
        )
