"""Silicon servers (spec 1 §2.10, §4.5; spec/4 "Silicon servers"): desktop-class machines rented
for at least 24 hours, in fr-par-1 and fr-par-3. `manifest` lists its views."""

from __future__ import annotations
