"""The chat's limits as the answers' headers report them (spec 3 §8): what is left, and the reset
counted down from when it was said; durations with unit suffixes read as the API writes them."""

from __future__ import annotations

import re

import pytest

from tui.products.kit.views import Gauge
from tui.products.kit.views import openai_chunk
from tui.ui.screens.chat_gauges import gauge_text, seconds_of, unreadable, usage_text, used_up

REQUESTS = Gauge(
    "Requests", "x-ratelimit-remaining-requests", "x-ratelimit-limit-requests", "x-ratelimit-reset-requests"
)


@pytest.mark.parametrize(
    "said, seconds",
    [
        ("12s", 12),
        ("1m0s", 60),
        ("1m30s", 90),
        ("350ms", 0.35),
        ("1h2m", 3720),
        ("2.5s", 2.5),
        ("soon", None),
        ("12", None),
        ("", None),
    ],
)
def test_a_duration_is_read_with_its_units(said, seconds):
    assert seconds_of(said) == (pytest.approx(seconds) if seconds is not None else None)


@pytest.mark.parametrize(
    "elapsed, shown",
    [
        (0, "██░░░░ 5/20 left (resets 41s)"),
        (30.2, "██░░░░ 5/20 left (resets 11s)"),
        (41, "██████ 20/20 left (renewed)"),
    ],
)
def test_a_gauge_counts_its_reset_down_and_is_full_again_once_it_is_over(elapsed, shown):
    headers = {
        "x-ratelimit-remaining-requests": "5",
        "x-ratelimit-limit-requests": "20",
        "x-ratelimit-reset-requests": "41s",
    }
    assert gauge_text(REQUESTS, headers, elapsed) == f"Requests {shown}"


@pytest.mark.parametrize(
    "left, limit, bar",
    [(0, 20, "░░░░░░"), (1, 20, "█░░░░░"), (3, 20, "█░░░░░"), (10, 20, "███░░░"), (19_960, 20_000, "██████")],
)
def test_a_gauge_is_filled_to_the_nearest_sixth_and_not_empty_while_anything_is_left(left, limit, bar):
    headers = {"x-ratelimit-remaining-requests": str(left), "x-ratelimit-limit-requests": str(limit)}
    assert gauge_text(REQUESTS, headers).split()[1] == bar


def test_a_refusal_names_the_spent_limit_and_its_reset_and_nothing_when_headers_are_silent():
    spent = {
        "x-ratelimit-remaining-requests": "0",
        "x-ratelimit-limit-requests": "20",
        "x-ratelimit-reset-requests": "1m0s",
    }
    assert used_up([REQUESTS], spent) == "the Requests limit is used up (0 of 20 left), it resets in 1m0s"
    assert used_up([REQUESTS], {"retry-after": "7"}) == "a limit is reached, retry after 7 s"
    assert used_up([REQUESTS], {}) == ""


@pytest.mark.parametrize("left", ["9" * 400, "-3", "4e3", "twelve", "²", " "])
def test_a_limit_that_is_no_count_is_said_unreadable_never_drawn_nor_raised(left):
    headers = {
        "x-ratelimit-remaining-requests": left,
        "x-ratelimit-limit-requests": "20",
        "x-ratelimit-reset-requests": "9" * 400 + "s",
    }
    assert gauge_text(REQUESTS, headers, 3.0) == "Requests: unreadable (see log)"
    named = [said.split(":")[0] for said in unreadable([REQUESTS], headers)]
    assert named == ["x-ratelimit-remaining-requests", "x-ratelimit-reset-requests"]
    assert "(401 characters)" in unreadable([REQUESTS], headers)[-1]  # the log says what it was, its start only
    assert used_up([REQUESTS], headers) == ""


def test_usage_says_only_the_counts_it_can_read():
    usage = {"prompt_tokens": 2, "completion_tokens": 10**400, "total_tokens": True}
    assert usage_text(usage, 1.0) == "↳ 2 in tokens · 1.0 s"


@pytest.mark.parametrize(
    "data, why",
    [
        ('{"choices": 7}', "choices is 7, not a list"),
        ("[1]", "[1], not a JSON object"),
        ("keep-alive", "not JSON"),
        ('{"choices": [{"delta": {"content": [1]}}]}', "a delta's content is [1], not text"),
    ],
)
def test_an_event_that_is_no_answer_chunk_says_plainly_what_is_wrong(data, why):
    with pytest.raises(ValueError, match=re.escape(why)):
        openai_chunk(data)


def test_a_model_listing_of_another_shape_lists_no_model_rather_than_raising():
    from tui.products.kit.views import openai_models

    assert (
        openai_models([{"id": "m"}]) == []
        and openai_models({"data": 7}) == []
        and openai_models({"data": [{"id": "m"}]}) == ["m"]
    )
