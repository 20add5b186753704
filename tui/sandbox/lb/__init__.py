"""Load balancers of the sandbox (`/lb/v1/regions/{region}`, and `/lb/v1/zones/{zone}` as newer
public clients call them): spec 3 §2.3, §3, §4.3, §8 and spec/4 "Load balancer"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..demo_links import address_of
from ..registry import SandboxProduct
from .routes import routes
from .store import REGIONS, LbStore, Timings

if TYPE_CHECKING:
    import random

__all__ = ["LbStore", "PRODUCT", "REGIONS", "Timings"]

HTTP_CHECK = {
    "port": 80,
    "check_delay": 3000,
    "check_timeout": 1000,
    "check_max_retries": 3,
    "http_config": {"uri": "/health", "method": "GET", "code": 200},
}
TCP_CHECK = {"port": 5432, "check_delay": 5000, "check_timeout": 2000, "check_max_retries": 2, "tcp_config": {}}


def seed_demo(store: LbStore, rng: random.Random) -> None:
    """A load balancer serving web traffic (two backends, two frontends), one whose backup
    instance failed (not highly available), one still being created, one in another region, and
    a kept IP ready for reuse."""
    day = 86_400
    web = store.create(
        "fr-par",
        {"name": "web-lb", "description": "Public web front", "type": "LB-GP-M", "tags": ["web", "prod"]},
        ready=True,
        age=120 * day,
    )
    site = store.add_backend(
        web,
        {
            "name": "web-servers",
            "forward_protocol": "http",
            "forward_port": 80,
            "forward_port_algorithm": "roundrobin",
            "sticky_sessions": "cookie",
            "sticky_sessions_cookie_name": "lb",
            # the demo's web servers (their public addresses: DNS names them too), and one more
            "server_ip": [
                address_of(store.sandbox, "web-01", "10.0.1.11"),
                address_of(store.sandbox, "web-02", "10.0.1.12"),
                "10.0.1.13",
            ],
            "health_check": HTTP_CHECK,
        },
    )
    api = store.add_backend(
        web,
        {
            "name": "api-servers",
            "forward_protocol": "tcp",
            "forward_port": 8443,
            "forward_port_algorithm": "leastconn",
            "server_ip": ["10.0.2.21", "2001:db8::21"],
            "send_proxy_v2": True,
            "health_check": {**TCP_CHECK, "port": 8443},
        },
    )
    store.add_frontend(
        web,
        {
            "name": "http",
            "inbound_port": 80,
            "inbound_protocol": "http",
            "backend_id": site["id"],
            "timeout_client": 30_000,
        },
    )
    store.add_frontend(web, {"name": "api-tls", "inbound_port": 443, "backend_id": api["id"], "timeout_client": 60_000})
    db = store.create(
        "fr-par", {"name": "db-proxy", "description": "Read pool", "type": "LB-S"}, ready=True, age=40 * day
    )
    db["instances"][1]["status"] = "error"
    pool = store.add_backend(
        db,
        {
            "name": "replicas",
            "forward_protocol": "tcp",
            "forward_port": 5432,
            "server_ip": ["10.0.3.31", "10.0.3.32"],
            "health_check": {**TCP_CHECK, "tcp_config": None, "pgsql_config": {"user": "healthcheck"}},
        },
    )
    store.add_frontend(db, {"name": "postgres", "inbound_port": 5432, "backend_id": pool["id"]})
    store.create("fr-par", {"name": "staging-lb", "description": "", "type": "LB-S", "tags": ["staging"]})
    store.new_ip("fr-par")  # kept from a deleted load balancer: `ip_id` reuses it
    store.create(
        "nl-ams", {"name": "ams-edge", "description": "Amsterdam edge", "type": "LB-GP-L"}, ready=True, age=10 * day
    )


PRODUCT = SandboxProduct("lb", "/lb/", LbStore, routes, seed_demo=seed_demo)
