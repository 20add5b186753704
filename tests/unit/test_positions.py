"""The search over positions that finds the rows deleted elsewhere (`products.kit.positions`)."""

from __future__ import annotations

import asyncio

from hypothesis import given, settings, strategies as st

from tui.products.kit.positions import gone


class Listed:
    """A list as the API pages it with one row a page; counts what is asked."""

    def __init__(self, ids: list[str]) -> None:
        self.ids = ids
        self.asked = 0

    async def at(self, i: int) -> str | None:
        self.asked += 1
        return self.ids[i] if i < len(self.ids) else None

    async def all_gone(self, ids: list[str]) -> bool:
        self.asked += len(ids)
        return not set(ids) & set(self.ids)


def search(held: list[str], listed: Listed, budget: int = 10_000) -> list[str] | None:
    return asyncio.run(gone(held, len(listed.ids), listed.at, listed.all_gone, budget))


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 400), st.sets(st.integers(0, 399), max_size=6))
def test_the_rows_deleted_are_found_and_only_they(n: int, deleted: set[int]) -> None:
    held = [f"s{i}" for i in range(n)]
    gone_ids = {held[i] for i in deleted if i < n}
    listed = Listed([h for h in held if h not in gone_ids])
    found = search(held, listed)
    assert found is not None and set(found) == gone_ids and len(found) == len(gone_ids)


def test_one_deleted_in_ten_thousand_costs_a_binary_search_and_a_get() -> None:
    held = [f"s{i}" for i in range(10_000)]
    listed = Listed(held[:6666] + held[6667:])
    assert search(held, listed) == ["s6666"]
    assert listed.asked <= 14 + 1


@settings(max_examples=200, deadline=None)
@given(st.integers(3, 200), st.data())
def test_an_order_held_that_is_not_the_lists_never_takes_out_a_row_that_is_there(n: int, data: st.DataObject) -> None:
    """Rows created elsewhere put in the wrong place: the search may be misled, but what it finds is
    confirmed gone by its GET, so at worst the answer is "list again"."""
    listed_ids = [f"s{i}" for i in range(n)]
    i = data.draw(st.integers(0, n - 2))
    held = list(listed_ids)
    held[i], held[i + 1] = held[i + 1], held[i]  # held out of the list's order
    extra = data.draw(st.integers(0, n))
    held.insert(extra, "deleted")
    found = search(held, Listed(listed_ids))
    assert found is None or found == ["deleted"]


def test_more_listed_than_held_or_over_budget_is_a_relist() -> None:
    held = [f"s{i}" for i in range(1000)]
    assert search(held, Listed([*held, "new"])) is None  # added deep: the search cannot find it
    listed = Listed(held[:10] + held[11:500] + held[501:])
    assert search(held, listed, budget=15) is None and listed.asked == 0  # two searches of 11 cost more than 15
    assert search(held, Listed(held)) == []
