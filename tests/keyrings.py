"""Keyrings for tests: one in memory, and what a headless host has (none)."""

from __future__ import annotations

from keyring.backend import KeyringBackend
from keyring.errors import NoKeyringError, PasswordDeleteError


class MemoryKeyring(KeyringBackend):
    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.store: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.store.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.store[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if (service, username) not in self.store:
            raise PasswordDeleteError("not found")
        del self.store[(service, username)]


class NoKeyring(KeyringBackend):
    """What headless Linux has: every call raises NoKeyringError."""

    priority = 0  # type: ignore[assignment]

    def get_password(self, service: str, username: str) -> str | None:
        raise NoKeyringError("No recommended backend was available.")

    def set_password(self, service: str, username: str, password: str) -> None:
        raise NoKeyringError("No recommended backend was available.")

    def delete_password(self, service: str, username: str) -> None:
        raise NoKeyringError("No recommended backend was available.")
