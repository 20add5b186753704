"""Issue 21's walk, as a new operator does it in --demo from the keyboard, one test per product: activate
monitoring and copy the dashboard password shown once; create a metrics-pusher token and copy its
push configuration; add an e-mail contact point and trigger a test alert; create a model, watch it
reach ready, send it an array and an image, pause and resume it; chat with a model, watch the answer
stream and the gauges fall, hit the request limit and see when it resets. No secret reaches the
screen unasked or the log. The rules each step relies on are tested once elsewhere
(tests/unit/test_form_rules.py, tests/contract/test_sandbox_{monitoring,inference,genai}.py)."""

from __future__ import annotations

import json
import logging

import pytest
from textual.widgets import Input

from helpers import (
    act,
    back_to_main,
    drawn_text,
    child_list,
    confirm_yes,
    demo_settings,
    error_of,
    form_ready,
    loaded,
    make_app,
    one_time_value,
    open_view,
    screen_named,
    set_select,
    sidebar_enter,
    text_of,
    to_named_row,
    typed,
    wait_for,
)
from tui.products.kit.refresh_plan import RefreshPolicy
from tui.ui.widgets.streamed_markdown import StreamedMarkdown

pytestmark = pytest.mark.anyio


async def monitoring_walk(pilot, app, sandbox, clock):
    panel = await open_view(pilot, app, "monitoring.cockpit")
    await wait_for(pilot, lambda: panel.absent, what="not activated yet")
    await act(pilot, app, "Activate monitoring")
    password = await one_time_value(pilot, app, "dashboard_password")
    await pilot.press("escape")
    await wait_for(pilot, lambda: not panel.absent and panel.row.state == "creating", what="creating")
    assert password not in json.dumps(panel.row.raw) and panel.service.take_secrets(panel.row.id) == {}  # given once
    clock.advance(6)
    await wait_for(pilot, lambda: panel.row.state == "ready", what="ready, polled")

    # a metrics-pusher token (the preset), its push configuration copied; a second of that name refused
    tokens = await child_list(pilot, app, "Tokens")
    await pilot.press("c")
    form = await form_ready(pilot, app)
    await typed(pilot, app, name="prometheus-prod")
    await pilot.press("ctrl+s")
    config = await one_time_value(pilot, app, "metrics push (prometheus.yml)")
    token = next(iter(sandbox.monitoring.instances.values())).tokens
    made = next(t for t in token.values() if t["name"] == "prometheus-prod")
    assert made["scopes"] == {s: s == "write_metrics" for s in made["scopes"]}  # least privilege
    assert "remote_write:" in config and "/api/v1/push" in config and "X-Token: " in config
    await pilot.press("escape")
    await wait_for(pilot, lambda: tokens.table.loaded_count == 1, what="listed")
    await pilot.press("c")
    form = await form_ready(pilot, app)
    await typed(pilot, app, name="prometheus-prod")
    await pilot.press("ctrl+s")
    await wait_for(
        pilot, lambda: "already a token's name" in error_of(form, "name"), what="a taken name refused, named"
    )
    await back_to_main(pilot, app)  # the form (its typing dropped, as asked), the list

    # an e-mail contact point, then a test alert to it
    await child_list(pilot, app, "Contact points")
    await pilot.press("c")
    form = await form_ready(pilot, app)
    await typed(pilot, app, to="ops example.com")
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: "e-mail address" in error_of(form, "to"), what="a bad address refused, named")
    await typed(pilot, app, to="ops@example.com")
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ChildScreen", what="added")
    await pilot.press("escape")
    await wait_for(pilot, lambda: app.screen.id == "main", what="back on the panel")
    await act(pilot, app, "Send a test alert")
    await wait_for(pilot, lambda: sandbox.monitoring.alerts_sent, what="the alert sent")
    assert sandbox.monitoring.alerts_sent[-1]["to"] == ["ops@example.com"]
    return password, config


