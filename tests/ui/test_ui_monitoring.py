"""Monitoring from the keyboard, beyond the walkthrough (tests/ui/test_ui_ai_walkthrough.py):
dashboard users and their one-time passwords, deletes that say what stops, the panel's own actions,
the contact-point list's flags, read-only."""

from __future__ import annotations

import pytest

from helpers import (
    act,
    child_list,
    one_time_value,
    confirm_yes,
    demo_settings,
    form_ready,
    loaded,
    make_app,
    open_view,
    set_select,
    tab_to,
    wait_for,
)
from tui.sandbox import DEMO_PROJECT_ID
from tui.products.kit.refresh_plan import RefreshPolicy

pytestmark = pytest.mark.anyio


def instance(sandbox):
    return sandbox.monitoring.instances[DEMO_PROJECT_ID]


async def activated(pilot, app, sandbox, clock):
    """The monitoring panel, activated through the API beforehand, ready."""
    await loaded(pilot, app)
    sandbox.monitoring.activate(DEMO_PROJECT_ID)
    clock.advance(60)
    panel = await open_view(pilot, app, "monitoring.cockpit")
    await wait_for(pilot, lambda: panel.row is not None and panel.row.state == "ready", what="ready")
    return panel


async def once(pilot, app, name):
    """The one-time dialog: `name` copied (masked on screen), closed; its value."""
    value = await one_time_value(pilot, app, name)
    await pilot.press("escape")
    return value


async def test_a_dashboard_user_is_made_with_a_role_its_password_shown_once_reset_once_then_deleted(sandbox, clock):
    app = make_app(sandbox, settings=demo_settings(), policy=RefreshPolicy(fast=0.05, slow=3600))
    async with app.run_test(size=(120, 40)) as pilot:
        await activated(pilot, app, sandbox, clock)
        users = await child_list(pilot, app, "Dashboard users")
        await pilot.press("c")
        form = await form_ready(pilot, app)
        await tab_to(pilot, app, "f-login")
        await pilot.press(*"alice")
        await set_select(pilot, form, "role", "editor")
        await pilot.press("ctrl+s")
        first = await once(pilot, app, "password")
        made = next(u for u in instance(sandbox).users.values() if u["login"] == "alice")
        assert made["role"] == "editor" and first not in str(users.table.resources()[0].data)
        await wait_for(pilot, lambda: users.table.loaded_count == 1, what="listed")
        await act(pilot, app, "Reset the password")
        assert "old password stops working" in await confirm_yes(pilot, app)
        second = await once(pilot, app, "password")
        assert second != first
        await pilot.press("d")
        await confirm_yes(pilot, app)
        await wait_for(pilot, lambda: users.table.loaded_count == 0, what="deleted")
        assert (
            instance(sandbox).users == {}
            and ("POST", f"/monitoring/v1beta1/dashboard-users/{made['id']}/delete") in sandbox.requests
        )


async def test_deleting_a_token_or_a_contact_point_says_what_stops_and_the_list_explains_its_flags(sandbox, clock):
    app = make_app(sandbox, settings=demo_settings(), policy=RefreshPolicy(fast=0.05, slow=3600))
    async with app.run_test(size=(120, 40)) as pilot:
        await activated(pilot, app, sandbox, clock)
        sandbox.monitoring.add_token(instance(sandbox), "old-pusher", {"write_metrics": True})
        tokens = await child_list(pilot, app, "Tokens")
        assert (
            str(app.screen.query_one("#detail-title").render()).strip() == "Monitoring › Tokens"
        )  # the page's name not said twice
        await pilot.press("d")
        assert "refused from then on" in await confirm_yes(pilot, app)
        await wait_for(
            pilot, lambda: tokens.table.loaded_count == 0 and not instance(sandbox).tokens, what="token deleted"
        )
        await pilot.press("escape")

        instance(sandbox).contact_points.append({"email": {"to": "oncall@example.com"}})
        sandbox.monitoring.additional_receivers = True
        contacts = await child_list(pilot, app, "Contact points")
        await wait_for(
            pilot,
            lambda: "receivers set up in the dashboard" in str(contacts.table.border_subtitle or ""),
            what="the flags said",
        )
        await pilot.press("d")
        await confirm_yes(pilot, app)
        await wait_for(pilot, lambda: not instance(sandbox).contact_points, what="contact point deleted")
        assert ("POST", "/monitoring/v1beta1/delete-contact-point") in sandbox.requests


