"""`tui.records.record` does what `dataclasses.dataclass` did for the classes that use it."""

from __future__ import annotations

import dataclasses
from dataclasses import field
from typing import ClassVar

import pytest

from tui.records import FrozenInstanceError, fields, record, replace


@record(frozen=True, eq=False)
class Declared:
    key: str
    title: str = ""
    tags: list[str] = field(default_factory=list)
    COUNT: ClassVar[int] = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "derived", self.key.upper())


@record
class Plain:
    a: int
    b: int = 2


@record(frozen=True)
class Value:
    a: int
    b: str = "x"


@record(frozen=True, eq=False)
class Child(Declared):
    extra: int = 0


def test_fields_in_order_defaults_factories_and_post_init():
    d = Declared("k")
    assert fields(Declared) == ("key", "title", "tags") and d.title == "" and d.derived == "K"
    assert d.tags == [] and d.tags is not Declared("j").tags  # a fresh list each time
    assert Declared("k", "t", ["a"]).tags == ["a"] and Declared(key="k", tags=["b"]).tags == ["b"]
    assert "tags" not in Declared.__dict__ and Declared.title == ""  # as a dataclass leaves its class
    with pytest.raises(TypeError):
        Declared()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Declared("k", nope=1)  # type: ignore[call-arg]


def test_frozen_refuses_changes_as_a_dataclass_does():
    d = Declared("k")
    with pytest.raises(FrozenInstanceError):
        d.key = "x"  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        d.anything = 1  # type: ignore[attr-defined]
    with pytest.raises(FrozenInstanceError):
        del d.key  # type: ignore[misc]
    assert issubclass(FrozenInstanceError, AttributeError)
    p = Plain(1)
    p.a = 3
    assert p.a == 3


def test_equality_and_hash_follow_eq_and_frozen():
    assert Plain(1) == Plain(1) and Plain(1) != Plain(2) and Plain.__hash__ is None
    assert Value(1) == Value(1) and hash(Value(1)) == hash(Value(1, "x")) and {Value(1), Value(1)} == {Value(1)}
    assert Declared("k") != Declared("k") and hash(Declared("k")) != 0  # eq=False: identity
    assert (Value(1) == Plain(1)) is False


def test_replace_makes_a_new_record_and_refuses_unknown_fields():
    d = Declared("k", "t")
    e = replace(d, title="u")
    assert (e.key, e.title, e.derived) == ("k", "u", "K") and d.title == "t"
    with pytest.raises(TypeError):
        replace(d, nope=1)


def test_a_subclass_adds_its_fields_after_its_parents():
    c = Child("k", extra=3)
    assert fields(Child) == ("key", "title", "tags", "extra") and c.extra == 3 and c.derived == "K"
    with pytest.raises(FrozenInstanceError):
        c.key = "x"  # type: ignore[misc]


def test_a_field_without_default_after_one_with_is_refused_and_repr_names_the_fields():
    with pytest.raises(TypeError, match="non-default"):

        @record
        class Bad:
            a: int = 1
            b: int  # type: ignore[misc]

    assert (
        repr(Value(1))
        == "Value(a=1, b='x')"
        == repr(
            dataclasses.dataclass(frozen=True)(
                type("Value", (), {"__annotations__": {"a": "int", "b": "str"}, "b": "x", "__module__": __name__})
            )(1)
        )
    )
