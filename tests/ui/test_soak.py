"""A bounded soak: every product view and form, driven from the keyboard, against a sandbox that
misbehaves on purpose (5xx, 429, slow answers, dropped connections, bad JSON, HTML pages,
redirects, hostile strings, writes applied but answered with an error). One test per product, so
the products soak in parallel; one seed by default (CLOUDTUI_SOAK_SEEDS="11,29,…" for more).

It asserts what an operator must be able to count on: no crash, no dead key, no silent empty
list, no duplicate create, and the secret key in no output (screen, notifications, log).
"""

from __future__ import annotations

import logging
import os

import pytest

from helpers import make_app, open_view, wait_for as _wait_for
from tui.api.client import RetryPolicy
from tui.products.manifest import entries

from tui.sandbox import ManualClock, Sandbox
from tui.sandbox.faults import FaultSpec
from tui.products.kit.refresh_plan import RefreshPolicy

_GROUPS: dict[str, list[str]] = {}
for _e in entries():
    if _e.opens in ("list", "panel"):
        _GROUPS.setdefault(_e.group, []).append(_e.id)
PER_TEST = 4  # views a test soaks: a product with more is soaked in parts, side by side
PRODUCTS: dict[str, list[str]] = {}
for _group, _ids in _GROUPS.items():
    for _at in range(0, len(_ids), PER_TEST):
        PRODUCTS[_group if len(_ids) <= PER_TEST else f"{_group}-{_at // PER_TEST + 1}"] = _ids[_at : _at + PER_TEST]
SEEDS = [int(s) for s in os.environ.get("CLOUDTUI_SOAK_SEEDS", "11").split(",")]

pytestmark = pytest.mark.anyio

SECRET = "5a0c4e2f-soak-4b7e-9d1a-c0ffee5ec4e7"
RATES = {
    "5xx": 0.06,
    "429": 0.05,
    "slow": 0.05,
    "drop": 0.03,
    "badjson": 0.03,
    "html": 0.03,
    "redirect": 0.02,
    "hostile": 0.25,
    "applied": 0.3,
}


async def wait_for(pilot, condition, timeout: float = 20.0, what: str = "condition") -> None:
    """Longer than elsewhere: under faults every read may be retried, and CI may be busy."""
    await _wait_for(pilot, condition, timeout=timeout, what=what)


def notes(app) -> str:
    return "\n".join(f"[{n.severity}] {n.title}: {n.message}" for n in app.notes)


