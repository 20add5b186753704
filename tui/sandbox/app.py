"""The sandbox platform as one ASGI app: `Sandbox(...).app`.

Used in process by the tests (httpx.ASGITransport), in a background thread by `cloudtui --demo`,
and by `cloudtui sandbox` under uvicorn. It shares no code with the client on purpose.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any, Callable, Literal

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from .clock import Clock
from .core import DEMO_ORGANIZATION_ID, DEMO_PROJECT_ID, DEMO_SECRET_KEY, FaultRule, Gate, Ids
from .errors import HttpError, denied
from .faults import Faults, FaultSpec
from .registry import SandboxProduct
from .registry import products as registered
from .routing import SegmentRouter

if TYPE_CHECKING:
    from starlette.routing import BaseRoute

    from .baremetal.state import BaremetalStore
    from .container_registry.store import RegistryStore
    from .dns.store import DnsStore
    from .flexible_ip import FipStore
    from .genai.routes import GenaiStore
    from .inference.store import InferenceStore
    from .instance.state import InstanceStore, Timings
    from .kvcache.store import KvcacheStore
    from .lb.store import LbStore
    from .monitoring.store import MonitoringStore
    from .rdb.store import RdbStore
    from .silicon import SiliconStore


class Sandbox:
    # Each product's store, set (`setattr`) under the product's name for each product the sandbox
    # serves; absent for one it does not (a test's own selection of products).
    instance: InstanceStore
    baremetal: BaremetalStore
    silicon: SiliconStore
    fip: FipStore
    rdb: RdbStore
    kvcache: KvcacheStore
    registry: RegistryStore
    lb: LbStore
    dns: DnsStore
    monitoring: MonitoringStore
    inference: InferenceStore
    genai: GenaiStore

    def __init__(
        self,
        *,
        secret_key: str = DEMO_SECRET_KEY,
        seed: Literal["demo", "empty"] = "demo",
        scale: int = 0,
        latency_ms: float = 0.0,
        clock: Clock | None = None,
        timings: Timings | None = None,
        random_seed: int = 42,
        faults: "FaultSpec | str | None" = None,
        products: "list[SandboxProduct] | None" = None,
        options: dict[str, Any] | None = None,
    ) -> None:
        self.secret_key = secret_key
        self.organization_id = DEMO_ORGANIZATION_ID
        self.project_id = DEMO_PROJECT_ID
        self.clock = clock or Clock()
        self.latency = latency_ms / 1000.0
        self.faults: list[FaultRule] = []
        self.requests: deque[tuple[str, str]] = deque(maxlen=100_000)
        self.writes = 0  # requests other than GET and HEAD so far
        self.ids = ids = Ids(random_seed)
        self.options: dict[str, Any] = {"timings": timings, **(options or {})}  # product knobs, read by their `make`
        self.products = registered() + [p for p in (products or []) if p.name not in {r.name for r in registered()}]
        self.stores: dict[str, Any] = {}
        self.auth: list[tuple[str, str]] = []  # (path prefix, scheme): how each product checks the key
        # (path prefix, answer): products answering a bad key their own way
        self.denials: list[tuple[str, Callable[..., Response]]] = []
        routes: list[BaseRoute] = []
        for product in self.products:
            store = product.make(self)
            self.stores[product.name] = store
            setattr(self, product.name, store)
            routes.extend(product.routes(store))
            self.auth.extend([*product.extra_auth, (product.prefix, product.auth)])
            if product.denied is not None:
                deny = product.denied
                self.denials.extend(
                    (prefix, lambda path, s=store, d=deny: d(s, path))
                    for prefix in (product.prefix, *(p for p, _ in product.extra_auth))
                )
            if seed == "demo" and product.seed_demo is not None:
                product.seed_demo(store, ids.rng)
            if scale and product.seed_scale is not None:
                product.seed_scale(store, ids.rng, scale)
        self.fault_spec = FaultSpec.parse(faults) if isinstance(faults, str) else faults
        middleware = [Middleware(Gate, sandbox=self)]
        if self.fault_spec is not None and self.fault_spec.rates:
            middleware.append(Middleware(Faults, spec=self.fault_spec))
        self.app = Starlette(
            middleware=middleware,
            exception_handlers={HttpError: _http_error, 404: _not_routed, 405: _not_allowed},
        )
        self.app.router = SegmentRouter(routes)

    def auth_scheme(self, path: str) -> str:
        return next((scheme for prefix, scheme in self.auth if path.startswith(prefix)), "X-Auth-Token")

    def refuse_key(self, path: str) -> Response:
        """The answer to a request without the right key: the platform's 401, or the product's own."""
        answer = next((deny for prefix, deny in self.denials if path.startswith(prefix)), None)
        return answer(path) if answer is not None else denied().response()

    def inject(
        self, status: int, path_contains: str = "", method: str | None = None, times: int = 1_000_000
    ) -> FaultRule:
        rule = FaultRule(status, path_contains, method, times)
        self.faults.append(rule)
        return rule


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HttpError)
    return exc.response()


async def _not_routed(request: Request, exc: Exception) -> Response:
    return JSONResponse({"type": "not_found", "message": f"no such endpoint: {request.url.path}"}, status_code=404)


async def _not_allowed(request: Request, exc: Exception) -> Response:
    return JSONResponse(
        {"type": "invalid_request_error", "message": f"method {request.method} not allowed here"}, status_code=405
    )
