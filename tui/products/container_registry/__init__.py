"""The container registry (spec 3 §2.2, §4.2; spec/4 "Container registry"): namespaces, images and
tags in three regions; pull and log-in commands to copy. `manifest` lists its views."""

from __future__ import annotations
