"""The advisor's findings as files (issue 52, item 2): CSV for a spreadsheet, JSON for a program, Markdown
for a ticket. Values from the API are cleaned of control characters; a CSV cell that a spreadsheet would
read as a formula is quoted as text (`export.cell`); Markdown escapes what would change its table.
No Textual here."""

from __future__ import annotations

import csv
import io
import json
from typing import TYPE_CHECKING, Container, Mapping

from ...api.safe import clean
from ...records import record
from .export import cell

if TYPE_CHECKING:
    from .advice import Finding


@record(frozen=True)
class Looked:
    """What a pass looked at, as an export says it: when (ISO 8601, to the second, with its offset), the
    profile and project, the findings counted (`summary`), the lists read, not read and the rules not run."""

    at: str
    profile: str
    summary: str
    read: tuple[str, ...] = ()
    not_read: tuple[str, ...] = ()
    not_run: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        """Said in a few lines of text (a ticket's head)."""
        out = [f"Looked at {self.at}, profile {self.profile}: {self.summary}."]
        out.append(f"Read: {', '.join(self.read) or 'nothing'}.")
        out.append(f"Not read whole: {', '.join(self.not_read) or 'none'}.")
        out.append(f"Rules not run: {'; '.join(self.not_run) or 'none'}.")
        return out


TABLE_RULE = "|---|---|---|---|---:|"
COLUMNS = (
    "severity",
    "family",
    "rule",
    "title",
    "kind",
    "scope",
    "parent",
    "id",
    "name",
    "why",
    "monthly",
    "fix",
    "muted",
    "looked_at",
    "profile",
)


def _record(f: Finding, costs: Mapping[str, float | None], muted: Container[str], looked: Looked) -> dict[str, str]:
    monthly = costs.get(f.key)
    return {
        "severity": f.severity,
        "family": f.family,
        "rule": f.rule,
        "title": f.title,
        "kind": f.kind_id,
        "scope": f.scope,
        "parent": clean(f.parent.name) if f.parent is not None else "",
        "id": clean(f.row_id),
        "name": clean(f.name),
        "why": clean(f.why) + (f" ({f.partial})" if f.partial else ""),
        "monthly": f"{monthly:.2f}" if monthly is not None else "",
        "fix": f.fix,
        "muted": "yes" if f.key in muted else "",
        "looked_at": looked.at,
        "profile": clean(looked.profile),
    }


def as_csv(findings: list[Finding], costs: Mapping[str, float | None], muted: Container[str], looked: Looked) -> bytes:
    """One finding a row, each with when the pass looked and whether it is muted."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for f in findings:
        row = _record(f, costs, muted, looked)
        writer.writerow([cell(row[c]) for c in COLUMNS])
    return out.getvalue().encode("utf-8")


def as_json(findings: list[Finding], costs: Mapping[str, float | None], muted: Container[str], looked: Looked) -> bytes:
    """An object: when the pass looked, the profile, the findings counted, the lists read, not read and the
    rules not run, and the findings."""
    records = [
        {k: v for k, v in _record(f, costs, muted, looked).items() if k not in ("looked_at", "profile")}
        for f in findings
    ]
    whole = {
        "looked_at": looked.at,
        "profile": clean(looked.profile),
        "summary": clean(looked.summary),
        "read": [clean(t) for t in looked.read],
        "not_read": [clean(t) for t in looked.not_read],
        "not_run": [clean(t) for t in looked.not_run],
        "findings": records,
    }
    return json.dumps(whole, indent=2, ensure_ascii=False).encode("utf-8")


def _md(text: str) -> str:
    """Text for a Markdown table's cell: nothing in it ends the cell, opens code or breaks the line."""
    for char in ("\\", "|", "`", "*", "_", "[", "]", "<", ">"):
        text = text.replace(char, "\\" + char)
    return clean(text).replace("\n", " ")


def as_markdown(
    findings: list[Finding], costs: Mapping[str, float | None], muted: Container[str], looked: Looked
) -> bytes:
    """A ticket's text: when the pass looked, what was read, not read and not run, then one table per
    family, the most severe first; a muted finding marked so."""
    lines = ["# What needs attention", ""]
    for line in looked.lines():
        lines += [_md(line), ""]
    family = ""
    for f in findings:
        if f.family != family:
            family = f.family
            lines += ["", f"## {family}", "", "| severity | resource | where | why | a month |", TABLE_RULE]
        row = _record(f, costs, muted, looked)
        scope = row["scope"] if row["scope"] not in ("global", "all") else ""
        where = " · ".join(p for p in (row["parent"], scope) if p)
        money = f"€{row['monthly']}" if row["monthly"] else "unknown"
        muted_mark = " (muted)" if row["muted"] else ""
        lines.append(
            f"| {f.severity} | {_md(row['name'])} ({_md(f.kind_id)}){muted_mark} | {_md(where)} | {_md(row['title'])}: "
            f"{_md(row['why'])} | {money} |"
        )
    return ("\n".join(lines) + "\n").encode("utf-8")
