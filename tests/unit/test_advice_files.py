"""The advisor's findings as files (issue 52, item 2): a CSV cell a spreadsheet would run as a formula is
text, a Markdown cell cannot end its table or open code, JSON keeps every field."""

from __future__ import annotations

import csv
import io
import json

from tui.products.kit.advice import Finding
from tui.products.kit.advice_files import as_csv, as_json, as_markdown

HOSTILE = Finding(
    "r.x", "A rule", "Paid for nothing", "warning", "k.k", "fr-par-1", "id-1", "=HYPERLINK(\"x\")|`rm`", "why\x1b[2J"
)


def test_a_hostile_name_stays_text_in_every_format():
    cells = list(csv.DictReader(io.StringIO(as_csv([HOSTILE], {HOSTILE.key: 12.5}, (), "now").decode())))[0]
    assert cells["name"].startswith("'=") and cells["monthly"] == "12.50"
    assert "\x1b" not in cells["why"]
    table_row = as_markdown([HOSTILE], {}, (), "now", "read").decode().splitlines()[-1]
    assert table_row.count("|") - table_row.count("\\|") == 6, "five cells, whatever the name holds"
    assert "\\`rm\\`" in table_row and "unknown" in table_row
    assert json.loads(as_json([HOSTILE], {}, (), "now", "read"))["findings"][0]["rule"] == "r.x"


def test_every_format_says_when_the_pass_looked_and_marks_a_muted_finding():
    other = Finding("r.y", "Another", "Soon broken", "error", "k.k", "fr-par-1", "id-2", "db", "why")
    muted, at, said = {HOSTILE.key}, "2026-11-29 21:00 UTC", "2 findings · not read: Records of x.org (not read whole)"
    whole = json.loads(as_json([HOSTILE, other], {}, muted, at, said))
    assert whole["looked_at"] == at and whole["read"] == said
    assert [f["muted"] for f in whole["findings"]] == ["yes", ""]
    cells = list(csv.DictReader(io.StringIO(as_csv([HOSTILE, other], {}, muted, at).decode())))
    assert [(c["muted"], c["looked_at"]) for c in cells] == [("yes", at), ("", at)]
    text = as_markdown([HOSTILE, other], {}, muted, at, said).decode()
    assert f"Looked at {at}." in text and "not read: Records of x.org" in text
    rows = [line for line in text.splitlines() if line.startswith(("| warning", "| error"))]
    assert [row.count("(muted)") for row in rows] == [1, 0]
