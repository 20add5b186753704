"""The console's generic screens, configured by the tests' own product ("Gadgets", `gadgets_client.py`)
with nothing in `tui/ui` knowing it: a chat streaming from the sandbox's server-sent events with
gauges from its headers, a playground sending a payload loaded from a file, a topology tree in a
detail tab, and the diff of a version with now."""

from __future__ import annotations

import json

import pytest
from textual.widgets import Input, Static, TextArea, Tree

import gadgets_client
import gadgets_sandbox
from helpers import (
    drawn_text,
    loaded,
    make_app,
    open_view,
    pick,
    screen_named,
    select,
    sidebar_enter,
    text_of,
    wait_for,
    tree_lines,
)
from tui.products import manifest
from tui.sandbox import Sandbox
from tui.ui.widgets.streamed_markdown import StreamedMarkdown

pytestmark = pytest.mark.anyio


@pytest.fixture
def gsandbox(clock):
    manifest.register(*gadgets_client.ENTRIES)
    sandbox = Sandbox(clock=clock, products=[gadgets_sandbox.PRODUCT])
    yield sandbox
    sandbox.gadgets.release.set()  # an answer still held goes on, and ends
    manifest.unregister(*gadgets_client.ENTRIES)


async def open_chat(pilot, app):
    await loaded(pilot, app)
    await sidebar_enter(pilot, app, "gadgets.chat")
    chat = await screen_named(pilot, app, "ChatScreen")
    await wait_for(pilot, lambda: chat.query_one("#chat-model").value == "gadget-small", what="models listed")
    return chat


def answers(chat):
    return [drawn_text(answer) for answer in chat.query(StreamedMarkdown)]


def notes(chat):
    return [str(s.render()) for s in chat.query(".usage")]


async def test_a_chat_streams_the_answer_with_usage_and_gauges_keeps_the_conversation_copies_and_saves_it(
    gsandbox, tmp_path
):
    app = make_app(gsandbox)
    async with app.run_test(size=(100, 30)) as pilot:
        chat = await open_chat(pilot, app)
        assert app.focused.id == "chat-input"
        await pilot.press(*"hello there", "enter")
        await wait_for(pilot, lambda: len(notes(chat)) == 1, what="the answer's end")
        await wait_for(pilot, lambda: answers(chat) == ["You said: hello there"], what="the answer drawn")
        assert notes(chat)[0].startswith("↳ 2 in · 4 out · 6 total tokens")
        head = lambda: str(chat.query_one("#chat-head").render())  # noqa: E731
        await wait_for(pilot, lambda: "Requests ██████ 59/60 left (resets " in head(), what="the requests gauge")
        await wait_for(pilot, lambda: "Tokens" in head() and "9,994/10,000 left" in head(), what="the tokens gauge")
        sent = gsandbox.gadgets.chats[-1]
        assert (
            sent["stream"] is True
            and sent["model"] == "gadget-small"
            and sent["messages"] == [{"role": "user", "content": "hello there"}]
        )

        # The next message carries the conversation, with the system prompt and the settings chosen.
        chat.query_one("#chat-system", Input).value = "Be brief."
        chat.query_one("#chat-temperature", Input).value = "0.5"
        await pilot.press(*"again", "enter")
        await wait_for(pilot, lambda: len(notes(chat)) == 2, what="the second answer")
        sent = gsandbox.gadgets.chats[-1]
        assert sent["temperature"] == 0.5 and [m["role"] for m in sent["messages"]] == [
            "system",
            "user",
            "assistant",
            "user",
        ]
        assert (
            sent["messages"][0]["content"] == "Be brief." and sent["messages"][2]["content"] == "You said: hello there"
        )

        await pilot.press("ctrl+y")
        await wait_for(pilot, lambda: app.clipboard == "You said: again", what="the answer copied")

        await pilot.press("ctrl+s")  # saved through the file picker, a path typed
        picker = await screen_named(pilot, app, "FilePickerScreen")
        offered = picker.query_one("#file-path", Input)
        assert offered.value.endswith(".md") and tuple(offered.selection) == (
            0,
            len(offered.value),
        )  # typing replaces the name offered
        await pilot.press(*str(tmp_path / "talk.md"))
        await wait_for(pilot, lambda: offered.value == str(tmp_path / "talk.md"), what="the path typed")
        await pilot.press("enter")
        await wait_for(pilot, lambda: (tmp_path / "talk.md").exists(), what="saved")
        saved = (tmp_path / "talk.md").read_text()
        assert "**System:** Be brief." in saved and "hello there" in saved and "You said: again" in saved


