"""A list or a resource written out (issue 36, item 2): the rows a list holds — filtered and sorted as
shown — as CSV or JSON, with the fields as the kind declares them; a resource as its JSON. No Textual
here; run it off the UI thread (it reads every row once).

What the API sent is untrusted: a CSV cell that a spreadsheet would read as a formula (`=`, `+`, `-`,
`@` first) is written with a `'` before it, and control characters are escaped as everywhere else.
"""

from __future__ import annotations

import csv
import io
import json
from typing import TYPE_CHECKING, Any, Iterable

from ...api.safe import clean

if TYPE_CHECKING:
    from .base import ResourceKind, Row

FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _fields(kind: ResourceKind, rows: list[Row]) -> list[Any]:
    """The declared fields that read a value from the row (a computed one is shown, not exported), one
    a title (a list's reading and a detail's may share one), and only those some row holds."""
    out: dict[str, Any] = {}
    for f in kind.fields:
        if f.path and f.title not in out and any(f.value(r) is not None for r in rows):
            out[f.title] = f
    return list(out.values())


def _plain(value: object) -> Any:
    if isinstance(value, list):
        return "; ".join(str(_plain(v)) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return value


def cell(value: object) -> str:
    """A CSV cell: cleaned, and quoted as text where a spreadsheet would read a formula."""
    text = clean(str(_plain(value) if value is not None else ""))
    return "'" + text if text.startswith(FORMULA) else text


def as_csv(kind: ResourceKind, rows: Iterable[Row]) -> bytes:
    rows = list(rows)
    fields = _fields(kind, rows)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([f.title for f in fields])
    for row in rows:
        writer.writerow([cell(f.value(row)) for f in fields])
    return out.getvalue().encode("utf-8")


def as_json(kind: ResourceKind, rows: Iterable[Row]) -> bytes:
    """Each row's declared fields by the API's own key paths (`install.os_id`), as a script reads them
    back (a column's short key beside raw ones mixed two namings)."""
    rows = list(rows)
    fields: dict[str, Any] = {}
    for f in _fields(kind, rows):
        fields.setdefault(f.path, f)  # a path read twice (a column's reading and a detail's): its first
    objects = [{path: f.value(row) for path, f in fields.items()} for row in rows]
    return json.dumps(objects, ensure_ascii=False, indent=2, default=str).encode("utf-8")


def resource_json(row: Row) -> bytes:
    """One resource as the API sent it (its one-time secrets were never kept)."""
    data = getattr(row, "raw", None) or getattr(row, "data", {})
    return json.dumps(data, ensure_ascii=False, indent=2, default=str).encode("utf-8")
