"""Python's cyclic garbage collector, paused while a listing streams in.

A listing of 50,000 servers allocates millions of short-lived objects and keeps ~50,000 rows; the
collector, triggered by allocation counts, rescans every live row again and again as they pile up:
0.8 s of a 2.6 s load, measured. Rows and decoded pages hold no reference cycles (they are freed by
reference counting as soon as they are dropped), so pausing the cycle collector while pages arrive
loses nothing. Nested or concurrent listings share one pause.

A pause that kept many new objects ends by freezing them (`gc.freeze`): the collector then never
walks the 50,000 rows again, where it would otherwise stall a key press for 0.3 s now and then.
What the pause left as cyclic garbage (rendering caches) is frozen with them, so `SETTLE_AFTER`
seconds later (later still while another listing runs) one full collection runs and freezes only the
survivors: a ~0.3 s pass at 50,000 rows, once, instead of one at every key press that happens to
trigger it.

What is frozen is never collected, and some of it dies later in reference cycles (the widgets of a
screen closed since, a list read again): the soak grew 6 MB at such a freeze and kept it. So while
the operator is idle (`resettle`, from the app's timer) the full collection runs again, at most every
RESETTLE_EVERY seconds and only after a listing froze something.
"""

from __future__ import annotations

import asyncio
import gc
import time
from contextlib import contextmanager
from typing import Iterator

# tracked objects kept by a pause above which it ends frozen: only a list of tens of thousands of rows
# (measured: a reload of 10,000 servers keeps ~21,000, 300 ~1,900; 50,000 ~5 times 10,000). The count is
# the interpreter's, so a pause spanning other work counts it too: at 20,000 the cycle soak froze lists
# of a few hundred rows, and what was alive then and died later stayed until the operator paused.
FREEZE_AFTER = 60_000
SETTLE_AFTER = 2.0  # seconds after a frozen pause until the full collection
RESETTLE_EVERY = 120.0  # seconds at least between two idle collections of what a listing froze

_depth = 0
_paused_by_us = False
_settle: asyncio.TimerHandle | None = None
_settled_at: float | None = None  # when a listing's freeze was last settled (None: none ever froze)


@contextmanager
def paused() -> Iterator[None]:
    global _depth, _paused_by_us
    if _depth == 0 and gc.isenabled():
        gc.collect(0)  # start from an empty young generation, so its count measures this pause
        gc.disable()
        _paused_by_us = True
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if _depth == 0 and _paused_by_us:
            _paused_by_us = False
            if gc.get_count()[0] > FREEZE_AFTER:
                gc.freeze()
                _schedule_settle()
            gc.enable()


def _schedule_settle() -> None:
    global _settle
    if _settle is not None:
        _settle.cancel()
    try:
        _settle = asyncio.get_running_loop().call_later(SETTLE_AFTER, settle)
    except RuntimeError:  # no loop (a test outside the app): settle now
        settle()


def settle() -> None:
    """One full collection, everything that survives it frozen; deferred while a listing runs."""
    global _settle, _settled_at
    _settle = None
    if _depth:
        _schedule_settle()
        return
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    _settled_at = time.monotonic()


def resettle(idle: bool) -> bool:
    """Collect what a listing's freeze kept and has died since, when the operator is `idle` and the
    last settle is RESETTLE_EVERY seconds old. True when it ran."""
    if _settled_at is None or not idle or _depth or _settle is not None:
        return False
    if time.monotonic() - _settled_at < RESETTLE_EVERY:
        return False
    settle()
    return True


# ---- start-up ------------------------------------------------------------------------------------
# Importing Textual and building the first screen allocates ~200,000 long-lived objects (modules,
# classes, functions, styles); the collector, triggered by allocation counts, walks them several
# times before the first frame. The entry point pauses it (`startup_begin`) and the console freezes
# what start-up built and resumes it after its first frame (`startup_done`).
_startup = False


def startup_begin() -> None:
    global _startup
    if gc.isenabled():
        gc.disable()
        _startup = True


def startup_done() -> None:
    global _startup
    if _startup:
        _startup = False
        gc.freeze()
        gc.enable()


def startup_end() -> None:
    """The entry point's way out: the collector runs again if the console never drew its first frame."""
    global _startup
    if _startup:
        _startup = False
        gc.enable()