class Captured(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


async def alive(pilot, app) -> None:
    """No dead key: the help opens and closes from wherever the console is."""
    await wait_for(pilot, lambda: app.screen.id == "main", what="back on the main screen")
    await pilot.press("question_mark")
    await wait_for(pilot, lambda: app.screen.__class__.__name__ == "HelpScreen", what="help opens")
    await pilot.press("escape")
    await wait_for(pilot, lambda: app.screen.id == "main", what="help closes")


async def back_to_main(pilot, app) -> None:
    for _ in range(6):
        if app.screen.id == "main":
            return
        if getattr(app.screen, "title_text", "") == "Drop what you typed?":  # a form held unsent input: drop it
            app.screen.query_one("#confirm").press()
        else:
            await pilot.press("escape")
        await pilot.pause()
    try:
        await wait_for(pilot, lambda: app.screen.id == "main", what="main screen")
    except AssertionError:  # say where it stayed, and what it was told, to find why
        raise AssertionError(f"still on {app.screen_stack[1:]}; said: {notes(app)[-600:]}") from None


def not_silent(app, view) -> bool:
    """A list is never empty without a word: it has rows, or its scope is marked failed. A page
    (one object) shows it, says it does not exist yet, or says why it could not be read."""
    if not hasattr(view, "table"):
        return view.row is not None or view.absent or view.error is not None or view.model.last_attempt is None
    return view.table.loaded_count > 0 or bool(view.model.failed) or view.model.listing


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("product", list(PRODUCTS))
async def test_every_view_and_form_under_faults(product, seed):
    sandbox = Sandbox(clock=ManualClock(), secret_key=SECRET, faults=FaultSpec(rates=RATES, seed=seed, slow_s=0.05))
    app = make_app(
        sandbox,
        secret=SECRET,
        policy=RefreshPolicy(fast=0.3, slow=1.0, paused=0.2),
        retry=RetryPolicy(deadline=0.4, base=0.01, cap=0.05),
    )
    captured = Captured()
    log = logging.getLogger("cloudtui")
    log.addHandler(captured)
    old_level = log.level
    log.setLevel(logging.DEBUG)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: app.main is not None, what="console")
            for entry_id in PRODUCTS[product]:
                view = await open_view(pilot, app, entry_id, timeout=20)
                await pilot.press("r")  # read again: a second round of requests under the faults
                kind = view.kind
                assert not_silent(app, view), f"{kind.id}: empty with no failure shown\n{notes(app)}"
                if not hasattr(view, "table"):  # a page: its actions (or its absence's) open and close
                    await pilot.press("a")
                    await pilot.pause()
                    await back_to_main(pilot, app)
                    assert app.is_running and app.bugs == [], f"{app.bugs}\n{notes(app)}"
                    continue
                if view.table.loaded_count:
                    await pilot.press("enter")  # the detail, fields then JSON
                    await wait_for(pilot, lambda: app.screen.__class__.__name__ == "DetailScreen", what="detail")
                    await pilot.press("v")
                    await pilot.pause()
                    await back_to_main(pilot, app)
                    if kind.actions and view.may("actions"):
                        await pilot.press("a")
                        await pilot.pause()
                        await back_to_main(pilot, app)
                    if kind.edit is not None:
                        await pilot.press("e")
                        await pilot.pause()
                        await back_to_main(pilot, app)
                if kind.create is not None:
                    await pilot.press("c")
                    await wait_for(
                        pilot,
                        lambda: app.screen.__class__.__name__ in ("FormScreen", "PickerScreen"),
                        what="create form",
                    )
                    form = app.screen
                    if form.__class__.__name__ == "FormScreen":
                        await wait_for(
                            pilot,
                            lambda: form.ready or "Could not load" in str(form.query_one("#form-status").render()),
                            what="choices or why not",
                        )
                        await pilot.press("ctrl+s")  # an empty form: refused, with fields named, nothing sent
                        await pilot.pause()
                    await back_to_main(pilot, app)
                assert app.is_running and app.bugs == [], f"{app.bugs}\n{notes(app)}"
            await alive(pilot, app)  # (a key gone dead on the way would have stopped a wait above)
            if "instance.servers" in PRODUCTS[product]:
                # One real create through the form, with writes that may be applied and answered badly.
                view = await open_view(pilot, app, "instance.servers", timeout=20)
                from helpers import choose

                for attempt in range(4):
                    await back_to_main(pilot, app)
                    await pilot.press("c")
                    await wait_for(pilot, lambda: app.screen.__class__.__name__ == "FormScreen", what="form")
                    form = app.screen
                    await wait_for(
                        pilot,
                        lambda: form.ready or "Could not load" in str(form.query_one("#form-status").render()),
                        what="choices or why not",
                    )
                    if not form.ready:  # the choices did not load (a fault): the form says so; try again
                        continue
                    await pilot.press(*"soak-made", "tab")
                    await choose(pilot, "PRO2-XS ")
                    await pilot.press("tab")
                    await choose(pilot, "Debian")
                    await pilot.press("ctrl+s")
                    await wait_for(
                        pilot, lambda: app.screen.id == "main" or not app.screen.busy, what="create answered"
                    )
                    if app.screen.id == "main" or "may have been applied" in notes(app):
                        break  # made, or perhaps made: an operator told to look first does not send again
                    await pilot.press("escape")
                made = [s for s in sandbox.instance.servers["fr-par-1"].values() if s["name"] == "soak-made"]
                assert len(made) <= 1, "a create is never sent twice"
                await back_to_main(pilot, app)
                await alive(pilot, app)

            shot = app.export_screenshot()
            assert SECRET not in shot
            for note in app.notes:
                assert SECRET not in note.message and SECRET not in note.title
                assert "This is a bug" not in note.message, note.message
            assert app.is_running and app.bugs == [], f"{app.bugs}\n{notes(app)}"
    finally:
        log.removeHandler(captured)
        log.setLevel(old_level)
    assert captured.lines, "the soak was logged"
    assert not any(SECRET in line for line in captured.lines)
    injected = sandbox.fault_spec.injected
    assert sum(injected.values()) > 0, (
        injected
    )  # the faults were live (which ones depends on the seed and the product's requests)
    if "instance.servers" in PRODUCTS[product]:
        posts = [p for m, p in sandbox.requests if m == "POST" and p.endswith("/servers")]
        assert posts, "a create was sent"
