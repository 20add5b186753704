"""Profiles inside the app (issue 35, item 6): switched from the palette without quitting; the
status bar names the one in use; the views read the new account; the product in front stays in
front; what the old account's lists held is forgotten; --read-only holds; each profile's own
settings (zone, key from the keyring) are used."""

from __future__ import annotations

import httpx
import pytest

from helpers import demo_settings, loaded, make_app, open_view, wait_for
from tui.api.errors import ConfigError
from tui.api.secret import Secret
from tui.config import Profile, save_profile
from tui.sandbox import DEMO_SECRET_KEY, Sandbox
from tui.ui.profiles import ConfigProfiles, DemoProfiles, Opened

pytestmark = pytest.mark.anyio


def two_accounts(read_only: bool = False):
    first, second = Sandbox(), Sandbox(seed="empty", scale=3)
    settings = demo_settings(read_only=read_only)
    staging = Opened(
        demo_settings(profile="staging", api_url="http://staging"),
        Secret(DEMO_SECRET_KEY),
        "demo",
        httpx.ASGITransport(second.app),
    )
    profiles = DemoProfiles(
        Opened(settings, Secret(DEMO_SECRET_KEY), "demo", httpx.ASGITransport(first.app)),
        lambda: staging,
        "staging",
    )
    app = make_app(first, settings=settings, profiles=profiles)
    return app, first, second


def names(view):
    return {r.name for r in view.table.resources()}


def bar(app):
    return app.main.query_one("StatusBar").fitted(200)


async def switch(pilot, app, name):
    await pilot.press(":", *f"profile: {name}")
    await wait_for(pilot, lambda: app.screen._answered == f"profile: {name}", what="the palette's matches")
    await pilot.press("enter")
    await wait_for(
        pilot,
        lambda: (
            app.settings.profile == name
            and app.main is not None
            and app.main.view is not None
            and app.main.view.is_mounted
            and not app.main.view.model.listing
            and app.main.view.model.last_attempt
        ),
        what=f"profile {name} listed",
    )
    return app.main.view


async def test_a_second_profile_and_back_without_quitting():
    app, first, second = two_accounts()
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        demo_servers = names(view)
        await pilot.press("p")  # the detail pane stays on too
        zones = await open_view(pilot, app, "dns.zones")  # the product in front stays in front
        await wait_for(pilot, lambda: zones.table.loaded_count and not zones.model.listing, what="the demo's zones")
        demo_zones = names(zones)
        app.finder.index  # the index of the first account, made
        staging = await switch(pilot, app, "staging")
        assert staging.kind.id == "dns.zones" and "⚑ staging" in bar(app)
        assert second.requests and names(staging) == {"example.com", "scale.example.com"} != demo_zones
        await wait_for(pilot, lambda: app.main.query_one("#pane").shown_row is not None, what="the pane still on")
        app.main.open_entry("instance.servers")
        await wait_for(pilot, lambda: app.main.view.kind.id == "instance.servers" and app.main.view.model.last_attempt)
        await wait_for(pilot, lambda: len(names(app.main.view)) == 3, what="staging's servers")
        assert not names(app.main.view) & demo_servers
        assert not app.finder.search("web-01")  # the first account's rows are not found in this one
        back = await switch(pilot, app, "demo")
        assert "⚑ demo" in bar(app) and back.kind.id == "instance.servers"
        await wait_for(pilot, lambda: names(app.main.view) == demo_servers, what="the demo's servers again")


