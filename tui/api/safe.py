"""The one boundary between what the API sends and what can reach the operator's terminal.

Every body the API layer decodes goes through `loads`, every header or bit of text it quotes
through `clean`: control characters (C0, DEL, C1 — ESC among them) become visible escapes such as
`\\x1b`, so a tag like "\\x1b]2;HACKED\\x07" is shown as text instead of retitling the terminal or
writing the clipboard. Keys are cleaned as well as values: the JSON view shows them.

Markup is the other half: API text is never handed to a widget that parses Textual markup (see
`tui.ui.text`). That is a property of the UI; this module only guarantees plain, printable strings.

A fast path keeps large listings cheap: JSON can carry a control character only as an escape
(`\\n`, `\\u001b`, …), as a raw DEL, or as a raw C1 in UTF-8; a body with none of those is decoded
without walking it.
"""

from __future__ import annotations

import re
from typing import Any

try:
    from orjson import loads as _loads
except ImportError:  # a platform without an orjson wheel still works, only slower
    from json import loads as _loads

_CONTROLS = [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)]
_NAMED = {0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r"}
_TABLE = {c: _NAMED.get(c, f"\\x{c:02x}") for c in _CONTROLS}
_HAS_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
# In JSON bytes: a short escape, a \u escape of a control, a raw DEL, or a raw C1 in UTF-8.
_MAY_HOLD_CONTROL = re.compile(rb'\\[bfnrt]|\\u00[0-1][0-9a-fA-F]|\\u007[fF]|\\u00[89][0-9a-fA-F]|\x7f|\xc2[\x80-\x9f]')


_TABLE_LINES = {c: v for c, v in _TABLE.items() if c != 0x0A}


def clean(text: str, keep_newlines: bool = False) -> str:
    """`text` with every control character shown as a visible escape (but line breaks, when
    `keep_newlines`: a multi-line snippet or diff meant to be read as lines)."""
    if _HAS_CONTROL.search(text) is None:
        return text
    return text.translate(_TABLE_LINES if keep_newlines else _TABLE)


def has_control(text: str) -> bool:
    """Whether `text` holds a control character (forms refuse these in names, tags, descriptions)."""
    return _HAS_CONTROL.search(text) is not None


def clean_tree(value: Any) -> Any:
    """A decoded JSON value with every string (keys too) cleaned."""
    if isinstance(value, str):
        return clean(value)
    if isinstance(value, dict):
        return {clean(k) if isinstance(k, str) else k: clean_tree(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clean_tree(v) for v in value]
    return value


def loads(content: bytes | str) -> Any:
    """Decode a JSON body into values safe to show. Raises ValueError on a body that is not JSON."""
    data = _loads(content)
    raw = content.encode() if isinstance(content, str) else content
    # memchr-fast tests first: most bodies have no backslash, DEL or C1 lead byte at all.
    if (b"\\" in raw or b"\x7f" in raw or b"\xc2" in raw) and _MAY_HOLD_CONTROL.search(raw) is not None:
        data = clean_tree(data)
    return data


def text(content: bytes) -> str:
    """A body read as text (user data, an error page), made safe to show."""
    return clean(content.decode("utf-8", "replace"))
