"""A prediction's payload as the playground builds it (tui/products/inference/payloads.py): checked
before sending, each refusal saying what is wrong; files read as an operator would hand them over."""

from __future__ import annotations

import base64
import json

import pytest

from tui.products.inference import payloads


@pytest.mark.parametrize(
    "text, says",
    [
        ("instances: [1]", "not JSON"),
        ("[1, 2]", "a JSON object"),
        ('{"data": [1]}', 'under "instances"'),
        ('{"instances": []}', 'under "instances"'),
        (
            '{"image_file": "x.png", "img_mode": "RGBA", "img_format": "channels_last", "img_size": [2, 2]}',
            "img_mode is one of RGB, BGR",
        ),
        (
            '{"image_file": "x.png", "img_mode": "RGB", "img_format": "channels_last", "img_size": [224]}',
            "[height, width]",
        ),
        (
            '{"image_file": "/nowhere/x.png", "img_mode": "RGB", "img_format": "channels_first", "img_size": [2, 2]}',
            "could not be read",
        ),
    ],
)
def test_a_payload_is_refused_before_sending_saying_why(text, says):
    with pytest.raises(ValueError, match=r".*") as caught:
        payloads.body(text)
    assert says in str(caught.value)


def test_arrays_and_strings_go_as_typed_and_inputs_is_the_other_name():
    assert payloads.body('{"instances": [[1, 2], [3, 4]]}') == {"instances": [[1, 2], [3, 4]]}
    assert payloads.body('{"inputs": ["a sentence"]}') == {"inputs": ["a sentence"]}


def test_an_image_is_referred_to_in_the_editor_and_sent_base64(tmp_path):
    image = tmp_path / "cat.PNG"
    image.write_bytes(b"\x89PNG\r\n\x1a\nbytes")
    text = payloads.load(image)
    assert json.loads(text) == {
        "image_file": str(image),
        "img_mode": "RGB",
        "img_format": "channels_last",
        "img_size": [224, 224],
    }
    sent = payloads.body(text)
    assert sent["instances"] == [{"b64": base64.b64encode(image.read_bytes()).decode()}] and "image_file" not in sent
    assert sent["img_size"] == [224, 224]


def test_csv_rows_become_instances_a_header_skipped_and_json_lists_are_wrapped(tmp_path):
    table = tmp_path / "rows.csv"
    table.write_text("a,b,c\n1,2,3\n4.5,5,6\n\n")
    assert json.loads(payloads.load(table)) == {"instances": [[1.0, 2.0, 3.0], [4.5, 5.0, 6.0]]}
    column = tmp_path / "one.csv"
    column.write_text("1\n2\n")
    assert json.loads(payloads.load(column)) == {"instances": [1.0, 2.0]}
    words = tmp_path / "words.csv"
    words.write_text("good film\nbad film\n")
    assert json.loads(payloads.load(words)) == {"instances": ["good film", "bad film"]}
    listed = tmp_path / "list.json"
    listed.write_text("[[1, 2]]")
    assert json.loads(payloads.load(listed)) == {"instances": [[1, 2]]}


def test_a_csv_of_numbers_with_a_row_that_is_not_is_refused_naming_the_row(tmp_path):
    table = tmp_path / "bad.csv"
    table.write_text("1,2,3\n1,abc,3\n")
    with pytest.raises(ValueError, match="row 2 of the CSV is not numbers"):
        payloads.load(table)


def test_an_answer_is_shown_as_the_same_json_each_row_of_numbers_on_as_few_lines_as_fit():
    from hypothesis import given, settings, strategies as st

    from tui.api.safe import clean_tree
    from tui.ui.screens.playground import as_text

    answer = {"predictions": [[round(i * 0.37, 2)] * 30 for i in range(2)], "model": "m"}
    shown = as_text(answer)
    assert json.loads(shown) == answer and max(len(line) for line in shown.splitlines()) <= 72
    assert len(shown.splitlines()) == 15  # not one number a line (67 lines)
    assert as_text({"predictions": [[2.5, 5.0]]}) == '{"predictions": [[2.5, 5.0]]}'

    scalars = (
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=30)
    )
    nested = st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=12) | st.dictionaries(st.text(max_size=10), inner, max_size=6),
        max_leaves=60,
    )
    trees = st.lists(nested, max_size=8) | st.dictionaries(
        st.text(max_size=10), nested, max_size=6
    )  # an answer's body (a text one is shown as it is)

    @settings(max_examples=60, deadline=None)
    @given(trees)
    def same_json(value):
        assert json.loads(as_text(value)) == json.loads(
            json.dumps(clean_tree(value))
        )  # control characters shown, not sent to the terminal

    same_json()
