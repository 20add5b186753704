"""The secret key: environment variable, then the system keyring, else this session only.

Lookup order: `CLOUDTUI_SECRET_KEY`, then keyring (service "cloudtui", user = profile name).
On hosts without a keyring backend (headless Linux raises `keyring.errors.NoKeyringError`) the
key is kept in memory for the session and the user is told so; it is never written in clear.
Keyring calls may block (D-Bus), so the UI calls these functions from a thread worker.
"""

from __future__ import annotations

import os
from typing import Literal, Mapping

from .api.secret import Secret
from .records import record

SERVICE = "cloudtui"
ENV_VAR = "CLOUDTUI_SECRET_KEY"
Source = Literal["env", "keyring", "session", "demo"]


@record
class SecretLookup:
    secret: Secret | None
    source: Source | None
    keyring_problem: str | None = None  # why the keyring could not be used, for the login modal


def _keyring_problem(exc: Exception) -> str:
    from keyring.errors import NoKeyringError

    if isinstance(exc, NoKeyringError):
        return "No system keyring is available on this host."
    return f"The system keyring failed: {type(exc).__name__}."


def lookup(profile: str, env: Mapping[str, str] | None = None) -> SecretLookup:
    value = (os.environ if env is None else env).get(ENV_VAR)
    if value:
        return SecretLookup(Secret(value), "env")
    try:
        import keyring

        stored = keyring.get_password(SERVICE, profile)
    except Exception as exc:  # keyring backends raise many kinds; none may reach the user raw
        return SecretLookup(None, None, _keyring_problem(exc))
    if stored:
        return SecretLookup(Secret(stored), "keyring")
    return SecretLookup(None, None)


def store(profile: str, secret: Secret) -> str | None:
    """Save in the keyring; return None on success, else why it could not be saved."""
    try:
        import keyring

        keyring.set_password(SERVICE, profile, secret.get_secret_value())
    except Exception as exc:
        return _keyring_problem(exc)
    return None


def forget(profile: str) -> str | None:
    try:
        import keyring
        from keyring.errors import PasswordDeleteError

        try:
            keyring.delete_password(SERVICE, profile)
        except PasswordDeleteError:
            pass
    except Exception as exc:
        return _keyring_problem(exc)
    return None