async def test_a_chat_refuses_bad_settings_before_sending_and_esc_stops_an_answer_keeping_the_message(gsandbox):
    app = make_app(gsandbox)
    async with app.run_test(size=(80, 24)) as pilot:
        chat = await open_chat(pilot, app)
        chat.query_one("#chat-temperature", Input).value = "5"
        await pilot.press(*"hi", "enter")
        assert "temperature is a number from 0 to 2" in str(chat.query_one("#chat-status").render())
        assert app.focused.id == "chat-temperature"  # to be fixed there; the message waits
        assert gsandbox.gadgets.chats == [] and chat.query_one("#chat-input", Input).value == "hi"
        chat.query_one("#chat-temperature", Input).value = ""
        chat.query_one("#chat-input", Input).value = "hold on"
        await pilot.press("enter")  # on the temperature, fixed: back to the message
        assert app.focused.id == "chat-input"
        await pilot.press("enter")
        await wait_for(pilot, lambda: chat.streaming and gsandbox.gadgets.chats, what="an answer held by the sandbox")
        await pilot.press("escape")  # stops the answer; the screen stays
        await wait_for(pilot, lambda: not chat.streaming and notes(chat), what="stopped")
        assert "stopped" in notes(chat)[0] and app.screen is chat
        assert (
            chat.query_one("#chat-input", Input).value == "hold on"
        )  # nothing came: the message is back to send again
        await pilot.press("escape")  # nothing streaming: back to the console
        await wait_for(pilot, lambda: app.screen.id == "main", what="back")
        await sidebar_enter(pilot, app, "gadgets.chat")
        assert await screen_named(pilot, app, "ChatScreen") is chat  # the same conversation, kept for the session


async def test_a_playground_shows_how_to_call_then_sends_a_payload_loaded_from_a_file_and_keeps_a_history(
    gsandbox, tmp_path
):
    payload = tmp_path / "inputs.json"
    payload.write_text(json.dumps({"inputs": [1, 2, 3]}))
    app = make_app(gsandbox)
    async with app.run_test(size=(100, 32)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "gadgets.gadgets")
        await select(pilot, view, "alpha")
        await pilot.press("a")
        await wait_for(pilot, lambda: app.screen.id == "actions-menu", what="actions")
        await pick(pilot, app, lambda text: text == "Try a prediction…")
        play = await screen_named(pilot, app, "PlaygroundScreen")
        await wait_for(pilot, lambda: "each input doubled" in play.answer, what="its documentation")
        assert play.query_one("#payload", TextArea).text == '{"inputs": [1, 2]}'

        await pilot.press("ctrl+o")
        picker = await screen_named(pilot, app, "FilePickerScreen")
        picker.query_one("#file-path", Input).value = str(tmp_path / "missing.json")
        await pilot.press("enter")
        assert app.screen is picker and "not a file that exists" in str(picker.query_one("#file-error").render())
        picker.query_one("#file-path", Input).value = str(payload)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is play, what="back on the playground")
        assert json.loads(play.query_one("#payload", TextArea).text) == {"inputs": [1, 2, 3]}

        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: '"outputs"' in play.answer, what="the answer")
        assert json.loads(play.answer) == {"outputs": [2, 4, 6]}

        posts = len([r for r in gsandbox.requests if r[0] == "POST"])
        play.query_one("#payload", TextArea).text = "inputs: 1"
        await pilot.press("ctrl+s")  # not JSON: refused here, nothing sent
        assert "Not sent: the payload is not JSON" in str(play.query_one("#play-status").render())
        assert len([r for r in gsandbox.requests if r[0] == "POST"]) == posts

        play.query_one("#payload", TextArea).text = '{"inputs": ["x"]}'
        await pilot.press("ctrl+s")  # the API refuses: its error is the answer, and kept
        await wait_for(pilot, lambda: "inputs is a list of numbers" in play.answer, what="the error")
        assert str(play.query_one("#play-status").render()).startswith("✖ 400")
        assert len(play.session.history) == 2

        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.id == "main", what="closed")
        await pilot.press("a")
        await wait_for(pilot, lambda: app.screen.id == "actions-menu", what="actions")
        await pick(pilot, app, lambda text: text == "Try a prediction…")
        again = await screen_named(pilot, app, "PlaygroundScreen")
        assert (
            again.query_one("#payload", TextArea).text == '{"inputs": ["x"]}'
        )  # the draft and the history stay for the session
        history = again.query_one("#history")
        assert history.option_count == 2
        history.focus()
        await pilot.press("down", "enter")  # the earlier exchange comes back
        assert json.loads(again.query_one("#payload", TextArea).text) == {"inputs": [1, 2, 3]} and json.loads(
            again.answer
        ) == {"outputs": [2, 4, 6]}


async def test_a_topology_tree_in_the_detail_is_read_again_with_what_was_folded_kept_folded(gsandbox):
    app = make_app(gsandbox)
    async with app.run_test(size=(100, 32)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "gadgets.gadgets")
        alpha = await select(pilot, view, "alpha")
        await pilot.press("enter")
        detail = await screen_named(pilot, app, "DetailScreen")
        await pilot.press("v", "v", "v")  # fields → JSON → events → topology
        panel = detail.query_one("TreePanel")
        await wait_for(pilot, lambda: panel.loaded, what="the tree")
        tree = panel.query_one(Tree)
        assert app.focused is tree
        assert tree_lines(tree) == [
            "alpha",
            "  bolts",
            "    alpha-part-2 ×2",
            "  gears",
            "    alpha-part-1 ×1",
            "    alpha-part-3 ×3",
        ]
        assert "5 items" in text_of(panel.query_one("#tree-head", Static))

        await pilot.press("down", "enter")  # fold "bolts"
        gsandbox.gadgets.parts["fr-par"]["alpha-part-9"] = {
            "name": "alpha-part-9",
            "gadget_id": alpha.id,
            "kind": "gear",
            "count": 9,
        }
        await pilot.press("r")
        await wait_for(pilot, lambda: "    alpha-part-9 ×9" in tree_lines(tree), what="read again")
        assert tree_lines(tree)[:3] == ["alpha", "  bolts", "  gears"]  # still folded


