"""DNS (spec 3 §2.1, §4.1; spec/4 "DNS"): domains, zones, records edited as reviewed change sets,
versions compared and restored, name servers, TSIG key, certificates. `manifest` lists its views."""

from __future__ import annotations