async def test_the_panel_turns_alerts_on_and_off_resets_the_dashboard_once_and_deactivation_says_what_stops(
    sandbox, clock
):
    app = make_app(sandbox, settings=demo_settings(), policy=RefreshPolicy(fast=0.05, slow=3600))
    async with app.run_test(size=(120, 40)) as pilot:
        panel = await activated(pilot, app, sandbox, clock)
        await act(pilot, app, "Turn managed alerts on")
        await wait_for(pilot, lambda: panel.row.get("managed_alerts_enabled") is True, what="on")
        assert any(
            n.message == "Turn managed alerts on — accepted" for n in app.notes
        )  # the page is not named after itself
        await act(pilot, app, "Turn managed alerts off")
        assert "stop reaching your contact points" in await confirm_yes(pilot, app)
        await wait_for(pilot, lambda: panel.row.get("managed_alerts_enabled") is False, what="off")
        await act(pilot, app, "Reset the dashboard")
        said = await confirm_yes(pilot, app)
        assert "locked out" in said and "Monitoring." not in said
        await once(pilot, app, "dashboard_password")
        await act(pilot, app, "Deactivate monitoring")
        assert "Pushes with its tokens are refused" in await confirm_yes(pilot, app)
        clock.advance(60)
        await wait_for(pilot, lambda: panel.absent, what="absent again")
        await pilot.press("v")  # no JSON made up for what the API does not have: greyed
        assert app.screen.id == "main" and panel.check_action("json", ()) is None


async def test_read_only_monitoring_offers_nothing_that_writes(sandbox, clock):
    app = make_app(sandbox, settings=demo_settings(read_only=True), policy=RefreshPolicy(fast=0.05, slow=3600))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        panel = await open_view(pilot, app, "monitoring.cockpit")
        await wait_for(pilot, lambda: panel.absent, what="absent")
        assert not panel.may("actions")  # activate is a write: gone
        sandbox.monitoring.activate(DEMO_PROJECT_ID)
        clock.advance(60)
        panel.reload()
        await wait_for(pilot, lambda: not panel.absent, what="read")
        await pilot.press("a")
        await wait_for(pilot, lambda: app.screen.id == "actions-menu", what="menu")
        assert [c[0] for c in app.screen.choices] == ["Tokens ›", "Contact points ›", "Dashboard users ›"]
        await pilot.press("escape")
        tokens = await child_list(pilot, app, "Tokens")
        assert not tokens.may("create") and not tokens.may("delete")
    assert all(method == "GET" for method, _ in sandbox.requests if _.startswith("/monitoring/"))


async def test_a_choice_set_back_to_blank_is_required_not_filled_with_a_default(sandbox, clock):
    from textual.widgets import Select

    from helpers import error_of

    app = make_app(sandbox, settings=demo_settings(), policy=RefreshPolicy(fast=0.05, slow=3600))
    async with app.run_test(size=(120, 40)) as pilot:
        await activated(pilot, app, sandbox, clock)
        await child_list(pilot, app, "Dashboard users")
        await pilot.press("c")
        form = await form_ready(pilot, app)
        await tab_to(pilot, app, "f-login")
        await pilot.press(*"carol")
        form.query_one("#f-role", Select).clear()  # the blank "choose…" picked
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "required" in error_of(form, "role"), what="the blank choice refused, named")
        assert instance(sandbox).users == {}  # nothing sent


