"""The four dynamic kinds of a DNS record (spec 3 §2.1), each a form of its own and exactly one (or none) on a
record: answers by the asker's country (geo-IP), by an HTTP check of the servers, weighted, or by the asker's
network (views). Pydantic: loaded with the record form."""

from __future__ import annotations

import ipaddress
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from ..kit.fields import meta
from ..kit.vocabulary import Form, KeyValues, label

CONTINENTS = {"AF", "AN", "AS", "EU", "NA", "OC", "SA"}  # the continents a geo-IP record matches


def is_ip(text: str, version: int) -> bool:
    try:
        return ipaddress.ip_address(text).version == version
    except ValueError:
        return False


class NoDynamic(Form, title="None: the same answer for everyone"):
    kind: Literal["none"] = "none"


class GeoIp(Form, title="Geo-IP: by the resolver's country or continent"):
    kind: Literal["geo_ip"] = "geo_ip"
    matches: Annotated[
        KeyValues,
        label(
            "Matches",
            min_length=1,
            widget="keyvalue",
            placeholder="FR,DE=192.0.2.1 / continent:EU=192.0.2.2, one per line",
        ),
    ] = {}
    default: Annotated[str, label("Everyone else", min_length=1, placeholder="e.g. 192.0.2.9")] = ""

    @field_validator("matches")
    @classmethod
    def _places(cls, v: dict[str, str]) -> dict[str, str]:
        for where in v:
            for code in (c.strip() for c in where.split(",") if c.strip()):
                if code.lower().startswith("continent:"):
                    if code.split(":", 1)[1].upper() not in CONTINENTS:
                        raise ValueError(f"{code}: a continent is one of {', '.join(sorted(CONTINENTS))}")
                elif not (len(code) == 2 and code.isalpha()):
                    raise ValueError(f"{code}: a country is its two-letter ISO code, such as FR or DE")
        return v

    def answers(self) -> list[str]:
        return [*self.matches.values(), self.default]

    def config(self) -> dict[str, Any]:
        matches = []
        for where, data in self.matches.items():
            codes = [c.strip() for c in where.split(",") if c.strip()]
            continents = [c.split(":", 1)[1].upper() for c in codes if c.lower().startswith("continent:")]
            countries = [c.upper() for c in codes if not c.lower().startswith("continent:")]
            matches.append({"countries": countries, "continents": continents, "data": data})
        return {"geo_ip_config": {"matches": matches, "default": self.default}}


class HttpService(Form, title="HTTP check: only the IPs that answer"):
    kind: Literal["http_service"] = "http_service"
    ips: Annotated[list[str], label("IPs to check", min_length=1, placeholder="192.0.2.1, 192.0.2.2")] = []
    url: Annotated[
        str,
        label(
            "URL",
            pattern=r"^https?://",
            rule="an http:// or https:// URL",
            placeholder="e.g. https://example.com/health",
        ),
    ] = ""
    must_contain: Annotated[str, label("Healthy when the answer contains", min_length=1, placeholder="e.g. OK")] = ""
    user_agent: Annotated[str, label("User agent", placeholder="optional")] = ""
    strategy: Annotated[Literal["random", "hashed", "all"], label("Answer with", widget="select")] = "random"

    @field_validator("ips")
    @classmethod
    def _ips(cls, v: list[str]) -> list[str]:
        bad = [ip for ip in v if not (is_ip(ip, 4) or is_ip(ip, 6))]
        if bad:
            raise ValueError(f"IPv4 or IPv6 addresses: {bad[0]} is not")
        return v

    def answers(self) -> list[str]:
        return list(self.ips)

    def config(self) -> dict[str, Any]:
        return {
            "http_service_config": {
                "ips": self.ips,
                "must_contain": self.must_contain,
                "url": self.url,
                "user_agent": self.user_agent,
                "strategy": self.strategy,
            }
        }


class Weighted(Form, title="Weighted: IPs in proportion"):
    kind: Literal["weighted"] = "weighted"
    weights: Annotated[
        KeyValues, label("IP=weight", min_length=1, widget="keyvalue", placeholder="192.0.2.1=3\n192.0.2.2=1")
    ] = {}

    @field_validator("weights")
    @classmethod
    def _weights(cls, v: dict[str, str]) -> dict[str, str]:
        for ip, weight in v.items():
            if not (is_ip(ip, 4) or is_ip(ip, 6)):
                raise ValueError(f"{ip} is not an IPv4 or IPv6 address")
            if not weight.isdigit() or not 0 <= int(weight) <= 255:
                raise ValueError(f"the weight of {ip} is a whole number from 0 to 255")
        return v

    def answers(self) -> list[str]:
        return list(self.weights)

    def config(self) -> dict[str, Any]:
        return {"weighted_config": {"weighted_ips": [{"ip": ip, "weight": int(w)} for ip, w in self.weights.items()]}}


class Views(Form, title="Views: by the resolver's subnet"):
    kind: Literal["view"] = "view"
    views: Annotated[
        KeyValues,
        label("Subnet=answer", min_length=1, widget="keyvalue", placeholder="10.0.0.0/8=10.1.2.3\n0.0.0.0/0=192.0.2.1"),
    ] = {}

    @field_validator("views")
    @classmethod
    def _subnets(cls, v: dict[str, str]) -> dict[str, str]:
        for subnet in v:
            try:
                ipaddress.ip_network(subnet, strict=True)
            except ValueError:
                raise ValueError(
                    f"{subnet} is not a subnet in CIDR notation (host bits zero), such as 10.0.0.0/8"
                ) from None
        return v

    def answers(self) -> list[str]:
        return list(self.views.values())

    def config(self) -> dict[str, Any]:
        return {"view_config": {"views": [{"subnet": s, "data": d} for s, d in self.views.items()]}}


Dynamic = Annotated[
    NoDynamic | GeoIp | HttpService | Weighted | Views,
    Field(discriminator="kind", json_schema_extra=meta("Dynamic answer (one at most)")),
]
