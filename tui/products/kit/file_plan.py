"""What a file read back changes in a list edited as a change set (a kind's `FileFormat` that loads).

Each object read is matched to a row by what tells them apart (`FileFormat.key`), in one pass over
each side — never pair by pair, so ten thousand records cost ten thousand steps. A row the file lacks
is deleted; an object no row matches is added; a match whose other fields (`FileFormat.fields`: a
record's TTL) differ is changed, with just those fields. Rows the file cannot hold (`holds`: a
dynamic record) are never deleted, and an object standing for one is left out, said. Each object added
or changed is checked first (`check`, the kind's create form: the first refused stops the plan, named
by its line). What deleting takes away that deserves a word before anything is staged — what a row's
`vital` says, or more than half the list — is in `warnings`.

Pure logic, no Textual, no I/O: run in a worker thread, the rows a copy of what the list shows."""

from __future__ import annotations

from collections import Counter
from dataclasses import field
from typing import TYPE_CHECKING, Any, Callable

from ...records import record
from .nouns import counted

if TYPE_CHECKING:
    from .base import ParentRef
    from .kind_options import FileFormat


@record
class Plan:
    """The changes a file makes: staged in this order (deletes, changes, adds), so that a record
    replaced by another of its name is gone before the new one arrives."""

    deletes: list[Any] = field(default_factory=list)  # rows
    edits: list[tuple[Any, dict[str, Any]]] = field(default_factory=list)  # (row, the fields changed)
    adds: list[dict[str, Any]] = field(default_factory=list)  # objects, as the create form sends them
    kept: int = 0  # objects read that their row already holds
    left: list[str] = field(default_factory=list)  # objects read standing for rows the file cannot hold
    warnings: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.deletes) + len(self.edits) + len(self.adds)


def plan(
    file: FileFormat,
    read: list[dict[str, Any]],
    rows: list[Any],
    parent: ParentRef | None,
    check: Callable[[dict[str, Any]], dict[str, Any]],
    singular: str = "object",
    label: Callable[[dict[str, Any]], str] = str,
) -> Plan:
    """The changes `read` (the objects of a file) makes to `rows` (the list's rows, none staged).
    `check(obj)` is what the create form sends for it, or raises `flows.Refused` saying why not."""
    assert file.key is not None  # (a file read back has a key: `FileFormat`)
    key, fields = file.key.get(), file.fields
    holds = file.holds.get() if file.holds is not None else (lambda row: True)
    by_key: dict[Any, Any] = {}
    apart: dict[Any, Any] = {}  # rows the file cannot hold, by key: what the file says of them is not staged
    for row in rows:
        (by_key if holds(row) else apart).setdefault(key(row.data, parent), row)
    out, matched = Plan(), set()
    for obj in read:
        k = key(obj, parent)
        row = by_key.get(k)
        if row is None and k in apart:
            out.left.append(label(obj))
            continue
        if row is None:
            out.adds.append(check(obj))
            continue
        matched.add(row.id)
        changed = {f: obj[f] for f in fields if f in obj and obj[f] != row.data.get(f)}
        if not changed:
            out.kept += 1
            continue
        # the object as it would be, by the form's rules (with what the file says of it: its line)
        sent = check({**_public(row.data), **changed, **{k: v for k, v in obj.items() if k.startswith("_")}})
        out.edits.append((row, {f: sent.get(f, changed[f]) for f in changed}))
    out.deletes = [r for r in by_key.values() if r.id not in matched]
    out.warnings = _warnings(file, out.deletes, len(rows), singular)
    return out


def _warnings(file: FileFormat, deletes: list[Any], total: int, singular: str) -> list[str]:
    vital = file.vital.get() if file.vital is not None else (lambda row: None)
    said = Counter(filter(None, (vital(r) for r in deletes)))
    out = [f"{what} ({counted(n, singular)})" for what, n in said.items()]
    if deletes and 2 * len(deletes) > total:
        out.append(f"{len(deletes):,} of the {counted(total, singular)} it holds: more than half")
    return out


def _public(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if not k.startswith("_")}
