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
    cells = list(csv.DictReader(io.StringIO(as_csv([HOSTILE], {HOSTILE.key: 12.5}).decode())))[0]
    assert cells["name"].startswith("'=") and cells["monthly"] == "12.50"
    assert "\x1b" not in cells["why"]
    table_row = as_markdown([HOSTILE], {}, "read").decode().splitlines()[-1]
    assert table_row.count("|") - table_row.count("\\|") == 6, "five cells, whatever the name holds"
    assert "\\`rm\\`" in table_row and "unknown" in table_row
    assert json.loads(as_json([HOSTILE], {}))[0]["rule"] == "r.x"
