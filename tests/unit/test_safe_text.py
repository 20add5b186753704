"""Text from the API reads as it is: bidirectional controls, zero-width characters and lone
surrogates are shown as visible escapes like control characters, and one odd character never
costs a whole listing."""

from __future__ import annotations

import json

import pytest

from tui.api import safe
from tui.api.paging import _decode


@pytest.mark.parametrize(
    "char", ["\u202e", "\u202a", "\u2066", "\u2069", "\u200b", "\u200d", "\u2060", "\ufeff", "\u061c"]
)
@pytest.mark.parametrize("how", ["raw", "escaped"])
def test_invisible_characters_are_made_visible(char, how):
    name = f"invoice{char}gnp.exe"
    body = json.dumps({"name": name}, ensure_ascii=how == "escaped").encode()
    shown = safe.loads(body)["name"]
    assert char not in shown and f"\\u{ord(char):04x}" in shown
    assert safe.has_control(name)  # a form refuses it in a name


def test_a_lone_surrogate_is_shown_and_the_list_kept():
    page = b'{"clusters": [{"id": "a", "tags": ["ok", "bad\\ud800"]}, {"id": "b", "tags": []}], "total_count": 2}'
    items, total = _decode(page, "clusters", None)
    assert total == 2 and [i["id"] for i in items] == ["a", "b"]
    assert items[0]["tags"][1] == "bad\\ud800"


def test_ordinary_unicode_is_left_alone():
    text = "café — naïve 名前 🙂 •"
    assert safe.loads(json.dumps({"n": text}, ensure_ascii=False).encode())["n"] == text


def test_nan_and_infinity_are_kept_as_received():
    """Issue 32, item 15: `NaN` where the API promises a string was decoded to a float ("Created inf")."""
    data = safe.loads(b'{"name": Infinity, "a": NaN, "b": -Infinity, "c": 1e999, "d": [1.5, -2e-400], "e": "\\ud800"}')
    assert data == {"name": "Infinity", "a": "NaN", "b": "-Infinity", "c": "1e999", "d": [1.5, -0.0], "e": "\\ud800"}


@pytest.mark.parametrize(
    "value, shown",
    [
        ("2026-01-15T12:00:00Z", "2026-01-15"),
        ("not a date at all", "not a date at all"),  # whole, not 'not a date'
        ("2026-13-45T99", "2026-13-45T99"),  # junk that starts like a date does not pass for one
        ("bad\x1b[31mred", "bad\\x1b[31mred"),
        ("x" * 300, "x" * 39 + "…"),
        (None, ""),
    ],
)
def test_a_date_field_holding_junk_shows_it_whole_or_cut_with_a_mark(value, shown):
    """Monitoring 'Activated', a namespace's 'Updated', a tag's 'Created' cut junk to ten characters unmarked."""
    from tui.products.kit.format import date_of

    assert date_of(value) == shown