async def test_a_version_compared_with_now_shows_what_was_added_changed_and_deleted(gsandbox):
    app = make_app(gsandbox)
    async with app.run_test(size=(100, 32)) as pilot:
        await loaded(pilot, app)
        view = await open_view(pilot, app, "gadgets.gadgets")
        alpha = await select(pilot, view, "alpha")
        parts = gsandbox.gadgets.parts["fr-par"]
        parts["alpha-part-1"]["count"] = 7
        del parts["alpha-part-2"]
        parts["alpha-part-4"] = {"name": "alpha-part-4", "gadget_id": alpha.id, "kind": "gear", "count": 4}
        gsandbox.gadgets.version("fr-par", alpha.id)
        await pilot.press("a")
        await wait_for(pilot, lambda: app.screen.id == "actions-menu", what="actions")
        await pick(pilot, app, lambda text: text == "Compare with a version…")
        picker = await screen_named(pilot, app, "PickerScreen")
        assert [c[0] for c in picker.choices] == ["version 2 (3 parts)", "version 1 (3 parts)"]
        await pick(pilot, app, lambda text: text.startswith("version 1"))
        diff = await screen_named(pilot, app, "DiffScreen")
        assert diff.title_text == "Parts of alpha: version 1 (3 parts) → now (1 added, 1 changed, 1 deleted)"
        lines = diff.text.splitlines()
        assert "~ change  alpha-part-1" in lines and "      count: 1 → 7" in lines and "- delete  alpha-part-2" in lines
        assert any(line.startswith("+ add     alpha-part-4") for line in lines)


async def test_a_letter_typed_on_the_chats_transcript_goes_to_the_message_not_to_the_console(gsandbox):
    """`q` is the console's quit: typed while the transcript has the focus (a Tab too far), it and
    the letters after it are the message's, and the conversation stays."""
    app = make_app(gsandbox)
    async with app.run_test(size=(100, 30)) as pilot:
        chat = await open_chat(pilot, app)
        chat.query_one("#conversation").focus()
        await wait_for(pilot, lambda: app.focused is chat.query_one("#conversation"), what="the transcript focused")
        await pilot.press(*"question")
        assert app.is_running and app.screen is chat
        assert chat.query_one("#chat-input", Input).value == "question" and app.focused.id == "chat-input"


async def test_enter_while_an_answer_comes_says_nothing_was_sent_and_a_new_message_replaces_the_kept_one(gsandbox):
    app = make_app(gsandbox)
    async with app.run_test(size=(100, 30)) as pilot:
        chat = await open_chat(pilot, app)
        field, status = chat.query_one("#chat-input", Input), chat.query_one("#chat-status")
        await pilot.press(*"hold number 1", "enter")
        await wait_for(pilot, lambda: chat.streaming and gsandbox.gadgets.chats, what="an answer held by the sandbox")
        await pilot.press(*"number 2", "enter")
        assert "still coming" in str(status.render()) and len(gsandbox.gadgets.chats) == 1
        gsandbox.gadgets.release.set()
        await wait_for(pilot, lambda: not chat.streaming and notes(chat), what="the answer's end")
        assert "“number 2” was not sent" in str(status.render())  # still said once the answer is over
        chat.query_one("#conversation").focus()  # a letter typed there is the message's too
        await wait_for(pilot, lambda: app.focused is chat.query_one("#conversation"), what="the transcript focused")
        await pilot.press(*"number 3")
        assert field.value == "number 3"  # a new message, not "number 2number 3"
        assert "number 2" not in str(status.render())  # and the status no longer offers the kept one
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(notes(chat)) == 2, what="the new message answered")
        assert gsandbox.gadgets.chats[-1]["messages"][-1]["content"] == "number 3"


async def test_the_transcript_stays_at_its_end_when_the_terminal_is_resized(gsandbox):
    app = make_app(gsandbox)
    async with app.run_test(size=(100, 30)) as pilot:
        chat = await open_chat(pilot, app)
        for n, said in enumerate(("one message", "a second one", "and a third"), 1):
            await pilot.press(*said, "enter")
            await wait_for(pilot, lambda: len(notes(chat)) == n, what=f"answer {n}")
        conversation = chat.query_one("#conversation")
        await pilot.resize_terminal(60, 20)
        await wait_for(
            pilot,
            lambda: conversation.max_scroll_y > 0 and conversation.scroll_y == conversation.max_scroll_y,
            what="at the end",
        )
        await wait_for(pilot, lambda: "You said: and a third" in answers(chat), what="the last answer drawn")
