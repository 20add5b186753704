"""The embedded platform: an independent implementation of the spec for the demo and the tests."""

from .app import Sandbox
from .clock import Clock, ManualClock
from .core import DEMO_PROJECT_ID, DEMO_SECRET_KEY
from .instance import Timings

__all__ = ["Sandbox", "Clock", "ManualClock", "Timings", "DEMO_PROJECT_ID", "DEMO_SECRET_KEY"]
