"""Times as people read them, the same everywhere: a list's age, a detail's local time with its zone
and age (the suite runs in UTC: conftest)."""

from __future__ import annotations

from tui.products.kit import times

NOW = 1_768_478_400.0  # 2026-01-15T12:00:00Z


def test_a_list_says_how_long_ago_or_until_and_junk_as_given():
    assert times.short_age("2026-01-15T11:59:15Z", NOW) == "45 s"
    assert times.short_age("2026-01-15T11:48:00Z", NOW) == "12 min"
    assert times.short_age("2026-01-15T07:00:00+00:00", NOW) == "5 h"
    assert times.short_age("2026-01-12T11:59:59.123456+00:00", NOW) == "3 d"
    assert times.short_age("2023-06-01T00:00:00Z", NOW) == "2 y"
    assert times.short_age("2026-01-18T12:00:00Z", NOW) == "in 3 d"
    assert times.short_age("soon\x1b[31m", NOW) == "soon\\x1b[31m"  # not a time: shown as given, cleaned


def test_a_detail_says_the_local_time_to_the_second_with_its_zone_and_age():
    assert times.moment_of("2026-01-15T08:54:55.629917+00:00", NOW) == "2026-01-15 08:54:55 UTC, 3 h 05 min ago"
    assert times.moment_of("2026-01-16T12:00:00Z", NOW) == "2026-01-16 12:00:00 UTC, in 1 d 0 h"
    assert times.second_of("2026-01-15T08:54:55Z") == "2026-01-15 08:54:55 UTC"


def test_the_app_clock_is_the_one_ages_are_read_from():
    times.NOW = lambda: NOW
    try:
        assert times.short_age("2026-01-14T12:00:00Z") == "1 d"
    finally:
        import time

        times.NOW = time.time
