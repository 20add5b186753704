"""What links the demo's products, as an operator's account would be: the public addresses of its
Instance servers, which its load balancer sends to and its DNS records name."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .app import Sandbox


def address_of(sandbox: Sandbox, server_name: str, otherwise: str) -> str:
    """The first public address of the demo's Instance server named so; `otherwise` in a sandbox
    serving no Instance product (a test's own selection)."""
    store = getattr(sandbox, "instance", None)
    if store is None:
        return otherwise
    for servers in store.servers.values():
        for server in servers.values():
            if server["name"] == server_name:
                public = store.render(server)["public_ips"]
                if public:
                    return str(public[0]["address"])
    raise LookupError(f"the demo has no Instance server {server_name!r} with a public address")
