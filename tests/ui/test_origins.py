"""The secret key goes only to the origins the profile names: a request an answer points at another
origin is not sent until the operator allows it — asked once, the origin shown, remembered."""

from __future__ import annotations

import pytest

from helpers import demo_settings, loaded, make_app, screen_named, wait_for
from tui.api.errors import UntrustedOrigin
from tui.config import ConfigFile

pytestmark = pytest.mark.anyio
ELSEWHERE = "https://models.example.net"


async def test_the_key_is_not_sent_to_an_origin_the_profile_does_not_name(make_client, sandbox):
    client = make_client()
    before = len(sandbox.requests)
    with pytest.raises(UntrustedOrigin) as refused:
        await client.get_json(f"{ELSEWHERE}/v1/models/x")  # an absolute URL, as a model's endpoint would be
    assert refused.value.origin == ELSEWHERE and len(sandbox.requests) == before
    from tui.api.urls import origin_of

    assert origin_of("HTTPS://Models.Example.NET:443/v1") == ELSEWHERE  # origins compare normalised


async def test_allowing_an_origin_is_asked_once_and_remembered(sandbox, tmp_path):
    app = make_app(sandbox, settings=demo_settings(demo=False, profile="work"))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        from tui.ui.errors import notify_error

        err = UntrustedOrigin(0, "refused", method="POST", url=f"{ELSEWHERE}/v1/predict")
        err.origin = ELSEWHERE
        app.call_later(notify_error, app, err, "Predicting")  # as a worker's failure reaches it
        ask = await screen_named(pilot, app, "ConfirmScreen")
        assert ELSEWHERE in ask.message and app.focused.id == "cancel"
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: all(ELSEWHERE in c.trusted for c in app.clients.values()), what="allowed")
        await wait_for(
            pilot,
            lambda: (
                "work" in ConfigFile.load().profiles and ELSEWHERE in ConfigFile.load().profiles["work"].allowed_origins
            ),
            what="remembered in the profile",
        )
        app.call_later(notify_error, app, err, "Predicting")  # asked once
        await pilot.pause()
        assert app.screen.id == "main"
