"""Test helpers: in-memory keyrings, an app wired to the sandbox in process, waiting without sleeps."""

from __future__ import annotations

import asyncio
from typing import Any, Callable

import httpx
from keyring.backend import KeyringBackend
from keyring.errors import NoKeyringError, PasswordDeleteError
from tui.api.secret import Secret

from tui.api.client import RetryPolicy
from tui.config import Settings
from tui.sandbox import DEMO_PROJECT_ID, DEMO_SECRET_KEY, Sandbox
from tui.ui.app import CloudApp
from tui.ui.refresh import RefreshPolicy

FIXED_WALL = 1_768_478_400.0  # 2026-01-15T12:00:00Z, shown as "last refresh" in snapshots


class MemoryKeyring(KeyringBackend):
    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.store: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.store.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.store[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if (service, username) not in self.store:
            raise PasswordDeleteError("not found")
        del self.store[(service, username)]


class NoKeyring(KeyringBackend):
    """What headless Linux has: every call raises NoKeyringError."""

    priority = 0  # type: ignore[assignment]

    def get_password(self, service: str, username: str) -> str | None:
        raise NoKeyringError("No recommended backend was available.")

    def set_password(self, service: str, username: str, password: str) -> None:
        raise NoKeyringError("No recommended backend was available.")

    def delete_password(self, service: str, username: str) -> None:
        raise NoKeyringError("No recommended backend was available.")


def demo_settings(**kw: Any) -> Settings:
    values: dict[str, Any] = dict(
        profile="demo", api_url="http://sandbox", project_id=DEMO_PROJECT_ID, organization_id="",
        zone="fr-par-1", region="fr-par", demo=True,
    )
    values.update(kw)
    return Settings(**values)


def make_app(sandbox: Sandbox, *, secret: str | None = DEMO_SECRET_KEY, policy: RefreshPolicy | None = None, **kw: Any) -> CloudApp:
    settings = kw.pop("settings", None) or demo_settings()
    return CloudApp(
        settings,
        Secret(secret) if secret is not None else None,
        transport=httpx.ASGITransport(sandbox.app),
        policy=policy or RefreshPolicy(fast=3600, slow=3600),  # tests refresh explicitly unless they test timers
        clock=kw.pop("clock", lambda: FIXED_WALL),
        retry=kw.pop("retry", RetryPolicy(deadline=0.5, base=0.01, cap=0.05)),
        **kw,
    )


async def wait_for(pilot: Any, condition: Callable[[], bool], timeout: float = 5.0, what: str = "condition") -> None:
    """Let the app run until `condition()` holds (no fixed sleeps in assertions)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.02)


def view_of(app: CloudApp) -> Any:
    from tui.ui.widgets.resource_view import ResourceView

    return app.main.query_one(ResourceView)


async def loaded(pilot: Any, app: CloudApp) -> Any:
    await wait_for(pilot, lambda: app.main is not None and bool(app.main.query("ResourceView")), what="main screen")
    view = view_of(app)
    await wait_for(pilot, lambda: not view.listing and view.last_attempt is not None, what="list loaded")
    await pilot.pause()
    return view


def args(resp: Any) -> dict[str, str]:
    """A 400 invalid_arguments body as {argument_name: reason}."""
    return {d["argument_name"]: d["reason"] for d in resp.json()["details"]}


# ---- driving views by keyboard ------------------------------------------------------------------
def current_view(app):
    return app.main.view


async def open_view(pilot, app, kind_id, timeout: float = 5.0):
    """Sidebar by keyboard: tab to it, move to the entry, enter."""
    from tui.ui.widgets.sidebar import Sidebar

    sidebar = app.main.query_one(Sidebar)
    sidebar.focus()
    await pilot.pause()
    ids = [kid for kid, _ in sidebar.entries]
    target = ids.index(kind_id)
    step = "j" if target > sidebar.highlighted else "k"
    while sidebar.highlighted != target:
        await pilot.press(step)
    await pilot.press("enter")
    await wait_for(pilot, lambda: current_view(app) is not None and current_view(app).kind.id == kind_id, what=kind_id, timeout=timeout)
    view = current_view(app)
    await wait_for(pilot, lambda: not view.listing and view.last_attempt is not None, what=f"{kind_id} listed", timeout=timeout)
    view.focus_table()
    await pilot.pause()
    return view


async def select(pilot, view, name):
    row = next(r for r in view.table.resources() if r.name == name)
    view.table.move_to(row.id)
    await pilot.pause()
    return row


async def action(pilot, app, label):
    """`a`, then the menu entry with this label (typed through the list with the arrow keys)."""
    await wait_for(pilot, lambda: app.screen.id == "main", what="back on the main screen")
    await pilot.press("a")
    await wait_for(pilot, lambda: app.screen.id == "actions-menu", what="actions menu")
    await pick(pilot, app, lambda text: text == label)


async def pick(pilot, app, wanted):
    """In the open picker, arrow down to the first entry whose label satisfies `wanted`; enter."""
    choices = app.screen.choices
    target = next(i for i, c in enumerate(choices) if wanted(c[0]))
    for _ in range(sum(1 for c in choices[:target] if not (len(c) > 2 and c[2]))):  # greyed choices are skipped
        await pilot.press("down")
    await pilot.press("enter")


async def screen_named(pilot, app, name):
    await wait_for(pilot, lambda: app.screen.__class__.__name__ == name, what=name)
    return app.screen


async def choose(pilot, text):
    await pilot.press("enter", *text, "enter")


def error_of(screen, field):
    from textual.widgets import Static

    return str(screen.query_one(f"#e-{field}", Static).render())
