"""What every product's store takes from the sandbox it is made for (`SandboxProduct.make`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from .app import Sandbox
    from .clock import Clock
    from .core import Ids


class ProductStore:
    """A product's store: the sandbox's clock and id generator, the demo organization and project,
    and, for a product whose steps take time, its timings (`t`): those a test or the demo gives in
    `Sandbox(options={timings: ...})`, else `default()`."""

    def __init__(self, sandbox: Sandbox, timings: str = "", default: Callable[[], Any] | None = None) -> None:
        self.sandbox = sandbox  # the other products' stores: demo data links them (a DNS record to a server)
        self.clock: Clock = sandbox.clock
        self.ids: Ids = sandbox.ids
        self.project_id: str = sandbox.project_id
        self.organization_id: str = sandbox.organization_id
        if default is not None:
            self.t = sandbox.options.get(timings) or default()
