"""What changes between two sets of objects, as an operator reviews it: added (with its values),
changed (each field old → new) and deleted. Used by the staged-change review and by any comparison
of two versions (a DNS zone's, a load balancer's); the console shows it with `ui.dialog("diff")`.
No Textual here: the lines are plain text, marked so they read without colour (+ ~ -)."""

from __future__ import annotations

from typing import Any, Callable, Iterable, Literal, Mapping

from ...api.safe import clean

Op = Literal["add", "change", "delete"]


class Entry:
    """One object's change: `fields` are (field, old, new); an add has old None, a delete none."""

    __slots__ = ("op", "name", "fields")

    def __init__(self, op: Op, name: str, fields: list[tuple[str, Any, Any]]) -> None:
        self.op, self.name, self.fields = op, name, fields

    def lines(self) -> list[str]:
        if self.op == "add":
            return [f"+ add     {self.name}  " + ", ".join(f"{k}={show(new)}" for k, _, new in self.fields)]
        if self.op == "delete":
            return [f"- delete  {self.name}"]
        return [f"~ change  {self.name}", *(f"      {k}: {show(old)} → {show(new)}" for k, old, new in self.fields)]


def compare(
    before: Iterable[dict[str, Any]],
    after: Iterable[dict[str, Any]],
    key: Callable[[dict[str, Any]], str],
    name: Callable[[dict[str, Any]], str] | None = None,
) -> list[Entry]:
    """The entries that turn `before` into `after`, objects matched by `key`: changes and deletes
    in `before`'s order, then adds in `after`'s; an object equal in both is left out."""
    name = name or key
    old = {key(o): o for o in before}
    new = {key(o): o for o in after}
    out: list[Entry] = []
    for k, o in old.items():
        if k not in new:
            out.append(Entry("delete", name(o), []))
        elif new[k] != o:
            n = new[k]
            out.append(
                Entry(
                    "change",
                    name(o),
                    [(f, o.get(f), n.get(f)) for f in dict.fromkeys([*o, *n]) if o.get(f) != n.get(f)],
                )
            )
    out += [Entry("add", name(n), [(f, None, v) for f, v in n.items()]) for k, n in new.items() if k not in old]
    return out


def as_lines(entries: Iterable[Entry]) -> list[str]:
    return [line for e in entries for line in e.lines()]


def counts(entries: list[Entry]) -> str:
    """`1 added, 2 changed, 1 deleted` (what is there)."""
    said = {"add": "added", "change": "changed", "delete": "deleted"}
    return ", ".join(f"{n:,} {said[op]}" for op in said if (n := sum(e.op == op for e in entries))) or "no change"


def show(value: object) -> str:
    """A value as reviewed: nested ones as compact JSON (a DNS record's weighted IPs), not Python's repr."""
    if value in (None, ""):
        return "—"
    if isinstance(value, (dict, list)):
        import json

        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return str(value)


def changes(was: object, now: object, limit: int = 3) -> str:
    """What differs between two readings of one object, one level into its objects, times left out
    (`install.status: completed → to_install`): a look whose state says nothing says this instead."""
    if not isinstance(was, dict) or not isinstance(now, dict):
        return ""

    def said(value: object) -> str:
        text = "none" if value in (None, "") else str(value) if isinstance(value, (str, int, float, bool)) else "…"
        return text if len(text) <= 40 else text[:39] + "…"

    found: list[str] = []
    for key in sorted(was.keys() | now.keys(), key=str):
        a, b = was.get(key), now.get(key)
        if a == b or str(key).startswith("_") or str(key).endswith(("_at", "_date")):  # (`_`: the console's own)
            continue
        if isinstance(a, dict) and isinstance(b, dict):
            found += [
                f"{key}.{sub}: {said(a.get(sub))} → {said(b.get(sub))}"
                for sub in sorted(a.keys() | b.keys(), key=str)
                if a.get(sub) != b.get(sub) and not str(sub).endswith(("_at", "_date"))
            ]
        elif said(a) != "…" or said(b) != "…":  # (a list changed both sides says nothing read so)
            found.append(f"{key}: {said(a)} → {said(b)}")
    return "; ".join(found[:limit]) + (f" (and {len(found) - limit} more)" if len(found) > limit else "")


def edited(
    before: Mapping[str, object], after: Mapping[str, object], labels: Mapping[str, str] | None = None, limit: int = 6
) -> str:
    """What an edit changes, field by field (`Tags: web, prod → web, prod, edge`), said where a production
    profile asks before it is saved: each field by its form's label (`labels`), the value the form opened
    with, then the one sent (a box ticked or not: yes, no). A secret is never shown (a field named for one,
    or holding one, reads •••); a value from the API is cleaned."""
    from ...api.journal import SECRET_WORDS

    def brief(value: object) -> str:
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, list):
            text = ", ".join(str(v) for v in value) or "none"
        else:
            text = show(value)
        text = clean(text)
        return text if len(text) <= 60 else text[:59] + "…"

    found = []
    for key, now in after.items():
        was = before.get(key)
        if was == now:
            continue
        secret = any(w in key.lower() for w in SECRET_WORDS) or hasattr(now, "get_secret_value")
        named = (labels or {}).get(key) or key.replace("_", " ")
        found.append(f"{named}: " + ("•••" if secret else f"{brief(was)} → {brief(now)}"))
    return "; ".join(found[:limit]) + (f" (and {len(found) - limit} more)" if len(found) > limit else "")
