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

# Control characters (C0, DEL, C1) are shown as \\xNN (tab, line feed, return by name). Characters
# that change how the text around them reads without showing are shown as \\uXXXX: bidirectional
# controls (a name ending in U+202E + "gnp.exe" reads "exe.png"), zero-width ones (two names that
# look the same), and lone surrogates (not text at all).
_HAS_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff\ud800-\udfff]")
# In JSON bytes: a short escape, a \u escape of a control or an invisible character, a raw DEL, a
# raw C1 in UTF-8, or one of the invisible characters in UTF-8.
_MAY_HOLD_CONTROL = re.compile(
    rb'\\[bfnrt]|\\u00[0-1][0-9a-fA-F]|\\u007[fF]|\\u00[89][0-9a-fA-F]|\\u061[cC]|\\u180[eE]|\\u20[0-6][0-9a-fA-F]|\\u[fF][eE][fF][fF]'
    rb'|\\u[dD][89a-fA-F]|\x7f|\xc2[\x80-\x9f]|\xe2\x80[\x8b-\x8f\xaa-\xae]|\xe2\x81[\xa0\xa6-\xa9]|\xef\xbb\xbf|\xd8\x9c|\xe1\xa0\x8e'
)
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    return _NAMED.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def _escape_but_newlines(match: re.Match[str]) -> str:
    return "\n" if match.group() == "\n" else _escape(match)


def clean(text: str, keep_newlines: bool = False) -> str:
    """`text` with every control character shown as a visible escape (but line breaks, when
    `keep_newlines`: a multi-line snippet or diff meant to be read as lines)."""
    if _HAS_CONTROL.search(text) is None:
        return text
    return _HAS_CONTROL.sub(_escape_but_newlines if keep_newlines else _escape, text)


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
    """Decode a JSON body into values safe to show. Raises ValueError on a body that is not JSON.
    A credential inside a URL comes back as a `Masked` string (see there)."""
    raw = content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content
    try:
        data = _loads(raw)
    except ValueError:
        # orjson refuses a lone surrogate escape (\\ud800) that JSON allows: the standard decoder
        # takes it, and `clean` shows it. Anything else that is not JSON is still refused.
        import json

        data = json.loads(raw.decode("utf-8", "replace"))
    # memchr-fast tests first: most bodies have no backslash, DEL, C1 or invisible-character lead byte.
    if (b"\\" in raw or b"\x7f" in raw or b"\xc2" in raw or b"\xe2" in raw or b"\xef" in raw or b"\xd8" in raw or b"\xe1" in raw) \
            and _MAY_HOLD_CONTROL.search(raw) is not None:
        data = clean_tree(data)
    if b"@" in raw and b"://" in raw and _USERINFO_BYTES.search(raw) is not None:
        data = mask_tree(data)
    return data


# ---- credentials inside URLs ---------------------------------------------------------------------
# scheme://userinfo@ — userinfo holds no '/', '?', '#', '@' or white space (RFC 3986 §3.2.1)
_USERINFO = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*://)([^\s/?#@\"]+)@")
_USERINFO_BYTES = re.compile(rb"[A-Za-z][A-Za-z0-9+.\-]*://[^\s/?#@\"]+@")
SECRET_MASK = "•••"


def mask_userinfo(text: str) -> str:
    """`text` with the credential of every URL in it masked: `vnc://user:secret@host` becomes
    `vnc://user:•••@host`, and a lone user part (often a token: `https://ghp_x@host`) becomes
    `https://•••@host`. For what reaches a screen, a log or a message (proxy settings, API data)."""
    if "@" not in text or "://" not in text:
        return text
    return _USERINFO.sub(_masked, text)


def _masked(m: re.Match[str]) -> str:
    user, colon, _ = m.group(2).partition(":")
    return f"{m.group(1)}{user}:{SECRET_MASK}@" if colon else f"{m.group(1)}{SECRET_MASK}@"


class Masked(str):
    """A string from the API that holds a credential inside a URL. Its text is the URL with the
    credential masked, so every place that shows it — a column, a detail, the JSON view, a log line,
    a copy dialog — shows it masked; `.secret` is the value as the API sent it, for the operator to
    reveal or copy on request (see `credentials`)."""

    secret: str

    def __new__(cls, original: str) -> "Masked":
        made = super().__new__(cls, mask_userinfo(original))
        made.secret = original
        return made


def mask_tree(value: Any) -> Any:
    """A decoded JSON value with every string holding a URL credential made `Masked`."""
    if isinstance(value, str):
        return Masked(value) if _USERINFO.search(value) else value
    if isinstance(value, dict):
        return {k: mask_tree(v) for k, v in value.items()}
    if isinstance(value, list):
        return [mask_tree(v) for v in value]
    return value


def credentials(value: Any, path: str = "") -> dict[str, str]:
    """Every `Masked` string in a decoded value, by its place ("vnc_url", "nodes[0].url"): what
    "reveal" offers for an object."""
    if isinstance(value, Masked):
        return {path or "value": value.secret}
    out: dict[str, str] = {}
    if isinstance(value, dict):
        for k, v in value.items():
            out.update(credentials(v, f"{path}.{k}" if path else str(k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.update(credentials(v, f"{path}[{i}]"))
    return out


def text(content: bytes) -> str:
    """A body read as text (user data, an error page), made safe to show."""
    return clean(content.decode("utf-8", "replace"))