async def test_ticked_and_unticked_scopes_are_told_apart_without_colour(sandbox, clock):
    from helpers import drawn_lines
    from tui.ui.widgets.tick_list import TickList

    app = make_app(sandbox, settings=demo_settings(), policy=RefreshPolicy(fast=0.05, slow=3600))
    async with app.run_test(size=(120, 40)) as pilot:
        await activated(pilot, app, sandbox, clock)
        await child_list(pilot, app, "Tokens")
        await pilot.press("c")
        form = await form_ready(pilot, app)
        await tab_to(pilot, app, "f-scopes")
        await pilot.press("down", "space")  # the second scope ticked
        marks = [line[:3] for line in drawn_lines(form.query_one(TickList)) if line.strip()]
        assert marks[1] == "▐X▌" and marks[0] == marks[2] == "▐ ▌"  # the mark itself differs, not only its colour


async def test_a_token_made_but_its_answer_lost_says_its_secret_is_gone_and_to_make_another_not_created(clock):
    from helpers import typed
    from tui.sandbox import Sandbox
    from tui.sandbox.faults import FaultSpec

    sandbox = Sandbox(
        clock=clock, faults=FaultSpec(rates={"applied": 1.0}, seed=2, applied_as="500")
    )  # every write applied, its answer lost
    app = make_app(sandbox, settings=demo_settings(), policy=RefreshPolicy(fast=0.05, slow=3600))
    async with app.run_test(size=(120, 40)) as pilot:
        await activated(pilot, app, sandbox, clock)
        tokens = await child_list(pilot, app, "Tokens")
        await pilot.press("c")
        await form_ready(pilot, app)
        await typed(pilot, app, name="lost-pusher")
        await pilot.press("ctrl+s")
        await wait_for(
            pilot,
            lambda: any("the answer was lost" in n.title for n in app.notes),
            timeout=10,
            what="the lost answer said",
        )
        said = next(n.message for n in app.notes if "the answer was lost" in n.title)
        assert "created after all" in said and "secret key was in the lost answer" in said
        assert "delete this token (d) and create another" in said and "reset" not in said
        assert not any(n.message.startswith("Created") for n in app.notes)  # not said as a plain success
        await wait_for(pilot, lambda: tokens.table.loaded_count == 1, what="the token found, listed")


async def test_a_dashboard_reset_whose_answer_is_lost_says_the_old_password_may_be_dead_and_to_reset_again(clock):
    from tui.sandbox import Sandbox
    from tui.sandbox.faults import FaultSpec

    sandbox = Sandbox(clock=clock, faults=FaultSpec(rates={"applied": 1.0}, seed=2, applied_as="500"))
    app = make_app(sandbox, settings=demo_settings(), policy=RefreshPolicy(fast=0.05, slow=3600))
    async with app.run_test(size=(120, 40)) as pilot:
        await activated(pilot, app, sandbox, clock)
        await act(pilot, app, "Reset the dashboard")
        await confirm_yes(pilot, app)
        await wait_for(
            pilot,
            lambda: any("the answer was lost" in n.title for n in app.notes),
            timeout=10,
            what="the lost answer said",
        )
        said = next(n.message for n in app.notes if "the answer was lost" in n.title)
        assert "may have been applied" in said and "the old password no longer works" in said and "reset again" in said
        assert "check its details" not in said


async def test_an_activation_whose_answer_is_lost_says_it_was_applied_and_its_password_went_with_the_answer(clock):
    from tui.sandbox import Sandbox
    from tui.sandbox.faults import FaultSpec

    sandbox = Sandbox(clock=clock, faults=FaultSpec(rates={"applied": 1.0}, seed=2, applied_as="500"))
    app = make_app(sandbox, settings=demo_settings(), policy=RefreshPolicy(fast=0.05, slow=3600))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        panel = await open_view(pilot, app, "monitoring.cockpit")
        await wait_for(pilot, lambda: panel.absent, what="not activated")
        await act(pilot, app, "Activate monitoring")
        await wait_for(
            pilot,
            lambda: any("the answer was lost" in n.title for n in app.notes),
            timeout=10,
            what="the lost answer said",
        )
        said = next(n.message for n in app.notes if "the answer was lost" in n.title)
        assert (
            "it is now creating: it was applied" in said
            and "dashboard password was in the lost answer: Reset the dashboard" in said
        )
