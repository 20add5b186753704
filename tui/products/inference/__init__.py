"""Model inference (spec 2 §2.4, §4.4): models moving to ready, pause/resume, predictions."""

from __future__ import annotations
