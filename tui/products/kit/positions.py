"""Which rows held are no longer listed, found by a search over positions instead of a re-list.

A list in a stable order (creation date, name), whose rows held are known in that order, is the
same list less what was deleted: up to the first row deleted, the row at each position is the one
held there; from it on, every row is one held later. So the first deletion is found by a binary
search of pages of one row (14 requests in 10,000, 16 in 50,000, where a re-list takes 100 and 500),
and each further one by a search from there. A row found gone is confirmed gone (a GET by id answers
404) before it is taken out: when the order held was not the API's (rows created elsewhere meanwhile
put in the wrong place), the search finds a row that is there, and the answer is "list again".
"""

from __future__ import annotations

from typing import Awaitable, Callable, Sequence

# The id of the row at a position (0-based) of the list; None past its end.
FetchAt = Callable[[int], Awaitable[str | None]]
# Whether every one of these ids is gone (a GET by id answers 404 for each).
AllGone = Callable[[list[str]], Awaitable[bool]]


class ListAgain(Exception):
    """A re-list is the better answer: over budget, or the list was not held in its order."""


async def gone(held: Sequence[str], total: int, at: FetchAt, all_gone: AllGone, budget: int) -> list[str] | None:
    """The ids of `held` (the rows held, in the list's order) no longer listed, the list now holding
    `total`; None when a re-list is the better answer (more than `budget` requests would be spent, or
    the order held was not the list's)."""
    order = list(held)
    missing = len(order) - total
    if missing <= 0:
        return [] if missing == 0 else None  # more listed than held: rows added deep, not found by the probe
    if missing * (len(order).bit_length() + 1) > budget:  # a search and a GET per row gone: over budget
        return None
    seen: dict[int, str | None] = {}  # position -> the id listed there, in this search
    spent = 0

    async def listed(i: int) -> str | None:
        nonlocal spent
        if i not in seen:
            if spent >= budget:
                raise ListAgain("over budget")
            spent += 1
            seen[i] = await at(i)
        return seen[i]

    found: list[str] = []
    lo = 0
    try:
        while missing > 0:
            hi = total  # past the end: nothing is listed there, so not the row held there
            while lo < hi:
                mid = (lo + hi) // 2
                if await listed(mid) == order[mid]:
                    lo = mid + 1
                else:
                    hi = mid
            first = lo  # the first position whose row is not the one held there: it is gone …
            there = await listed(first) if first < total else None
            if there is None:  # … and so is every row held from here on
                span = order[first:]
            else:  # … and every row held before the one listed here now
                try:
                    later = order.index(there, first + 1)
                except ValueError:
                    raise ListAgain("a row listed that is not held") from None
                span = order[first:later]
            if not span or len(span) > missing:
                raise ListAgain("more gone than the total says")
            spent += len(span)
            if spent > budget or not await all_gone(span):
                raise ListAgain("a row found gone is there")
            found.extend(span)
            missing -= len(span)
            del order[first : first + len(span)]  # the list itself is as it was: what was seen stays true
            lo = first
    except ListAgain:
        return None
    return found
