"""Records and declarations as dataclasses make them, at a tenth of their start-up cost.

`dataclasses.dataclass` compiles four or five small functions for each class (`exec` of generated
source): ~0.45 ms a class, and the 32 on the console's start path cost 14 ms of the ~300 ms to its
first rows (measured on this 2-core machine). `record` compiles only `__init__` (so making an
instance costs what a dataclass's does), and only when the first instance is made, and shares one
`__repr__`, `__eq__`, `__hash__` and frozen `__setattr__` between all records.

It takes what this code asks of dataclasses: `frozen`, `eq`, defaults, `field(default_factory=…)`
(dataclasses' own `field`), `__post_init__`, a record subclassing a record; `fields()` and
`replace()` here do what dataclasses' do. Annotations are read as written (`ClassVar[...]` ones are
skipped); nothing is checked against the types.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, TypeVar, dataclass_transform, overload

T = TypeVar("T")
_NO_DEFAULT = dataclasses.MISSING
FrozenInstanceError = dataclasses.FrozenInstanceError


class _Factory:
    """The default of a field made by a factory (its sentinel in `__init__`'s signature)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make

    def __repr__(self) -> str:
        return f"<factory {getattr(self.make, '__name__', self.make)}>"


@overload
def record(cls: type[T], /) -> type[T]: ...


@overload
def record(*, frozen: bool = False, eq: bool = True) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(field_specifiers=(dataclasses.field,))  # type checkers read a record as a dataclass
def record(cls: type[T] | None = None, *, frozen: bool = False, eq: bool = True) -> Any:
    """`@record`, `@record(frozen=True)`, `@record(frozen=True, eq=False)`: as `@dataclass`."""

    def wrap(cls: type[T]) -> type[T]:
        return _make(cls, frozen, eq)

    return wrap if cls is None else wrap(cls)


def fields(cls_or_obj: Any) -> tuple[str, ...]:
    """The names of a record's fields, in order."""
    return cls_or_obj.__record_fields__


def replace(obj: T, **changes: Any) -> T:
    """A copy of a record with `changes` (a new instance: `__post_init__` runs again)."""
    unknown = changes.keys() - set(fields(obj))
    if unknown:
        raise TypeError(f"{type(obj).__name__} has no field {', '.join(sorted(unknown))}")
    values = {name: getattr(obj, name) for name in fields(obj)}
    values.update(changes)
    return type(obj)(**values)


def _own_fields(cls: type) -> list[tuple[str, Any]]:
    out = []
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
        if text.startswith(("ClassVar", "typing.ClassVar")):
            continue
        default = cls.__dict__.get(name, _NO_DEFAULT)
        if isinstance(default, dataclasses.Field):  # as a dataclass leaves its class: the plain default, or nothing
            if default.default_factory is not _NO_DEFAULT:
                default = _Factory(default.default_factory)
                delattr(cls, name)
            elif default.default is _NO_DEFAULT:
                default = _NO_DEFAULT
                delattr(cls, name)
            else:
                default = default.default
                setattr(cls, name, default)
        out.append((name, default))
    return out


def _make(cls: type[T], frozen: bool, eq: bool) -> type[T]:
    defaults: dict[str, Any] = {}  # every field, a parent's first, and its default (or none)
    for base in reversed(cls.__mro__[1:]):
        defaults.update(getattr(base, "__record_defaults__", {}))
    for name, default in _own_fields(cls):
        defaults.pop(name, None)
        defaults[name] = default
    names = tuple(defaults)
    params: list[str] = []
    body: list[str] = []
    scope: dict[str, Any] = {"_Factory": _Factory}
    seen_default = False
    for i, name in enumerate(names):
        default = defaults[name]
        if default is _NO_DEFAULT:
            if seen_default:
                raise TypeError(f"non-default argument {name!r} follows default argument")
            params.append(name)
        else:
            seen_default = True
            scope[f"_d{i}"] = default
            params.append(f"{name}=_d{i}")
        value = f"_d{i}.make() if {name} is _d{i} else {name}" if isinstance(default, _Factory) else name
        body.append(f"_set(self, {name!r}, {value})" if frozen else f"self.{name} = {value}")
    if getattr(cls, "__post_init__", None) is not None:
        body.append("self.__post_init__()")
    scope["_set"] = object.__setattr__
    source = f"def __init__(self, {', '.join(params)}):\n    " + ("\n    ".join(body) or "pass") + "\n"

    def first_init(self: Any, *args: Any, **kwargs: Any) -> None:
        """Compiles the real `__init__` on the first instance: most records on the start path are
        never made before the first rows (~0.1 ms each)."""
        init = scope.get("__init__")
        if init is None:
            exec(compile(source, f"<record {cls.__qualname__}>", "exec"), scope)
            init = scope["__init__"]
            init.__qualname__ = f"{cls.__qualname__}.__init__"
            setattr(cls, "__init__", init)
        init(self, *args, **kwargs)

    first_init.__qualname__ = f"{cls.__qualname__}.__init__"
    # (set by name: a type checker reads these classes as dataclasses, whose methods are not assigned)
    setattr(cls, "__init__", first_init)
    setattr(cls, "__record_fields__", names)
    setattr(cls, "__record_defaults__", defaults)
    setattr(cls, "__match_args__", names)
    if "__repr__" not in cls.__dict__:
        setattr(cls, "__repr__", _repr)
    if eq:
        if "__eq__" not in cls.__dict__:
            setattr(cls, "__eq__", _eq)
        if "__hash__" not in cls.__dict__ or cls.__dict__["__hash__"] is None:
            setattr(cls, "__hash__", _hash if frozen else None)
    if frozen:
        frozen_set, frozen_del = _frozen(cls)
        setattr(cls, "__setattr__", frozen_set)
        setattr(cls, "__delattr__", frozen_del)
    return cls


def _values(obj: Any) -> tuple[Any, ...]:
    return tuple(getattr(obj, name) for name in obj.__record_fields__)


def _repr(self: Any) -> str:
    return f"{type(self).__qualname__}({', '.join(f'{n}={getattr(self, n, None)!r}' for n in self.__record_fields__)})"


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return _values(self) == _values(other)


def _hash(self: Any) -> int:
    return hash(_values(self))


def _frozen(cls: type) -> tuple[Callable[..., None], Callable[..., None]]:
    """As a frozen dataclass: nothing is set on an instance of `cls` itself, and no field of it on
    an instance of a subclass (`object.__setattr__` still can, as `__init__` does)."""
    names = fields(cls)

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        object.__setattr__(self, name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        object.__delattr__(self, name)

    return __setattr__, __delattr__
