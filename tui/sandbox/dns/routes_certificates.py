"""The sandbox's TLS certificates of DNS zones (spec 3 §8; spec/4 "DNS"): listed, made for a zone and
names within the operator's domains, read and deleted by zone."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..core import check_unknown, json_body, page_page_size
from ..errors import invalid_arguments, or_not_found
from ..routing import Routes
from .names import domain_name
from .store import DnsStore


def certificate_routes(store: DnsStore, routes: Routes) -> None:
    def cert_in_path(request: Request) -> dict[str, Any]:
        name = domain_name(request.path_params["dns_zone"]) or request.path_params["dns_zone"]
        c = or_not_found(store.certificates.get(name), "ssl_certificate", name)
        store.cert_line.settle(c)
        return c

    @routes.get("/ssl-certificates")
    async def list_certs(request: Request) -> Response:
        q = request.query_params
        items = sorted(store.certificates.values(), key=lambda c: c["dns_zone"])
        if q.get("dns_zone"):
            wanted = domain_name(q["dns_zone"]) or q["dns_zone"]
            items = [c for c in items if c["dns_zone"] == wanted or c["dns_zone"].endswith("." + wanted)]
        if q.get("project_id"):
            items = [
                c
                for c in items
                if c["dns_zone"] in store.zones and store.zones[c["dns_zone"]]["project_id"] == q["project_id"]
            ]
        return page_page_size(request, "certificates", items, dict)

    @routes.post("/ssl-certificates")
    async def create_cert(request: Request) -> Response:
        body = await json_body(request)
        errs = check_unknown(body, {"dns_zone", "alternative_dns_zones"})
        name = domain_name(body.get("dns_zone"))
        if name is None:
            errs.append(
                ("dns_zone", "required" if not body.get("dns_zone") else "format", "the zone the certificate is for")
            )
        alts = body.get("alternative_dns_zones") or []
        if not isinstance(alts, list):
            errs.append(("alternative_dns_zones", "format", "a list of zone names"))
            alts = []
        names = []
        for i, alt in enumerate(alts):
            n = domain_name(alt)
            if n is None or store.domain_of(n) is None:
                errs.append(
                    (f"alternative_dns_zones.{i}", "constraint", f"{alt!r} is not a name within one of your domains")
                )
            names.append(n)
        if errs:
            raise invalid_arguments(*errs)
        assert name is not None
        return JSONResponse(store.create_certificate(store.zone(name), [n for n in names if n]))

    routes.read("/ssl-certificates/{dns_zone}", cert_in_path)

    @routes.delete("/ssl-certificates/{dns_zone}")
    async def delete_cert(request: Request) -> Response:
        c = cert_in_path(request)
        store.cert_line.cancel(c)
        del store.certificates[c["dns_zone"]]
        return JSONResponse({})
