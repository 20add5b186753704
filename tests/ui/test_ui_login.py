"""First run: the login modal, the keyring, the no-keyring fallback, and a rejected key."""

import keyring
import pytest
from textual.widgets import Static

from helpers import demo_settings, loaded, make_app, wait_for
from keyrings import NoKeyring
from tui import secrets
from tui.config import ConfigFile
from tui.sandbox import DEMO_PROJECT_ID, DEMO_SECRET_KEY

pytestmark = pytest.mark.anyio


def real_settings():
    return demo_settings(profile="default", api_url="", project_id="", demo=False)


async def log_in(pilot, app, key=DEMO_SECRET_KEY):
    await wait_for(pilot, lambda: app.screen.id == "login" and bool(app.screen.query("#secret")), what="login modal")
    app.screen.query_one("#api-url").value = ""
    await pilot.click("#api-url")
    await pilot.press(*"http://sandbox", "tab", *DEMO_PROJECT_ID, "tab", *key)


async def test_first_run_logs_in_and_saves_the_key_in_the_keyring(sandbox, memory_keyring, tmp_path):
    app = make_app(sandbox, secret=None, settings=real_settings(), lookup_secret=secrets.lookup)
    async with app.run_test(size=(100, 30)) as pilot:
        await log_in(pilot, app)
        svg = app.export_screenshot()
        assert DEMO_SECRET_KEY not in svg  # masked while typed
        await pilot.press("ctrl+s")
        view = await loaded(pilot, app)
        assert view.table.loaded_count == 8
    assert memory_keyring.store[("cloudtui", "default")] == DEMO_SECRET_KEY
    cfg = ConfigFile.load()
    assert cfg.profiles["default"].api_url == "http://sandbox" and cfg.profiles["default"].project_id == DEMO_PROJECT_ID
    assert DEMO_SECRET_KEY not in (tmp_path / "config.toml").read_text()


async def test_stored_key_is_used_without_a_prompt(sandbox, memory_keyring):
    memory_keyring.set_password("cloudtui", "default", DEMO_SECRET_KEY)
    settings = real_settings()
    settings.api_url, settings.project_id = "http://sandbox", DEMO_PROJECT_ID
    app = make_app(sandbox, secret=None, settings=settings, lookup_secret=secrets.lookup)
    async with app.run_test(size=(100, 30)) as pilot:
        view = await loaded(pilot, app)
        assert view.table.loaded_count == 8 and app.secret_source == "keyring"


async def test_without_a_keyring_the_key_is_kept_for_the_session_only(sandbox, tmp_path):
    keyring.set_keyring(NoKeyring())
    app = make_app(sandbox, secret=None, settings=real_settings(), lookup_secret=secrets.lookup)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.screen.id == "login" and bool(app.screen.query("#keyring-note")))
        note = str(app.screen.query_one("#keyring-note", Static).render())
        assert "No system keyring" in note and "this session only" in note
        await log_in(pilot, app)
        await pilot.press("ctrl+s")
        view = await loaded(pilot, app)
        assert view.table.loaded_count == 8 and app.secret_source == "session"
        await wait_for(pilot, lambda: any("session only" in n.message for n in app.notes), what="notification")
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert DEMO_SECRET_KEY not in path.read_text(errors="replace")


async def test_test_connection_reports_a_wrong_key_and_saves_nothing(sandbox, memory_keyring):
    app = make_app(sandbox, secret=None, settings=real_settings(), lookup_secret=secrets.lookup)
    async with app.run_test(size=(100, 30)) as pilot:
        await log_in(pilot, app, key="00000000-0000-4000-8000-000000000000")
        await pilot.press("ctrl+s")
        status = app.screen.query_one("#login-status", Static)
        await wait_for(pilot, lambda: "401" in str(status.render()), what="401 shown")
        assert "secret key was rejected" in str(status.render())
        assert "ctrl+l" not in str(status.render())  # this is the login dialog already
        assert app.screen.id == "login"
        await pilot.press("escape")  # what was typed is not dropped on one key
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ConfirmScreen", what="drop what you typed?")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.id == "login", what="back in the dialog")
    assert memory_keyring.store == {}


async def test_a_rejected_key_at_start_opens_the_login_with_the_reason(sandbox):
    settings = real_settings()
    settings.api_url, settings.project_id = "http://sandbox", DEMO_PROJECT_ID
    app = make_app(sandbox, secret="00000000-0000-4000-8000-000000000000", settings=settings)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(
            pilot,
            lambda: (
                app.screen.id == "login"
                and bool(app.screen.query(".login-problem"))
                and bool(app.screen.query("#secret"))
            ),
            what="login after 401",
        )
        problem = str(app.screen.query_one(".login-problem", Static).render())
        assert "401 authentication is denied" in problem and "'default' was rejected" in problem
        await pilot.click("#secret")
        await pilot.press(*DEMO_SECRET_KEY, "ctrl+s")
        view = await loaded(pilot, app)
        await wait_for(pilot, lambda: view.table.loaded_count == 8, what="listed with the new key")
        await wait_for(pilot, lambda: app.focused is not None and app.focused.id == "table", what="table focused")
