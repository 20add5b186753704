"""Monitoring (spec 2 §2.2, §4.2): one instance per project, its tokens, contact points and dashboard users."""

from __future__ import annotations