async def test_read_only_holds_across_a_switch():
    app, first, second = two_accounts(read_only=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await switch(pilot, app, "staging")
        assert (
            app.settings.read_only and view.read_only and "READ-ONLY" in str(app.main.query_one("StatusBar").render())
        )
        assert all(c.read_only for c in app.clients.values())


def test_a_config_profile_opens_with_its_own_zone_and_its_key_from_the_keyring(memory_keyring):
    from tui import secrets

    save_profile(
        Profile(
            name="prod",
            api_url="https://api.example.net",
            project_id="7f6e5d4c-3b2a-4190-8f7e-6d5c4b3a2910",
            default_zone="nl-ams-1",
        )
    )
    save_profile(Profile(name="broken", api_url="ftp://x", project_id="nope"))
    secrets.store("prod", Secret("k" * 36))
    profiles = ConfigProfiles("default", read_only=True)
    assert profiles.names() == ["broken", "default", "prod"]
    opened = profiles.open("prod")
    assert opened.settings.zone == "nl-ams-1" and opened.settings.read_only and opened.source == "keyring"
    with pytest.raises(ConfigError, match="not a UUID"):
        profiles.open("broken")


async def test_a_switch_asks_first_for_a_form_holding_input_and_waits_for_an_act_being_sent():
    from helpers import notified, screen_named, typed

    app, first, second = two_accounts()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await pilot.press("c")
        form = await screen_named(pilot, app, "FormScreen")
        await wait_for(pilot, lambda: form.ready, what="the form's choices")
        await typed(pilot, app, name="web-09")
        app.switch_profile("staging")
        asked = await screen_named(pilot, app, "ConfirmScreen")
        assert "a form holding what you typed" in asked.message
        await pilot.press("enter")  # Cancel has the focus: back to the form, nothing switched
        assert app.screen is form and app.settings.profile == "demo"
        from tui.ui.bulk import Bulk

        app.bulks.append(Bulk("Power off", [object()] * 3, [], send=None))  # an act on marked rows on its way
        app.switch_profile("staging")
        assert notified(app, "is being sent: wait for its end") and app.screen is form


class HeldWrites(httpx.ASGITransport):
    """The sandbox's transport, holding each write's answer until `release` is set."""

    def __init__(self, app) -> None:
        super().__init__(app)
        import asyncio

        self.release = asyncio.Event()

    async def handle_async_request(self, request):
        if request.method != "GET":
            await self.release.wait()
        return await super().handle_async_request(request)


async def test_a_switch_waits_for_a_write_in_flight_and_says_which():
    """A power-off sent, its answer held: a switch says it waits for it, lets it end (its outcome is
    journalled, not broken off), then switches."""
    first, second = Sandbox(), Sandbox(seed="empty", scale=3)
    held = HeldWrites(first.app)
    settings = demo_settings()
    staging = Opened(
        demo_settings(profile="staging", api_url="http://staging"),
        Secret(DEMO_SECRET_KEY),
        "demo",
        httpx.ASGITransport(second.app),
    )
    profiles = DemoProfiles(Opened(settings, Secret(DEMO_SECRET_KEY), "demo", held), lambda: staging, "staging")
    app = make_app(first, settings=settings, profiles=profiles, transport=held)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        web = next(r for r in view.table.resources() if r.name == "web-01")
        view._do_action(web, next(a for a in view.kind.actions if a.name == "poweroff"))
        await wait_for(pilot, lambda: app.journal.in_flight() == ["Power off · web-01"], what="the write on its way")
        app.switch_profile("staging")
        await wait_for(pilot, lambda: any("Waiting for Power off · web-01" in n.message for n in app.notes))
        assert app.settings.profile == "demo" and app.journal.entries[0].outcome == "sending"
        held.release.set()
        await wait_for(pilot, lambda: app.settings.profile == "staging", what="switched once it ended")
        assert app.journal.entries[0].outcome == "done" and app.journal.entries[0].profile == "demo"


@pytest.mark.parametrize("again", [False, True])
async def test_quit_waits_for_a_write_in_flight_and_q_again_quits_at_once(again):
    """Walk 22: `q` while a production reboot was on its way left at once, with no outcome and nothing
    journalled. Quit waits for it (its answer, or the look after a lost one), saying which; `q` again quits
    now, its outcome then not known."""
    sandbox = Sandbox()
    held = HeldWrites(sandbox.app)
    app = make_app(sandbox, transport=held)
    async with app.run_test(size=(120, 40)) as pilot:
        view = await loaded(pilot, app)
        web = next(r for r in view.table.resources() if r.name == "web-01")
        view._do_action(web, next(a for a in view.kind.actions if a.name == "poweroff"))
        await wait_for(pilot, lambda: app.journal.in_flight() == ["Power off · web-01"], what="the write on its way")
        bar = app.main.query_one("StatusBar")
        await wait_for(pilot, lambda: "sending Power off · web-01…" in str(bar.render()), what="said while on its way")
        view.focus_table()
        await pilot.press("q")
        await wait_for(pilot, lambda: any("Waiting for Power off · web-01" in n.message for n in app.notes))
        assert app.is_running and app.profile_switch.quitting
        if again:
            await pilot.press("q")
            await wait_for(pilot, lambda: not app.is_running, what="quit at once")
            entry = app.journal.entries[0]
            assert entry.outcome == "maybe" and "quit before its answer" in entry.said, "its going out is kept"
            return
        held.release.set()
        await wait_for(pilot, lambda: not app.is_running, what="quit once it ended")
        assert app.journal.entries[0].outcome == "done"
