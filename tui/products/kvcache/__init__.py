"""The key-value cache (spec 2 §2.1, §3.1, §4.1; spec/4 "Key-value cache"): clusters, their ACL rules,
settings, migration, certificate and metrics. `manifest` lists its views."""

from __future__ import annotations
