"""A reference to "module:attribute" resolved on first use (`Lazy`)."""

from __future__ import annotations

import importlib
from typing import Generic, TypeVar

T = TypeVar("T")


class Lazy(Generic[T]):
    """A reference to "module:attribute", imported on first `get()`.

    Models and forms need pydantic, which the list path does not: kinds point at them lazily so
    start-up imports neither.
    """

    def __init__(self, target: str) -> None:
        self.target = target
        self._value: T | None = None

    @classmethod
    def of(cls, value: T, target: str = "<given>") -> "Lazy[T]":
        """A reference already resolved: a value made at run time (a test's flow, say)."""
        made: Lazy[T] = cls(target)
        made._value = value
        return made

    def get(self) -> T:
        if self._value is None:
            module, _, attr = self.target.partition(":")
            self._value = getattr(importlib.import_module(module), attr)
        return self._value
