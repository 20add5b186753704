"""SVG snapshots of the generic screens, configured by the tests' own product ("Gadgets"): a chat
after one streamed answer at 80×24, a playground after a send at 80×24, a topology tree tab."""

import pytest

import gadgets_client
import gadgets_sandbox
from helpers import loaded, make_app, open_view, pick, screen_named, select, sidebar_enter, wait_for
from tui.products import manifest
from tui.sandbox import ManualClock, Sandbox


@pytest.fixture
def gadgets_app():
    manifest.register(*gadgets_client.ENTRIES)
    yield make_app(Sandbox(clock=ManualClock(), products=[gadgets_sandbox.PRODUCT]))
    manifest.unregister(*gadgets_client.ENTRIES)


def test_chat_after_one_answer(snap_compare, gadgets_app):
    app = gadgets_app

    async def answered(pilot):
        await loaded(pilot, app)
        await sidebar_enter(pilot, app, "gadgets.chat")
        chat = await screen_named(pilot, app, "ChatScreen")
        await wait_for(pilot, lambda: chat.query_one("#chat-model").value == "gadget-small", what="models")
        await pilot.press(*"what is **a gadget**?", "enter")
        await wait_for(pilot, lambda: bool(chat.query(".usage")), what="answered")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=answered)


async def _on_alpha(pilot, app):
    await loaded(pilot, app)
    view = await open_view(pilot, app, "gadgets.gadgets")
    await select(pilot, view, "alpha")


def test_playground_after_a_send(snap_compare, gadgets_app):
    app = gadgets_app

    async def sent(pilot):
        await _on_alpha(pilot, app)
        await pilot.press("a")
        await wait_for(pilot, lambda: app.screen.id == "actions-menu", what="actions")
        await pick(pilot, app, lambda text: text == "Try a prediction…")
        play = await screen_named(pilot, app, "PlaygroundScreen")
        await wait_for(pilot, lambda: "each input doubled" in play.answer, what="docs")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: '"outputs"' in play.answer, what="answer")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=sent)


def test_topology_tree_tab(snap_compare, gadgets_app):
    app = gadgets_app

    async def drawn(pilot):
        await _on_alpha(pilot, app)
        await pilot.press("enter")
        detail = await screen_named(pilot, app, "DetailScreen")
        await pilot.press("v", "v", "v")
        await wait_for(pilot, lambda: detail.query_one("TreePanel").loaded, what="tree")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(100, 24), run_before=drawn)
