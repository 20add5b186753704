"""A secret string that never shows itself: masked in repr/str, read only by `get_secret_value()`.

The same interface as pydantic's SecretStr (which is accepted wherever this is), without importing
pydantic on the start path. And how an endpoint takes it (`Auth`: a header and a prefix).
"""

from __future__ import annotations

from typing import Any, Protocol, Union

from ..records import record


class Secret:
    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def get_secret_value(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Secret('**********')" if self._value else "Secret('')"

    def __str__(self) -> str:
        return "**********" if self._value else ""

    def __eq__(self, other: object) -> bool:
        return hasattr(other, "get_secret_value") and other.get_secret_value() == self._value

    def __hash__(self) -> int:
        return hash(self._value)

    def __bool__(self) -> bool:
        return bool(self._value)

    def __reduce__(self) -> Any:  # never pickled in clear by accident
        raise TypeError("a Secret cannot be pickled")


class _Revealing(Protocol):
    def get_secret_value(self) -> str: ...


SecretLike = Union["Secret", str, _Revealing, None]  # what a key is given as (`as_secret`)


def as_secret(value: SecretLike) -> Secret:
    """A Secret from a str, a Secret, a pydantic SecretStr, or None (empty)."""
    if isinstance(value, Secret):
        return value
    if value is None or isinstance(value, str):
        return Secret(value or "")
    return Secret(value.get_secret_value())


AUTH_HEADER = "X-Auth-Token"


@record(frozen=True)
class Auth:
    """How an endpoint takes the secret key: `X-Auth-Token: <key>`, or `Authorization: Bearer <key>`."""

    header: str = AUTH_HEADER
    prefix: str = ""

    def value(self, secret: Secret) -> str:
        return self.prefix + secret.get_secret_value()


X_AUTH_TOKEN = Auth()
BEARER = Auth("Authorization", "Bearer ")