async def inference_walk(pilot, app, sandbox, clock, tmp_path):
    models = await open_view(pilot, app, "inference.models")
    await wait_for(pilot, lambda: "v1alpha1" in str(models.table.border_subtitle or ""), what="the service's line")
    await pilot.press("c")
    form = await form_ready(pilot, app)
    await typed(pilot, app, name="digits", path="models.example.com/digits.zip")
    await pilot.press("ctrl+s")
    await wait_for(
        pilot, lambda: "http or https URL" in error_of(form, "path"), what="a bad archive address refused, named"
    )
    await typed(pilot, app, path="https://models.example.com/digits.zip")
    await set_select(pilot, form, "framework", "onnx:1.0.0")
    await typed(pilot, app, config="input_type=float32")
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: any(r.name == "digits" for r in models.table.resources()), what="created")
    assert (
        models.table.cursor_row == 0 and models.table.get(models.table.cursor_key).name == "digits"
    )  # first, as the API lists it
    assert models.table.loaded_count > 1
    await to_named_row(pilot, models, "digits")
    await pilot.press("enter")
    detail = await screen_named(pilot, app, "DetailScreen")
    assert "[creating …] › converting" in text_of(detail.query_one("#fields"))
    for seconds, state in ((3.5, "converting"), (3.5, "building"), (5.5, "deploying"), (4.5, "ready")):
        clock.advance(seconds)
        await wait_for(
            pilot, lambda: f"[{state}" in text_of(detail.query_one("#fields")), what=state
        )  # the stepper follows, live
    await pilot.press("escape")

    # an array, then an image from disk
    await act(pilot, app, "Try a prediction")
    play = await screen_named(pilot, app, "PlaygroundScreen")
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: '"predictions"' in play.answer, what="the array's answer")
    assert json.loads(play.answer) == {"predictions": [[2.5, 3.0, 3.5]]}
    image = tmp_path / "digit.png"
    image.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    await pilot.press("ctrl+o")
    picker = await screen_named(pilot, app, "FilePickerScreen")
    picker.query_one("#file-path", Input).value = str(image)
    await pilot.press("enter")
    await wait_for(
        pilot,
        lambda: app.screen is play and "image_file" in play.query_one("#payload").text,
        what="the image referred to",
    )
    assert f"({image.stat().st_size:,} bytes) as a request of" in text_of(
        play.query_one("#play-status")
    )  # the file's size, then the request's
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: len(play.session.history) == 2, what="the image's answer")
    scores = json.loads(play.answer)["predictions"][0]
    assert len(scores) == 3 and abs(sum(scores) - 1) < 1e-6
    await pilot.press("escape")

    # pause (it says what stops), then resume
    await act(pilot, app, "Pause (remove its containers)")
    assert "stops answering" in await confirm_yes(pilot, app)
    row = next(r for r in models.table.resources() if r.name == "digits")
    await wait_for(pilot, lambda: models.table.get(row.id).state == "pausing", what="pausing")
    clock.advance(3.5)
    await wait_for(pilot, lambda: models.table.get(row.id).state == "paused", what="paused")
    await act(pilot, app, "Resume (deploy it again)")
    await wait_for(pilot, lambda: models.table.get(row.id).state == "deploying", what="deploying")
    clock.advance(4.5)
    await wait_for(pilot, lambda: models.table.get(row.id).state == "ready", what="ready again")


async def chat_walk(pilot, app, sandbox):
    sandbox.genai.limits.requests_per_minute = 3  # the models listing and two answers, then a refusal
    await sidebar_enter(pilot, app, "genai.chat")
    chat = await screen_named(pilot, app, "ChatScreen")
    await wait_for(
        pilot,
        lambda: chat.query_one("#chat-model").value not in (None, chat.query_one("#chat-model").BLANK),
        what="models listed",
    )
    head = chat.query_one("#chat-head")
    for n, left in ((1, "1/3"), (2, "0/3")):
        await pilot.press(*"Write 40 words about DNS", "enter")
        await wait_for(pilot, lambda: len(chat.query(".usage")) == n, what=f"answer {n}")
        assert len(drawn_text(chat.query(StreamedMarkdown)[-1]).split()) >= 30  # it streamed in, whole, and is shown
        assert left in str(head.render())  # the gauge falls with each answer
    await pilot.press(*"one more", "enter")
    await wait_for(pilot, lambda: not chat.streaming and len(chat.query(".usage")) == 3, what="the refusal")
    said = str(chat.query_one("#chat-status").render())
    assert "the Requests limit is used up (0 of 3 left), it resets in" in said and "Not retried" in said
    field = chat.query_one("#chat-input", Input)
    assert field.value == "one more" and tuple(field.selection) == (
        0,
        len("one more"),
    )  # kept and selected: enter sends it again
    assert "your message is kept: enter sends it again, typing replaces it" in said
    await pilot.press(*"two")
    assert field.value == "two"  # typing replaces it, never runs on from it ("one moretwo")
    chat._limits_at -= 120  # the minute is over: the refusal's "resets in" gives way
    chat._draw_gauges()
    assert "renewed" in str(head.render()) and "The limits are renewed" in str(chat.query_one("#chat-status").render())


def ai_app(sandbox):
    return make_app(
        sandbox, settings=demo_settings(genai_url="http://sandbox/genai"), policy=RefreshPolicy(fast=0.05, slow=3600)
    )


async def test_monitoring_from_the_keyboard(sandbox, clock, caplog):
    caplog.set_level(logging.DEBUG)
    app = ai_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        password, config = await monitoring_walk(pilot, app, sandbox, clock)
        key = config.split("X-Token: ")[1].strip().strip('"')  # a quoted YAML string
    for secret in (password, key):
        assert secret not in caplog.text


async def test_inference_from_the_keyboard(sandbox, clock, tmp_path):
    app = ai_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await inference_walk(pilot, app, sandbox, clock, tmp_path)


async def test_the_chat_from_the_keyboard(sandbox):
    app = ai_app(sandbox)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await chat_walk(pilot, app, sandbox)
