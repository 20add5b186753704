"""Flexible IPs for bare-metal servers (`/flexible-ip/v1alpha1/zones/{zone}`)."""

from __future__ import annotations
