"""Model inference from the keyboard, beyond the walkthrough (tests/ui/test_ui_ai_walkthrough.py:
create, the stepper, an array and an image, pause and resume): a rename sends the name alone, a
deleted model leaves the list, resume is greyed with its reason, an endpoint on an origin the
profile does not trust gets no key until the operator allows it, read-only."""

from __future__ import annotations

import json

import pytest

from helpers import (
    act,
    delete_typing,
    demo_settings,
    form_ready,
    loaded,
    make_app,
    notified,
    open_view,
    screen_named,
    tab_to,
    to_named_row,
    wait_for,
)
from tui.products.kit.refresh_plan import RefreshPolicy

pytestmark = pytest.mark.anyio


def model_named(sandbox, name):
    return next((m for m in sandbox.inference.models.items["global"].values() if m["name"] == name), None)


async def test_a_rename_sends_the_name_alone_and_a_deleted_model_leaves_the_list(sandbox, clock):
    app = make_app(sandbox, settings=demo_settings(), policy=RefreshPolicy(fast=0.05, slow=3600))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "inference.models")
        await to_named_row(pilot, view, "sentiment")
        await pilot.press("e")
        await form_ready(pilot, app)
        await tab_to(pilot, app, "f-name")
        await pilot.press("ctrl+u", *"sentiment-v2", "ctrl+s")
        await wait_for(pilot, lambda: model_named(sandbox, "sentiment-v2") is not None, what="renamed")
        assert ("PATCH", f"/inference/v1alpha1/models/{model_named(sandbox, 'sentiment-v2')['id']}") in sandbox.requests
        await delete_typing(pilot, app, "sentiment-v2")  # its deployment lost: the name typed
        shown = lambda: next((r for r in view.table.resources() if r.name == "sentiment-v2"), None)  # noqa: E731
        await wait_for(pilot, lambda: shown() is not None and shown().state == "deleting", what="shown deleting")
        clock.advance(5)  # the platform finishes it
        view.refresher.fire()
        await wait_for(pilot, lambda: shown() is None, what="out of the list")


async def test_resume_is_greyed_with_its_reason_on_a_ready_model_and_an_error_shows_its_message(sandbox):
    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "inference.models")
        await to_named_row(pilot, view, "image-classifier")
        await pilot.press("a")
        menu = await screen_named(pilot, app, "PickerScreen")
        greyed = {c[0]: c[2] for c in menu.choices if len(c) > 2 and c[2]}
        assert "only a paused model resumes" in greyed["Resume (deploy it again)"]
        await pilot.press("escape")
        await to_named_row(pilot, view, "sales-forecast")
        await pilot.press("enter")
        detail = await screen_named(pilot, app, "DetailScreen")
        from helpers import text_of

        await wait_for(
            pilot,
            lambda: "recurrent networks do not convert" in text_of(detail.query_one("#fields")),
            what="the error said",
        )


async def test_an_endpoint_on_an_untrusted_origin_gets_no_key_until_allowed(sandbox):
    sandbox.inference.endpoint_origin = "https://predict.elsewhere.example"
    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "inference.models")
        await to_named_row(pilot, view, "image-classifier")
        await act(pilot, app, "Try a prediction")
        await screen_named(pilot, app, "ConfirmScreen")  # its documentation: asked at once
        await pilot.press("enter")  # Cancel
        await screen_named(pilot, app, "PlaygroundScreen")
        await pilot.press("ctrl+s")
        ask = await screen_named(pilot, app, "ConfirmScreen")  # nothing sent: asked again (as the hint says), first
        assert "https://predict.elsewhere.example" in ask.message and app.focused.id == "cancel"
        assert not any(path.startswith("/inference-endpoints") for _, path in sandbox.requests)
        await pilot.press("enter")  # Cancel: still nothing sent
        play = await screen_named(pilot, app, "PlaygroundScreen")
        assert "refused to send the secret key" in play.session.history[-1].status
        assert not any(path.startswith("/inference-endpoints") for _, path in sandbox.requests)


async def test_documentation_on_an_untrusted_origin_asks_at_once_and_is_read_once_allowed(sandbox):
    sandbox.inference.endpoint_origin = "https://predict.elsewhere.example"
    app = make_app(sandbox, settings=demo_settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "inference.models")
        await to_named_row(pilot, view, "image-classifier")
        await act(pilot, app, "Try a prediction")
        ask = await screen_named(pilot, app, "ConfirmScreen")  # the documentation's request: asked now, not at ctrl+s
        assert "https://predict.elsewhere.example" in ask.message
        assert not any(path.startswith("/inference-endpoints") for _, path in sandbox.requests)
        await pilot.press("tab", "enter")  # Allow
        play = await screen_named(pilot, app, "PlaygroundScreen")
        await wait_for(
            pilot,
            lambda: play.answer and "How to call it" in str(play.query_one("#answer").render()),
            what="the documentation, read once allowed",
        )
        assert any(path.startswith("/inference-endpoints") for _, path in sandbox.requests)


async def test_read_only_reads_models_and_predicts_but_changes_nothing(sandbox):
    app = make_app(sandbox, settings=demo_settings(read_only=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "inference.models")
        await to_named_row(pilot, view, "image-classifier")
        await pilot.press("a")
        menu = await screen_named(pilot, app, "PickerScreen")
        assert [c[0] for c in menu.choices] == ["Try a prediction…"]
        await pilot.press("enter")
        play = await screen_named(pilot, app, "PlaygroundScreen")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: '"predictions"' in play.answer, what="a prediction, which changes nothing")
        assert json.loads(play.answer)["predictions"]
        assert not notified(app, "read-only")
    writes = [(m, p) for m, p in sandbox.requests if m != "GET" and p.startswith("/inference/")]
    assert writes == []
