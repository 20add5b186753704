"""Logging in from the console: the dialog (`screens.login`) with its connection test, and what
a login changes — the key, the clients of every endpoint, the services bound to them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..api.client import ApiClient
from ..api.secret import Secret
from ..config import Profile
from ..products import manifest
from ..products.kit.base import ALL
from ..products.kit.location import PLATFORM
from ..products.kit.service import ResourceService

if TYPE_CHECKING:
    from .app import CloudApp


async def test_connection(app: CloudApp, api_url: str, secret: Secret) -> str:
    """List one item of the start view's kind with the key given: the answer names how many."""
    kind = manifest.start_entry().load()
    probe = ApiClient(api_url, secret, transport=app.transport, timeout=10, ca_bundle=app.settings.ca_bundle or None)
    scope = app.scope_for(kind)
    scope = kind.all_scopes[0] if scope == ALL else scope
    try:
        total = await ResourceService(probe, kind, context=app.context).count(scope)
    finally:
        await probe.aclose()
    where = "" if kind.scope_type == "global" else f" in {scope}"
    return f"{'?' if total is None else total} {kind.title_in_text} visible{where}"


def open_login(app: CloudApp, problem: str | None = None) -> None:
    """Ask for the API address, project and secret key; on success rebind every client and start."""
    from .screens.login import LoginResult, LoginScreen

    s = app.settings
    profile = Profile(
        name=s.profile,
        api_url=s.api_url,
        project_id=s.project_id,
        organization_id=s.organization_id,
        default_zone=s.zone,
        default_region=s.region,
    )

    def done(result: LoginResult | None) -> None:
        app.login_open = False
        if result is None:
            if app.main is None:
                app.exit(message="No credentials: nothing to show. Run `cloudtui --demo` to try the sandbox.")
            return
        use_login(app, result.api_url, result.project_id, result.secret, result.stored)

    app.login_open = True
    app.push_screen(
        LoginScreen(
            profile,
            lambda url, secret: test_connection(app, url, secret),
            problem=problem,
            keyring_problem=app.keyring_problem,
        ),
        done,
    )


def use_login(app: CloudApp, api_url: str, project_id: str, secret: Secret, stored: str) -> None:
    """A login succeeded: every client and service uses the new key and address, then the console starts."""
    app.settings.api_url = api_url
    app.settings.project_id = project_id
    old = list(app.clients.values())
    app._secret = secret
    app.clients = {}
    app.client = app.client_for(PLATFORM)
    for client in old:
        app.run_worker(client.aclose(), exit_on_error=False)
    app.secret_source = stored
    app._has_secret = True
    for service in app.services.values():
        service.client = app.client_for(service.kind.reading.endpoint)
    if stored == "session":
        app.notify("No keyring: the key is kept for this session only.", severity="warning", timeout=8)
    else:
        app.notify("Saved: the key is in the system keyring.", timeout=4)
    app.start_console()
