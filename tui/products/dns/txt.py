"""A TXT record's text, as the platform keeps it and as a zone file writes it (RFC 1035 §3.3.14, §5.1).

A TXT record publishes character-strings of at most 255 bytes each. The platform keeps its data as
text in either of the two forms the record form takes: plain text (`v=spf1 mx ~all`: one string,
published cut into strings of 255 bytes when longer), or quoted strings when it starts with a quote
(`"v=spf1 include:_spf.example.com; -all" "say \\"hi\\"; ok"`, with `\\"`, `\\\\` and `\\DDD` escapes).
Both are read here to the strings they publish (`strings`), so a record is told apart by what it
answers whichever form it was typed in; a zone file writes those strings (`zone_text`, ASCII); and
the strings a zone file holds are given back in the form the platform keeps (`platform_text`), their
boundaries kept. No pydantic, no dnspython: called for every row of a zone."""

from __future__ import annotations

import re

MAX = 255  # bytes in one character-string
QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"|([^\s"]+)', re.S)
ESCAPE = re.compile(r"\\(\d{3}|.)", re.S)
PRINTABLE = frozenset(range(0x20, 0x7F)) - {ord('"'), ord("\\")}
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def strings(data: str) -> tuple[bytes, ...]:
    """The character-strings a TXT record's data publishes, each cut at 255 bytes."""
    if not data.lstrip().startswith('"'):
        return _cut(data.encode("utf-8"))
    out: list[bytes] = []
    for quoted, bare in QUOTED.findall(data):
        out.extend(_cut(_unescaped(quoted if quoted or not bare else bare)))
    return tuple(out) or (b"",)


def _unescaped(text: str) -> bytes:
    if "\\" not in text:
        return text.encode("utf-8")
    out, at = bytearray(), 0
    for m in ESCAPE.finditer(text):
        out += text[at : m.start()].encode("utf-8")
        code = m.group(1)
        out += bytes([int(code) & 0xFF]) if code.isdigit() else code.encode("utf-8")
        at = m.end()
    out += text[at:].encode("utf-8")
    return bytes(out)


def _cut(raw: bytes) -> tuple[bytes, ...]:
    if len(raw) <= MAX:
        return (raw,)
    return tuple(raw[i : i + MAX] for i in range(0, len(raw), MAX))


def zone_text(data: str) -> str:
    """The record's strings as a zone file writes them: each quoted, in ASCII (`\\DDD` for any other
    byte), so a `;` inside is no comment and nothing unprintable reaches the file."""
    return " ".join(_zone_quoted(s) for s in strings(data))


def _zone_quoted(raw: bytes) -> str:
    out = ['"']
    for b in raw:
        out.append(chr(b) if b in PRINTABLE else "\\" + chr(b) if b in (34, 92) else f"\\{b:03d}")
    out.append('"')
    return "".join(out)


def platform_text(read: tuple[bytes, ...]) -> str:
    """Strings read from a zone file, as the platform keeps them: one plain string as plain text (the
    form's own way), anything else as quoted strings, each boundary and character kept."""
    if len(read) == 1 and _plain(read[0]):
        return read[0].decode("utf-8")
    return " ".join(_platform_quoted(s) for s in read)


def _plain(raw: bytes) -> bool:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return bool(text) and text == text.strip() and '"' not in text and "\\" not in text and not CONTROL.search(text)


def _platform_quoted(raw: bytes) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return _zone_quoted(raw)  # not text: every other byte escaped
    text = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + CONTROL.sub(lambda m: "".join(f"\\{b:03d}" for b in m.group().encode("utf-8")), text) + '"'
