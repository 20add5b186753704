"""Bare metal (spec 1 §2.7–2.9, §4.3; spec/4 "Bare metal v1alpha1"): dedicated servers — ordered,
installed, powered, rebooted into rescue, reached through their management controller, with the
reverse DNS of their IPs and an events timeline. `manifest` lists its views."""

from __future__ import annotations
