"""Every form rule of the network-facing products (DNS records by type, domains, zones, the registry,
monitoring, inference), checked on its pydantic model (tests/form_rules.py)."""

from __future__ import annotations

import pytest

from form_rules import (
    Rule,
    A_RECORD,
    GEO,
    HTTP,
    RECORD,
    VIEWS,
    WEIGHTED,
    check,
    dns_zone_example,
    monitoring_contacts,
    monitoring_tokens,
    registry_names,
    staged_records,
)

pytestmark = pytest.mark.anyio


RULES: dict[str, Rule] = {
    "dns record: A is IPv4": Rule(RECORD, A_RECORD, {"data": "2001:db8::1"}, "data", "an IPv4 address"),
    "dns record: AAAA is IPv6": Rule(
        RECORD,
        {**A_RECORD, "type": "AAAA", "data": "2001:db8::1"},
        {"data": "192.0.2.1"},
        "data",
        "an IPv6 address",
    ),
    "dns record: MX needs a priority": Rule(
        RECORD,
        {"name": "@", "type": "MX", "data": "mx.example.com.", "priority": "10"},
        {"priority": ""},
        "priority",
        "needs a priority",
    ),
    "dns record: SRV data shape": Rule(
        RECORD,
        {"name": "_sip._tcp", "type": "SRV", "data": "5 5060 sip.example.com.", "priority": "10"},
        {"data": "5060 sip.example.com."},
        "data",
        "weight port target",
    ),
    "dns record: CNAME target a name": Rule(
        RECORD,
        {"name": "www", "type": "CNAME", "data": "example.com."},
        {"data": "not a name!"},
        "data",
        "host name",
    ),
    "dns record: no CNAME at the root": Rule(
        RECORD, {"name": "www", "type": "CNAME", "data": "example.com."}, {"name": "@"}, "type", "use ALIAS"
    ),
    "dns record: a CNAME stands alone (issue 32 item 19)": Rule(
        RECORD,
        {"name": "other", "type": "CNAME", "data": "example.com."},
        {"name": "beside"},
        "type",
        "beside already holds A",
        staged_records,
    ),
    "dns record: nothing beside a CNAME": Rule(
        RECORD, A_RECORD, {"name": "alias"}, "type", "alias holds a CNAME", staged_records
    ),
    "dns record: TXT quotes pair up (issue 32 item 20)": Rule(
        RECORD,
        {"name": "@", "type": "TXT", "data": '"v=spf1 mx" "~all"'},
        {"data": '"v=spf1 mx ~all'},
        "data",
        "quotes come in pairs",
    ),
    "dns record: CAA shape": Rule(
        RECORD,
        {"name": "@", "type": "CAA", "data": '0 issue "letsencrypt.org"'},
        {"data": "issue letsencrypt.org"},
        "data",
        "flags tag",
    ),
    "dns record: TLSA shape": Rule(
        RECORD,
        {"name": "_443._tcp", "type": "TLSA", "data": "3 1 1 0a1b2c"},
        {"data": "3 1 1 xyz"},
        "data",
        "usage selector",
    ),
    "dns record: TTL bounds": Rule(RECORD, A_RECORD, {"ttl": "30"}, "ttl", "at least 60"),
    "dns record: a label's characters": Rule(RECORD, A_RECORD, {"name": "bad name"}, "name", "letters, digits"),
    "dns record: the apex is @ on purpose": Rule(RECORD, A_RECORD, {"name": ""}, "name", "required"),
    "dns record: weighted IPs": Rule(
        RECORD,
        {**A_RECORD, "dynamic": WEIGHTED},
        {"dynamic": {**WEIGHTED, "weights": "192.0.2.1=300"}},
        "dynamic.weighted.weights",
        "0 to 255",
    ),
    "dns record: weighted is A or AAAA": Rule(
        RECORD, {**A_RECORD, "dynamic": WEIGHTED}, {"type": "TXT", "data": "hello"}, "dynamic", "of type A or AAAA"
    ),
    "dns record: dynamic answers of the record's family": Rule(
        RECORD,
        {**A_RECORD, "dynamic": {"kind": "weighted", "weights": "192.0.2.80=5"}},
        {"dynamic": {"kind": "weighted", "weights": "192.0.2.80=5\n2001:db8::80=1"}},
        "dynamic",
        "an A record answers IPv4 addresses: 2001:db8::80 is not",
    ),
    "dns record: views by subnet in CIDR": Rule(
        RECORD,
        {**A_RECORD, "dynamic": VIEWS},
        {"dynamic": {**VIEWS, "views": "10.0.0.1/8=10.1.2.3"}},
        "dynamic.view.views",
        "CIDR",
    ),
    "dns record: HTTP check URL": Rule(
        RECORD,
        {**A_RECORD, "dynamic": HTTP},
        {"dynamic": {**HTTP, "url": "example.com/health"}},
        "dynamic.http_service.url",
        "http:// or https://",
    ),
    "dns record: geo-IP places": Rule(
        RECORD,
        {**A_RECORD, "dynamic": GEO},
        {"dynamic": {**GEO, "matches": "France=192.0.2.1"}},
        "dynamic.geo_ip.matches",
        "two-letter ISO code",
    ),
    "dns record: geo-IP needs everyone else": Rule(
        RECORD,
        {**A_RECORD, "dynamic": GEO},
        {"dynamic": {**GEO, "default": ""}},
        "dynamic.geo_ip.default",
        "required",
    ),
    "dns domain: two labels": Rule(
        "dns.forms:RegisterForm",
        {"domain": "example.shop"},
        {"domain": "localhost"},
        "domain",
        "at least two labels",
    ),
    "dns domain: host labels": Rule(
        "dns.forms:RegisterForm",
        {"domain": "my-shop.example"},
        {"domain": "bad_x.com"},
        "domain",
        "'_' is for records",
    ),
    "dns domain: a top-level label of letters": Rule(
        "dns.forms:RegisterForm", {"domain": "bücher.example"}, {"domain": "example.123"}, "domain", "last label"
    ),
    "dns zone: sub-domain label": Rule(
        "dns.forms:ZoneForm",
        {"domain": "example.com", "subdomain": "shop"},
        {"subdomain": "-shop"},
        "subdomain",
        "not starting or ending with '-'",
    ),
    "dns name server: glue IPs": Rule(
        "dns.forms:NameServer",
        {"name": "ns1.example.com", "ip": "192.0.2.53"},
        {"ip": "192.0.2"},
        "ip",
        "IPv4 or IPv6",
    ),
    "dns name server: inside the zone needs glue": Rule(
        "dns.forms:NameServer",
        {"name": "ns1.example.net", "ip": ""},
        {"name": "ns1.example.com"},
        "ip",
        "give its glue IPs",
        dns_zone_example,
    ),
    "registry namespace: name rule": Rule(
        "container_registry.forms:NamespaceForm",
        {"name": "team-images"},
        {"name": "Team_Images"},
        "name",
        "lower-case letters",
    ),
    "monitoring token: unique in the instance": Rule(
        "monitoring.forms:TokenForm",
        {"name": "loki-prod"},
        {"name": "prometheus-prod"},
        "name",
        "already a token's name",
        monitoring_tokens,
    ),
    "monitoring token: a preset sets the scopes": Rule(
        "monitoring.forms:TokenForm",
        {"name": "t", "preset": "logs_pusher", "scopes": ["write_logs"]},
        {"scopes": ["write_logs", "query_logs"]},
        "scopes",
        "choose custom",
    ),
    "monitoring token: custom scopes ticked": Rule(
        "monitoring.forms:TokenForm",
        {"name": "t", "preset": "custom", "scopes": ["query_metrics"]},
        {"scopes": []},
        "scopes",
        "tick at least one scope",
    ),
    "monitoring contact point: not twice, whatever its case": Rule(
        "monitoring.forms:ContactForm",
        {"to": "oncall@example.com"},
        {"to": "OPS@example.com"},
        "to",
        "already a contact point",
        monitoring_contacts,
    ),
    "monitoring contact point: an e-mail": Rule(
        "monitoring.forms:ContactForm", {"to": "ops@example.com"}, {"to": "ops.example.com"}, "to", "e-mail address"
    ),
    "monitoring contact point: a host name after the @": Rule(
        "monitoring.forms:ContactForm", {"to": "ops@example.com"}, {"to": "ops@exa_mple..com"}, "to", "e-mail address"
    ),
    "monitoring dashboard user: login": Rule(
        "monitoring.forms:UserForm", {"login": "alice"}, {"login": "alice smith"}, "login", "letters, digits"
    ),
    "inference model: archive URL": Rule(
        "inference.forms:ModelForm",
        {"name": "m", "path": "https://example.com/m.zip"},
        {"path": "ftp://example.com/m.zip"},
        "path",
        "http or https URL",
    ),
    "inference model: a framework offered": Rule(
        "inference.forms:ModelForm",
        {"name": "m", "path": "https://example.com/m.zip", "framework": "onnx:latest"},
        {"framework": "onnx:2.0.0"},
        "framework",
        "backends and versions offered",
    ),
    "inference model: input_type a numeric type": Rule(
        "inference.forms:ModelForm",
        {"name": "m", "path": "https://example.com/m.zip", "config": "input_type=int8"},
        {"config": "input_type=text"},
        "config",
        "numeric type name",
    ),
    "registry namespace: unique in its region": Rule(
        "container_registry.forms:NamespaceForm",
        {"name": "team-images"},
        {"name": "web"},
        "name",
        "already a namespace in fr-par",
        registry_names,
    ),
}


@pytest.mark.parametrize("name", list(RULES))
async def test_form_rule(world, name):
    await check(world, RULES[name])
