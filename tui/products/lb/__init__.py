"""Load balancers (spec 3 §2.3, §3, §4.3, §8; spec/4 "Load balancer"): a master and a backup
instance behind one highly available IP, frontends listening on ports, backends holding servers and
a health check, in three regions. `manifest` lists its views."""

from __future__ import annotations
