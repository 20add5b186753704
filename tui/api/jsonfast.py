"""JSON decoding for response bodies: orjson (a dependency) when it imports, else the json module.

Both raise a ValueError subclass on bad input, so callers catch ValueError either way."""

from __future__ import annotations

from typing import Any, Callable

try:
    from orjson import loads as _loads
except ImportError:  # a platform without an orjson wheel still works, only slower
    from json import loads as _loads

loads: Callable[[bytes | str], Any] = _loads
