"""The embedded platform: an independent implementation of the spec for the demo and the tests.

Names are resolved lazily so that `tui.sandbox.constants` and `tui.sandbox.serve` can be imported
without starlette (the demo builds the sandbox in a background thread).
"""

from __future__ import annotations

from typing import Any

from .constants import DEMO_PROJECT_ID, DEMO_SECRET_KEY

__all__ = ["Sandbox", "Clock", "ManualClock", "Timings", "DEMO_PROJECT_ID", "DEMO_SECRET_KEY"]


def __getattr__(name: str) -> Any:
    if name == "Sandbox":
        from .app import Sandbox

        return Sandbox
    if name in ("Clock", "ManualClock"):
        from . import clock

        return getattr(clock, name)
    if name == "Timings":
        from .instance import Timings

        return Timings
    raise AttributeError(name)
