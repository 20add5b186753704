"""Managed relational databases (spec 2 §2.3, §3.3, §4.3; spec/4 "Relational databases"):
instances with their users, databases, privileges, ACL rules, settings, endpoints, read replicas,
logs and metrics; backups and snapshots. `manifest` lists its views."""

from __future__ import annotations
