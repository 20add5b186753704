"""The advisor's findings as files (issue 52, item 2): a CSV cell a spreadsheet would run as a formula is
text, a Markdown cell cannot end its table or open code, JSON keeps every field."""

from __future__ import annotations

import csv
import io
import json

from tui.products.kit.advice import Finding
from tui.products.kit.advice_files import Looked, as_csv, as_json, as_markdown

NOW = Looked("2026-11-29T21:00:00+00:00", "demo, project p", "1 finding")
HOSTILE = Finding(
    "r.x", "A rule", "Paid for nothing", "warning", "k.k", "fr-par-1", "id-1", "=HYPERLINK(\"x\")|`rm`", "why\x1b[2J"
)


def test_a_hostile_name_stays_text_in_every_format():
    cells = list(csv.DictReader(io.StringIO(as_csv([HOSTILE], {HOSTILE.key: 12.5}, (), NOW).decode())))[0]
    assert cells["name"].startswith("'=") and cells["monthly"] == "12.50"
    assert "\x1b" not in cells["why"]
    table_row = as_markdown([HOSTILE], {}, (), NOW).decode().splitlines()[-1]
    assert table_row.count("|") - table_row.count("\\|") == 6, "five cells, whatever the name holds"
    assert "\\`rm\\`" in table_row and "unknown" in table_row
    assert json.loads(as_json([HOSTILE], {}, (), NOW))["findings"][0]["rule"] == "r.x"


def test_every_format_says_when_the_pass_looked_and_marks_a_muted_finding():
    other = Finding("r.y", "Another", "Soon broken", "error", "k.k", "fr-par-1", "id-2", "db", "why")
    muted = {HOSTILE.key}
    looked = Looked(
        "2026-11-29T21:00:00+00:00",
        "demo, project p",
        "2 findings · 1 muted",
        ("Records", "Servers"),
        ("Records of x.org",),
        ("A rule (k.z not read)",),
    )
    whole = json.loads(as_json([HOSTILE, other], {}, muted, looked))
    assert whole["looked_at"] == looked.at and whole["read"] == ["Records", "Servers"]
    assert whole["not_read"] == ["Records of x.org"] and whole["not_run"] == ["A rule (k.z not read)"]
    assert [f["muted"] for f in whole["findings"]] == ["yes", ""]
    cells = list(csv.DictReader(io.StringIO(as_csv([HOSTILE, other], {}, muted, looked).decode())))
    assert [(c["muted"], c["looked_at"], c["profile"]) for c in cells] == [
        ("yes", looked.at, "demo, project p"),
        ("", looked.at, "demo, project p"),
    ]
    text = as_markdown([HOSTILE, other], {}, muted, looked).decode()
    assert f"Looked at {looked.at}, profile demo" in text and "Read: Records, Servers." in text
    assert "Not read whole: Records of x.org." in text and "Rules not run: A rule (k.z not read)." in text
    assert "Rules not run: none." in as_markdown([other], {}, (), NOW).decode()  # said, not left out
    rows = [line for line in text.splitlines() if line.startswith(("| warning", "| error"))]
    assert [row.count("(muted)") for row in rows] == [1, 0]
