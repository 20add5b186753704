"""The async API layer: client, typed errors, pagination. No Textual imports here."""

from __future__ import annotations

import sys
import types


def _skip_httpx_cli() -> None:
    """httpx imports its optional command line (click, pygments) at import time, ~30 ms of start-up
    for a feature cloudtui never uses; give it a stand-in unless httpx is already loaded."""
    if "httpx" in sys.modules or "httpx._main" in sys.modules:
        return
    stub = types.ModuleType("httpx._main")

    def main() -> None:
        raise SystemExit("the httpx command line is not available inside cloudtui")

    stub.main = main  # type: ignore[attr-defined]
    sys.modules["httpx._main"] = stub


_skip_httpx_cli()
