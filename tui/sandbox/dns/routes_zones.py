"""Routes of the DNS sandbox for domains and zones: service information, domains and external
registration, zone create/update/delete/clone/refresh, name servers, TSIG keys and TLS
certificates — spec 3 §4.1 with the methods and paths of spec/4 "DNS" and, where both are silent,
those the public clients call (`/external-domains`, `/ssl-certificates`, `/tsig-key`).

An external domain is registered at `POST /domains/external-domain` (spec 3) and at
`POST /external-domains` (the public clients), the same way.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..core import check_unknown, checked_body, is_uuid, json_body, page_page_size, public
from ..errors import HttpError, already_exists, invalid_arguments, not_found, or_not_found
from ..routing import Routes
from .names import domain_name, host_name, subdomain_name, zone_name
from .store import DnsStore

ZONE_ORDER = {
    "domain_asc": (("domain", "subdomain"), False),
    "domain_desc": (("domain", "subdomain"), True),
    "subdomain_asc": (("subdomain", "domain"), False),
    "subdomain_desc": (("subdomain", "domain"), True),
    "created_at_asc": (("_created",), False),
    "created_at_desc": (("_created",), True),
    "updated_at_asc": (("updated_at",), False),
    "updated_at_desc": (("updated_at",), True),
}
DOMAIN_ORDER = {"domain_asc": False, "domain_desc": True}
NS_MAX = 10
SERVICE = {
    "name": "domain",
    "description": "Domains, DNS zones and records (sandbox)",
    "version": "v2beta1",
    "documentation_url": "https://www.example.com/en/developers/api/domains-and-dns/",
}


def order_param(request: Request, known: dict[str, Any], default: str) -> str:
    order = request.query_params.get("order_by") or default
    if order not in known:
        raise invalid_arguments(("order_by", "constraint", f"order_by must be one of {', '.join(known)}"))
    return order


def flag(value: object, field: str) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise invalid_arguments((field, "format", "true or false"))
    return value


def project_of(body: dict[str, Any], store: DnsStore) -> str:
    pid = body.get("project_id")
    if pid is None or pid == "":
        return store.project_id
    if not is_uuid(pid):
        raise invalid_arguments(("project_id", "format", "a Project ID (UUID)"))
    return pid


def zone_in_path(store: DnsStore, request: Request, key: str = "dns_zone") -> dict[str, Any]:
    name = or_not_found(domain_name(request.path_params[key]), "dns_zone", request.path_params[key])
    return store.zone(name)


def check_nameservers(entries: object) -> list[tuple[str, list[str]]]:
    """The `ns` of a name-server update: host names, each with optional glue IPs."""
    if not isinstance(entries, list) or not entries:
        raise invalid_arguments(("ns", "required", "a non-empty list of {name, ip}"))
    if len(entries) > NS_MAX:
        raise invalid_arguments(("ns", "constraint", f"at most {NS_MAX} name servers"))
    out, errs, seen = [], [], set()
    for i, e in enumerate(entries):
        if not isinstance(e, dict):
            errs.append((f"ns.{i}", "format", "an object {name, ip}"))
            continue
        errs += [(f"ns.{i}.{k}", "unknown", "unknown field") for k in sorted(set(e) - {"name", "ip"})]
        name = host_name(e.get("name"))
        if name is None or name == "." or "." not in name.removesuffix("."):
            errs.append((f"ns.{i}.name", "format", "a name server's host name"))
            continue
        name = name.removesuffix(".")
        if name in seen:
            errs.append((f"ns.{i}.name", "constraint", f"{name} is given twice"))
        seen.add(name)
        ips = e.get("ip") or []
        if not isinstance(ips, list):
            errs.append((f"ns.{i}.ip", "format", "a list of IP addresses"))
            continue
        good = []
        for j, ip in enumerate(ips):
            try:
                good.append(str(ipaddress.ip_address(ip)))
            except (ValueError, TypeError):
                errs.append((f"ns.{i}.ip.{j}", "format", f"{ip!r} is not an IP address"))
        out.append((name, good))
    if errs:
        raise invalid_arguments(*errs)
    return out


def zone_routes(store: DnsStore, routes: Routes) -> None:
    def zones_page(request: Request, zones: list[dict[str, Any]], order: str = "domain_asc") -> Response:
        keys, rev = ZONE_ORDER[order]
        return page_page_size(
            request, "dns_zones", sorted(zones, key=lambda z: tuple(z[k] for k in keys), reverse=rev), public
        )

    @routes.get("")
    async def info(request: Request) -> Response:
        return JSONResponse(SERVICE)

    # ---- domains ---------------------------------------------------------------------------------
    @routes.get("/domains")
    async def list_domains(request: Request) -> Response:
        q = request.query_params
        items = list(store.domains.values())
        for key in ("domain", "status", "registrar", "project_id", "organization_id"):
            if q.get(key):
                wanted = (domain_name(q[key]) or q[key]) if key == "domain" else q[key]
                items = [d for d in items if d[key] == wanted]
        if q.get("is_external"):
            items = [d for d in items if d["is_external"] == (q["is_external"].lower() == "true")]
        rev = DOMAIN_ORDER[order_param(request, DOMAIN_ORDER, "domain_asc")]
        return page_page_size(request, "domains", sorted(items, key=lambda d: d["domain"], reverse=rev), public)

    def domain_in_path(request: Request) -> dict[str, Any]:
        name = domain_name(request.path_params["domain"]) or request.path_params["domain"]
        return or_not_found(store.domains.get(name), "domain", name)

    @routes.get("/domains/{domain}")
    async def get_domain(request: Request) -> Response:
        d = domain_in_path(request)
        zones = sorted((z for z in store.zones.values() if z["domain"] == d["domain"]), key=lambda z: z["subdomain"])
        return JSONResponse(
            {
                **public(d),
                "dns_zones": [public(z) for z in zones],
                "dnssec": {"status": d["dnssec_status"], "ds_records": []},
                "linked_products": [],
            }
        )

    @routes.get("/domains/{domain}/zones")
    async def domain_zones(request: Request) -> Response:
        d = domain_in_path(request)
        return zones_page(request, [z for z in store.zones.values() if z["domain"] == d["domain"]], "subdomain_asc")

    @routes.post("/domains/external-domain", "/external-domains")
    async def register(request: Request) -> Response:
        body = await json_body(request)
        errs = check_unknown(body, {"domain", "project_id"})
        name = domain_name(body.get("domain"))
        if not body.get("domain"):
            errs.append(("domain", "required", "the domain to add"))
        elif name is None:
            errs.append(("domain", "format", f"{body['domain']!r} is not a domain name"))
        if errs:
            raise invalid_arguments(*errs)
        assert name is not None
        project = project_of(body, store)
        owner = store.domain_of(name)
        if owner is not None:
            same = owner["domain"] == name
            raise already_exists(
                "domain",
                f"{name} is already registered"
                if same
                else f"{name} is a sub-domain of {owner['domain']}, which is registered",
            )
        d = store.register_external(name, project)
        return JSONResponse(
            {
                "domain": name,
                "organization_id": d["organization_id"],
                "project_id": d["project_id"],
                "validation_token": d["_token"],
                "created_at": d["created_at"],
            }
        )

    @routes.delete("/external-domains/{domain}")
    async def delete_external(request: Request) -> Response:
        d = domain_in_path(request)
        if not d["is_external"]:
            raise invalid_arguments(
                ("domain", "constraint", f"{d['domain']} is registered here, not an external domain")
            )
        store.delete_domain(d)
        return JSONResponse({})

    # ---- zones -----------------------------------------------------------------------------------
    @routes.get("/dns-zones")
    async def list_zones(request: Request) -> Response:
        q = request.query_params
        order = order_param(request, ZONE_ORDER, "domain_asc")
        items = list(store.zones.values())
        if q.get("domain"):
            wanted = domain_name(q["domain"]) or q["domain"]
            items = [z for z in items if z["domain"] == wanted]
        if q.get("dns_zone"):
            wanted = domain_name(q["dns_zone"]) or q["dns_zone"]
            items = [z for z in items if z["_name"] == wanted]
        names = [domain_name(n) or n for n in q.getlist("dns_zones") if n]
        if names:
            items = [z for z in items if z["_name"] in names]
        if q.get("project_id"):
            items = [z for z in items if z["project_id"] == q["project_id"]]
        if q.get("organization_id") and q["organization_id"] != store.organization_id:
            items = []
        return zones_page(request, items, order)

    @routes.post("/dns-zones")
    async def create_zone(request: Request) -> Response:
        body = await json_body(request)
        errs = check_unknown(body, {"domain", "subdomain", "project_id"})
        domain, sub = domain_name(body.get("domain")), subdomain_name(body.get("subdomain"))
        if not body.get("domain"):
            errs.append(("domain", "required", "the domain of the zone"))
        elif domain is None:
            errs.append(("domain", "format", "a domain name"))
        if sub is None:
            errs.append(("subdomain", "format", "labels of letters, digits and dashes, or empty for the root zone"))
        if errs:
            raise invalid_arguments(*errs)
        assert domain is not None and sub is not None
        project = project_of(body, store)
        if domain not in store.domains:
            raise not_found("domain", domain)
        name = zone_name(domain, sub)
        if name in store.zones:
            raise already_exists("dns_zone", f"the zone {name} exists")
        return JSONResponse(public(store.create_zone(domain, sub, project)))

    @routes.patch("/dns-zones/{dns_zone}")
    async def update_zone(request: Request) -> Response:
        z = zone_in_path(store, request)
        body = await checked_body(request, {"new_dns_zone", "project_id"})
        project = project_of(body, store) if body.get("project_id") else z["project_id"]
        new = body.get("new_dns_zone")
        if new not in (None, "") and new != z["_name"]:
            name = domain_name(new)
            if name is None:
                raise invalid_arguments(("new_dns_zone", "format", "a zone name"))
            if not z["subdomain"]:
                raise invalid_arguments(
                    ("new_dns_zone", "constraint", "a root zone is named after its domain and cannot be renamed")
                )
            if not name.endswith("." + z["domain"]):
                raise invalid_arguments(("new_dns_zone", "constraint", f"a sub-zone of {z['domain']}, as this zone is"))
            if name != z["_name"] and name in store.zones:
                raise already_exists("dns_zone", f"the zone {name} exists")
            store.rename(z, name)
        if project != z["project_id"]:
            z["project_id"] = project
            z["updated_at"] = store.iso()
        return JSONResponse(public(z))

    @routes.delete("/dns-zones/{dns_zone}")
    async def delete_zone(request: Request) -> Response:
        z = zone_in_path(store, request)
        if not z["subdomain"]:
            raise HttpError(403, {"message": "root zone can't be deleted"})
        store.drop_zone(z)
        return JSONResponse({})

    @routes.post("/dns-zones/{dns_zone}/clone")
    async def clone(request: Request) -> Response:
        src = zone_in_path(store, request)
        body = await json_body(request)
        errs = check_unknown(body, {"dest_dns_zone", "overwrite", "project_id"})
        dest_name = domain_name(body.get("dest_dns_zone"))
        if not body.get("dest_dns_zone"):
            errs.append(("dest_dns_zone", "required", "the zone to clone into"))
        elif dest_name is None:
            errs.append(("dest_dns_zone", "format", "a zone name"))
        if errs:
            raise invalid_arguments(*errs)
        assert dest_name is not None
        overwrite = flag(body.get("overwrite"), "overwrite")
        project = project_of(body, store)
        if dest_name == src["_name"]:
            raise invalid_arguments(("dest_dns_zone", "constraint", "a zone other than the one cloned"))
        dest = store.zones.get(dest_name)
        if dest is not None and not overwrite:
            raise already_exists("dns_zone", f"the zone {dest_name} exists: set overwrite to replace its records")
        if dest is None:
            owner = store.domain_of(dest_name)
            if owner is None:
                raise invalid_arguments(
                    ("dest_dns_zone", "constraint", f"{dest_name} is not within one of your domains")
                )
            dest = store.create_zone(
                owner["domain"], dest_name.removesuffix(owner["domain"]).removesuffix("."), project
            )
        else:
            store.editable(dest)
        copied = {}
        for r in src["_records"].values():
            if r["name"] == "" and r["type"] == "NS":
                continue  # the destination has its own automatic NS records
            rid = store.uuid()
            copied[rid] = {**r, "id": rid, "updated_at": store.iso()}
        store.commit(dest, store.with_ns(dest, copied))
        return JSONResponse(public(dest))

    @routes.post("/dns-zones/{dns_zone}/refresh")
    async def refresh(request: Request) -> Response:
        z = zone_in_path(store, request)
        body = await checked_body(request, {"recreate_dns_zone", "recreate_sub_dns_zone"})
        again, again_subs = (
            flag(body.get("recreate_dns_zone"), "recreate_dns_zone"),
            flag(body.get("recreate_sub_dns_zone"), "recreate_sub_dns_zone"),
        )
        zones = [z] + (store.sub_zones(z) if again_subs else [])
        for one in zones:
            if (again if one is z else again_subs) and store.uses_default_ns(one):
                records = store.with_ns(one, one["_records"])
                if len(records) != len(one["_records"]):
                    store.commit(one, records)  # the automatic NS records put back
            one["updated_at"] = store.iso()
        return JSONResponse({"dns_zones": [public(one) for one in zones]})

    # ---- name servers, TSIG key ------------------------------------------------------------------
    @routes.get("/dns-zones/{dns_zone}/nameservers")
    async def get_ns(request: Request) -> Response:
        return JSONResponse({"ns": store.nameservers(zone_in_path(store, request))})

    @routes.put("/dns-zones/{dns_zone}/nameservers")
    async def put_ns(request: Request) -> Response:
        z = zone_in_path(store, request)
        body = await checked_body(request, {"ns"})
        store.set_nameservers(z, check_nameservers(body.get("ns")))
        return JSONResponse({"ns": store.nameservers(z)})

    @routes.get("/dns-zones/{dns_zone}/tsig-key")
    async def get_tsig(request: Request) -> Response:
        return JSONResponse(store.tsig_key(zone_in_path(store, request)))

    @routes.delete("/dns-zones/{dns_zone}/tsig-key")
    async def delete_tsig(request: Request) -> Response:
        z = zone_in_path(store, request)
        if store.tsig.pop(z["_name"], None) is None:
            raise not_found("tsig_key", z["_name"])
        return JSONResponse({})
