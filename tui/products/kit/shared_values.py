"""One copy of each list that repeats across the rows of a listing.

JSON decoding makes new objects for every occurrence: 50,000 servers hold 50,000 copies of the same
five allowed actions and the same tags — a list and its strings, about 550 of the 1,780 bytes a
server row keeps. A listing's rows share one copy of each equal list instead (rows are read, never
changed in place: a form that edits tags copies them). Every `CHECK` rows, a field that has shown
no list, or more than `MOST` different ones (addresses of each server), stops being looked at.
Strings are not shared one by one: a look-up per field and row costs more time than it saves.
"""

from __future__ import annotations

from typing import Any, Iterable

PLAIN = (str, int, float, bool, type(None))
MOST = 512  # different lists above which a field is taken as unique per row
CHECK = 256  # rows between looks at which fields are worth sharing


class SharedValues:
    def __init__(self, fields: Iterable[str]) -> None:
        self.active: list[tuple[str, dict[tuple[Any, ...], list[Any]]]] = [(f, {}) for f in fields]
        self.rows = 0

    def share(self, slim: dict[str, Any]) -> None:
        """Replace in `slim` each list of a shared field by the listing's copy of an equal list."""
        for field, pool in self.active:
            value = slim.get(field)
            # Plain strings and numbers only: a masked credential equals its mask, not its secret.
            if value.__class__ is list and all(v.__class__ in PLAIN for v in value):
                slim[field] = pool.setdefault(tuple(value), value)
        self.rows += 1
        if self.rows % CHECK == 0:
            self.active = [(f, p) for f, p in self.active if 0 < len(p) <= MOST]
