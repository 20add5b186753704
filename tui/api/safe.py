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

import math
import re
from typing import Any, Callable

_loads: Callable[[str | bytes], Any]
try:
    from orjson import loads as _loads
except ImportError:  # a platform without an orjson wheel still works, only slower
    from json import loads as _loads

# Control characters (C0, DEL, C1) are shown as \\xNN (tab, line feed, return by name). Characters
# that change how the text around them reads without showing are shown as \\uXXXX: bidirectional
# controls (a name ending in U+202E + "gnp.exe" reads "exe.png"), zero-width ones (two names that
# look the same), and lone surrogates (not text at all).
_HAS_CONTROL = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff\ud800-\udfff]"
)
# In JSON bytes: a short escape, a \u escape of a control or an invisible character, a raw DEL, a
# raw C1 in UTF-8, or one of the invisible characters in UTF-8.
_MAY_HOLD_CONTROL = re.compile(
    rb"\\[bfnrt]|\\u00[0-1][0-9a-fA-F]|\\u007[fF]|\\u00[89][0-9a-fA-F]|\\u061[cC]|\\u180[eE]"
    rb"|\\u20[0-6][0-9a-fA-F]|\\u[fF][eE][fF][fF]|\\u[dD][89a-fA-F]|\x7f|\xc2[\x80-\x9f]"
    rb"|\xe2\x80[\x8b-\x8f\xaa-\xae]|\xe2\x81[\xa0\xa6-\xa9]|\xef\xbb\xbf|\xd8\x9c|\xe1\xa0\x8e"
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


def cut(text: str, most: int) -> str:
    """`text` in at most `most` characters, cut with "…" (a name from the API may be any length: a
    5,000-character one must not fill a dialog or a notification)."""
    return text if len(text) <= most else text[: most - 1] + "…"


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


# An answer nested deeper than this is unreadable like one that is not JSON (the client retries a
# read, says a write may have been applied): every walk of a value (cleaning, masking, the JSON
# view, a diff) then stays far from Python's recursion limit. The platform's answers nest < 10.
MAX_DEPTH = 100
# A body larger than this is decoded in a worker thread (see `client`): every pass here is linear,
# but a few milliseconds per megabyte is still a frame the UI would miss.
LARGE_BODY = 1_000_000
DEPTH_WALKED = 64_000  # bytes: bodies up to this size are walked for their depth (a page of servers is more)


def _deeper(value: dict[str, Any] | list[Any], limit: int) -> bool:
    """Whether `value` nests more than `limit` containers deep (level by level: no recursion)."""
    level: list[Any] = [value]
    for _ in range(limit):
        level = [
            child
            for v in level
            for child in (v.values() if isinstance(v, dict) else v)
            if isinstance(child, (dict, list))
        ]
        if not level:
            return False
    return True


def _float_or_text(text: str) -> float | str:
    number = float(text)
    return number if math.isfinite(number) else text


def loads(content: bytes | str) -> Any:
    """Decode a JSON body into values safe to show. Raises ValueError on a body that is not JSON
    or nests deeper than `MAX_DEPTH`.
    A credential inside a URL comes back as a `Masked` string (see there)."""
    raw = content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content
    try:
        data = _loads(raw)
    except ValueError:
        # orjson refuses a lone surrogate escape (\\ud800) that JSON allows: the standard decoder
        # takes it, and `clean` shows it. It also refuses NaN, Infinity and a number too large for
        # a float (1e999), which the standard decoder would turn into nan and inf ("Created inf"
        # for a name): they are kept as the text received. Anything else not JSON is still refused.
        import json

        try:
            data = json.loads(raw.decode("utf-8", "replace"), parse_constant=str, parse_float=_float_or_text)
        except RecursionError:  # deeper than orjson's 1,024 levels
            raise ValueError(f"nested deeper than {MAX_DEPTH} levels") from None
    # Too deep to read: checked by a walk on bodies small enough for it to be cheap (a deep body is
    # small: 1,000 levels are a few kB; walking a 20 MB page of servers took ~300 ms); on a larger
    # one, orjson refuses past 1,024 levels and the passes below say RecursionError, made the same error.
    # Counted on small bodies only (two passes over each 240 kB page of servers cost ~0.3 ms): a body
    # with fewer openers cannot be that deep.
    small = len(raw) < DEPTH_WALKED
    if (
        small
        and raw.count(b"[") + raw.count(b"{") > MAX_DEPTH
        and isinstance(data, (dict, list))
        and _deeper(data, MAX_DEPTH)
    ):
        raise ValueError(f"nested deeper than {MAX_DEPTH} levels")
    try:
        # memchr-fast tests first: most bodies have no backslash, DEL, C1 or invisible-character lead byte.
        if (
            b"\\" in raw
            or b"\x7f" in raw
            or b"\xc2" in raw
            or b"\xe2" in raw
            or b"\xef" in raw
            or b"\xd8" in raw
            or b"\xe1" in raw
        ) and _MAY_HOLD_CONTROL.search(raw) is not None:
            data = clean_tree(data)
        opened = raw.find(b"://")
        if opened >= 0 and raw.rfind(b"@") > opened:
            data = mask_tree(data)
    except RecursionError:
        raise ValueError(f"nested deeper than {MAX_DEPTH} levels") from None
    return data


# ---- credentials inside URLs ---------------------------------------------------------------------
# One linear pass, no regular expression (a scheme pattern backtracks over a long run of letters:
# a 100 KB name took 30 s). Each "://" opens an authority that ends, as `urllib.parse.urlsplit`
# reads it, at the first '/', '?' or '#'; its userinfo ends at the last '@' inside it, so a password
# may hold '@', spaces or quotes. A password may also hold '/', '?' or '#', which a parser would take
# for the path: once a URL carries a `user:password` (or an authority with a ':' and an '@' after
# it), its userinfo runs to the last '@' of the text. That may mask more of a free text than the credential;
# it never shows part of one.
SECRET_MASK = "•••"


def _not_host_port(authority: str) -> bool:
    """Whether an authority without '@' (and an '@' later in the text) may be `user:password`
    whose password holds '/', '?' or '#': any ':' outside an IPv6 literal. `https://h:8443/a@b` is
    masked too: from the text alone it cannot be told from `vnc://m1:8443/x@h`."""
    return ":" in authority and not authority.startswith("[")


def _userinfo_end(text: str, start: int, last_at: int) -> int:
    """Where the userinfo of the authority opened at `start` ends (the '@'), or -1 when it has none."""
    end = len(text)
    for delimiter in "/?#":
        found = text.find(delimiter, start, end)
        if found >= 0:
            end = found
    at = text.rfind("@", start, end)
    if at >= 0:
        return last_at if ":" in text[start:at] else at
    return last_at if last_at > start and _not_host_port(text[start:end]) else -1


def mask_userinfo(text: str) -> str:
    """`text` with the credential of every URL in it masked: `vnc://user:secret@host` becomes
    `vnc://user:•••@host` (the whole password, whatever it holds), and a lone user part (often a
    token: `https://ghp_x@host`) becomes `https://•••@host`. Linear in the text's length. For what
    reaches a screen, a log or a message (proxy settings, API data)."""
    if "@" not in text or "://" not in text:
        return text
    last_at = text.rfind("@")
    parts: list[str] = []
    shown = 0  # text[:shown] is in parts
    opened = text.find("://")
    while 0 <= opened < last_at:
        start = opened + 3
        at = _userinfo_end(text, start, last_at)
        if at < 0:
            opened = text.find("://", start)
            continue
        user, colon, _ = text[start:at].partition(":")
        parts += [text[shown:start], f"{user}:{SECRET_MASK}@" if colon else f"{SECRET_MASK}@"]
        shown = at + 1
        opened = text.find("://", shown)
    return "".join(parts) + text[shown:] if parts else text


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
        return Masked(value) if "@" in value and "://" in value and mask_userinfo(value) != value else value
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


def decode_object(content: bytes) -> dict[str, Any]:
    """A body as a dict, made safe to show; {} for an empty body; ValueError when not JSON."""
    if not content.strip():
        return {}
    data = loads(content)
    return data if isinstance(data, dict) else {"items": data}
