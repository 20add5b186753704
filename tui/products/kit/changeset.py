"""Staged edits over a list: add, change and delete rows locally, review them as a diff, send them
in one request built by the kind (`ResourceKind.batch`), keep them when the send fails.

The set is laid over whatever the list shows (`overlay`), so a refresh neither loses nor hides it:
a staged row is shown with its mark (+ added, ~ changed, - to delete; ? sent, its outcome unknown).
Pure logic: no Textual, no I/O.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any, Callable, Iterable, Literal

from ...records import record

Op = Literal["add", "edit", "delete"]
MARKS = {"add": "+", "edit": "~", "delete": "-"}
UNKNOWN = "?"  # the mark of a change sent whose outcome is unknown (it may have been applied)
STAGED = "_staged"  # the row field holding a staged row's mark


@record
class Change:
    op: Op
    key: str  # the row id (a new row gets "+1", "+2", …)
    before: dict[str, Any] = field(default_factory=dict)  # the row as it was when staged (edit, delete)
    after: dict[str, Any] = field(default_factory=dict)  # what is sent (add: the object; edit: the fields changed)
    unknown: bool = False  # sent, its answer lost, and no look could tell whether it was applied


class ChangeSet:
    def __init__(self) -> None:
        self._changes: dict[str, Change] = {}
        self._added = 0

    def __len__(self) -> int:
        return len(self._changes)

    def __bool__(self) -> bool:
        return bool(self._changes)

    @property
    def changes(self) -> list[Change]:
        return list(self._changes.values())

    def get(self, key: str) -> Change | None:
        return self._changes.get(key)

    def add(self, data: dict[str, Any]) -> str:
        self._added += 1
        key = f"+{self._added}"
        self._changes[key] = Change("add", key, {}, dict(data))
        return key

    def edit(self, key: str, before: dict[str, Any], patch: dict[str, Any]) -> None:
        """Change a row: a new row's object is updated in place; an existing row's patches merge."""
        current = self._changes.get(key)
        if current is not None and current.op == "add":
            current.after.update(patch)
        elif current is not None and current.op == "edit":
            current.after.update(patch)
        else:
            self._changes[key] = Change("edit", key, _public(before), dict(patch))

    def delete(self, key: str, before: dict[str, Any]) -> None:
        """Mark a row for deletion (a new row is simply dropped)."""
        current = self._changes.get(key)
        if current is not None and current.op == "add":
            del self._changes[key]
            return
        self._changes[key] = Change("delete", key, current.before if current else _public(before))

    @property
    def unknown(self) -> list[Change]:
        """The changes sent whose outcome is unknown: they may already be applied."""
        return [c for c in self._changes.values() if c.unknown]

    def mark_unknown(self, keys: Iterable[str] | None = None) -> None:
        """The changes (`keys`; every one by default) were sent and their outcome is unknown (see
        `outcome.OutcomeUnclear`)."""
        for change in self._changes.values() if keys is None else filter(None, map(self._changes.get, keys)):
            change.unknown = True

    def applied(self, keys: Iterable[str]) -> None:
        """These changes were applied (part of a batch sent in several requests): no longer staged."""
        for key in keys:
            self._changes.pop(key, None)

    def undo(self, key: str) -> bool:
        return self._changes.pop(key, None) is not None

    def clear(self) -> None:
        self._changes.clear()

    def overlay(
        self, rows: Iterable[Any], make_row: Callable[[dict[str, Any]], Any], id_field: str = "id"
    ) -> list[Any]:
        """The rows as they will be: staged changes laid over what the list has now (fresh rows keep
        their staged change; added rows follow)."""
        out = []
        for row in rows:
            change = self._changes.get(row.id)
            out.append(row if change is None else make_row(laid(change, row.data, id_field)))
        for change in self._changes.values():
            if change.op == "add":
                out.append(make_row(laid(change, {}, id_field)))
        return out

    def entries(self, name: Callable[[dict[str, Any]], str]) -> list[Any]:
        """The staged changes as a diff's entries (`products.kit.diff`), to review before sending."""
        from .diff import Entry

        out = []
        for c in self._changes.values():
            said = UNSURE if c.unknown else ""
            if c.op == "add":
                # an empty value says nothing (the name of a zone's root, "", is in its label as @)
                out.append(
                    Entry(
                        "add", name(c.after) + said, [(k, None, v) for k, v in c.after.items() if v not in (None, "")]
                    )
                )
            elif c.op == "delete":
                out.append(Entry("delete", (name(c.before) or c.key) + said, []))
            else:
                out.append(
                    Entry(
                        "change",
                        (name(c.before) or c.key) + said,
                        [(k, c.before.get(k), v) for k, v in c.after.items()],
                    )
                )
        return out

    def diff(self, name: Callable[[dict[str, Any]], str]) -> list[str]:
        """One line per change (and per changed field), as plain text."""
        from .diff import as_lines

        return as_lines(self.entries(name))


UNSURE = "  (? sent before, outcome unknown: looked for first)"


def laid(change: Change, data: dict[str, Any], id_field: str = "id") -> dict[str, Any]:
    """A row's data as its staged change shows it (`data`: the row as listed; nothing for an add)."""
    if change.op == "add":
        return {**change.after, id_field: change.key, STAGED: mark(change)}
    if change.op == "edit":
        return {**data, **change.after, STAGED: mark(change)}
    return {**data, STAGED: mark(change)}


def mark(change: Change) -> str:
    """The mark a staged row shows: its op's, or `?` when it was sent and its outcome is unknown."""
    return UNKNOWN if change.unknown else MARKS[change.op]


def _public(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if not k.startswith("_")}
