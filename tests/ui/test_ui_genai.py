"""The generative-model chat against the sandbox's OpenAI-compatible API, beyond the walkthrough
(tests/ui/test_ui_ai_walkthrough.py: streaming, the gauges, the request limit)."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from helpers import demo_settings, loaded, make_app, screen_named, sidebar_enter, wait_for

pytestmark = pytest.mark.anyio


async def test_an_answer_cut_by_max_tokens_says_so(sandbox):
    app = make_app(sandbox, settings=demo_settings(genai_url="http://sandbox/genai"))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await sidebar_enter(pilot, app, "genai.chat")
        chat = await screen_named(pilot, app, "ChatScreen")
        await wait_for(
            pilot,
            lambda: bool(chat.query("#chat-model")) and isinstance(chat.query_one("#chat-model").value, str),
            what="models",
        )
        chat.query_one("#chat-max-tokens", Input).value = "3"
        await pilot.press(*"Write 40 words about DNS", "enter")
        await wait_for(pilot, lambda: bool(chat.query(".usage")), what="the answer")
        note = str(chat.query(".usage")[-1].render())
        assert "3 out" in note and "cut short: the max tokens were reached" in note
        assert "**Model:** sandbox-chat-small" in chat.transcript()
        assert (
            "_(answer cut short at the max tokens: not whole)_" in chat.transcript()
        )  # a saved conversation says so too


async def test_a_chat_pointed_at_the_wrong_address_says_which_it_asked_and_how_to_set_it(sandbox):
    app = make_app(sandbox, settings=demo_settings(genai_url="http://sandbox"))  # the platform's address: no chat there
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot, app)
        await sidebar_enter(pilot, app, "genai.chat")
        chat = await screen_named(pilot, app, "ChatScreen")
        status = chat.query_one("#chat-status")
        await wait_for(pilot, lambda: "could not be listed" in str(status.render()), what="the listing refused")
        assert (
            "The chat asks http://sandbox: if that is not the generative-model API, set genai_url (or "
            "CLOUDTUI_GENAI_URL)" in str(status.render())
        )


async def chat_ready(pilot, app):
    await loaded(pilot, app)
    await sidebar_enter(pilot, app, "genai.chat")
    chat = await screen_named(pilot, app, "ChatScreen")
    await wait_for(pilot, lambda: isinstance(chat.query_one("#chat-model").value, str), what="models")
    return chat


async def test_a_malformed_event_and_an_unreadable_limit_are_said_plainly_and_the_answer_goes_on(sandbox):
    sandbox.genai.stray_events = ['{"choices": 7}']  # not a list: no answer chunk the protocol allows
    sandbox.genai.stray_headers = {"x-ratelimit-remaining-tokens": "9" * 400}  # no count a gauge can draw
    app = make_app(sandbox, settings=demo_settings(genai_url="http://sandbox/genai"))
    async with app.run_test(size=(120, 40)) as pilot:
        chat = await chat_ready(pilot, app)
        await pilot.press(*"Write 6 words about DNS", "enter")
        await wait_for(pilot, lambda: bool(chat.query(".usage")), what="the answer")
        note = str(chat.query(".usage")[-1].render())
        assert "6 out" in note and "1 event not understood was skipped (choices is 7, not a list)" in note
        assert "unexpected" not in note and "interrupted" not in note
        assert len(chat.answers[-1].split()) == 6  # the answer whole
        chat._draw_gauges()  # the timer's tick, as every second
        head = str(chat.query_one("#chat-head").render())
        assert "Tokens: unreadable (see log)" in head and "Requests ██" in head and "999" not in head
        assert app.bugs == []


async def test_a_bug_while_an_answer_streams_is_logged_with_its_traceback(sandbox, caplog, monkeypatch):
    from tui.ui.widgets.streamed_markdown import StreamedMarkdown

    def broken(self, text, most):
        raise RuntimeError("drawing broke")

    monkeypatch.setattr(StreamedMarkdown, "draw", broken)
    app = make_app(sandbox, settings=demo_settings(genai_url="http://sandbox/genai"))
    async with app.run_test(size=(120, 40)) as pilot:
        chat = await chat_ready(pilot, app)
        await pilot.press(*"Write 6 words about DNS", "enter")
        await wait_for(pilot, lambda: bool(chat.query(".usage")), what="the answer")
        assert "unexpected RuntimeError: drawing broke" in str(chat.query(".usage")[-1].render())
    logged = [r for r in caplog.records if r.exc_info and isinstance(r.exc_info[1], RuntimeError)]
    assert logged and "drawing broke" in str(logged[0].exc_info[1])  # the traceback the message points to
