"""What every bare-metal kind shares (servers, offers, systems, private networks), in a module of its
own so that each kind's module can import it without importing the others."""

from __future__ import annotations

from typing import Any

from ..kit.base import kinds_of

API = "baremetal/v1alpha1"
ZONES = ("fr-par-1", "fr-par-2", "nl-ams-1")  # spec 1 §2.1: where bare metal is offered
# What every bare-metal kind shares; a kind says only what differs (private networks: another API and zones).
baremetal_kind = kinds_of(product="Bare metal", api=API, scope_type="zone", scopes=ZONES)
MOVING_INSTALL = frozenset({"to_install", "installing"})


def install_status(data: dict[str, Any]) -> str:
    install = data.get("install")
    return str(install.get("status") or "") if isinstance(install, dict) else ""
