"""An answer drawn as Markdown while it arrives (`StreamedMarkdown`): finished blocks are Markdown at
once, the block arriving is plain text, its height only grows while it arrives, and links never
become terminal hyperlinks."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll

from helpers import drawn_lines, drawn_text
from tui.ui.widgets.streamed_markdown import StreamedMarkdown, finished

pytestmark = pytest.mark.anyio


def test_a_block_is_finished_by_a_blank_line_outside_a_code_fence():
    assert finished("one paragraph still arriving") == 0
    assert finished("first\n\nsecond arriv") == len("first\n\n")
    assert finished("```\ncode\n\nmore code\n") == 0  # a blank line inside a fence ends nothing
    assert finished("```\ncode\n\n```\n\nafter") == len("```\ncode\n\n```\n\n")
    assert finished("a\n\n   ~~~\nx\n\n") == len("a\n\n")  # a fence indented up to three spaces opens
    assert finished("a\n\n    ```\nx\n\n") == len("a\n\n    ```\nx\n\n")  # four spaces: code, not a fence
    assert finished("a\n\n") == len("a\n\n") and finished("a\n") == 0


class Holder(App[None]):
    def compose(self) -> ComposeResult:
        with VerticalScroll(id="view"):
            yield StreamedMarkdown()


ANSWER = (
    "Use **this**:\n\n"
    "```python\ndef twice(x):\n\n    return 2 * x\n```\n\n"
    "- one item\n- [a link](http://example.com/docs)\n\n"
    "The end, still arriving"
)


async def test_an_answer_arriving_shows_finished_blocks_as_markdown_and_the_rest_as_text():
    app = Holder()
    async with app.run_test(size=(60, 20)) as pilot:
        answer = app.query_one(StreamedMarkdown)
        heights = []
        for end in [*range(10, len(ANSWER), 7), len(ANSWER)]:  # in pieces, as a stream brings it
            answer.draw(ANSWER[:end], most=18)
            await pilot.pause()
            heights.append(answer.size.height)
        assert heights == sorted(heights)  # it never shrinks while the answer arrives
        assert len(answer.blocks) == 3  # the paragraph, the code (its blank line kept inside) and the list
        lines = drawn_lines(answer)
        assert "Use this:" in lines[0]  # Markdown: the emphasis drawn, not its stars
        assert any("def twice(x):" in line for line in lines) and any("return 2 * x" in line for line in lines)
        assert any(line.strip() == "The end, still arriving" for line in lines)  # the block arriving, as it is

        answer.finish(ANSWER + ".")
        await pilot.pause()
        assert len(answer.blocks) == 4 and answer.size.height == len(drawn_lines(answer))  # exact once over
        assert "• one item" in drawn_text(answer) and "a link (http://example.com/docs)" in drawn_text(answer)
        strips = [answer.render_line(y) for y in range(answer.size.height)]
        assert not any(seg.style and seg.style.link for strip in strips for seg in strip)  # no terminal hyperlink


async def test_an_answer_is_drawn_again_at_a_new_width_and_in_a_new_theme():
    app = Holder()
    async with app.run_test(size=(60, 20)) as pilot:
        answer = app.query_one(StreamedMarkdown)
        answer.finish("word " * 40)
        await pilot.pause()
        wide = answer.size.height
        await pilot.resize_terminal(30, 20)
        await pilot.pause()
        assert answer.size.height > wide and max(len(line) for line in drawn_lines(answer)) <= 30
        assert drawn_text(answer) == ("word " * 40).strip()
        before = [answer.render_line(y) for y in range(2)]
        app.theme = "textual-light"
        await pilot.pause()
        assert [answer.render_line(y) for y in range(2)] != before  # its colours follow the theme


async def test_characters_markdown_decodes_from_entities_are_cleaned_as_drawn():
    app = Holder()
    async with app.run_test(size=(60, 20)) as pilot:
        answer = app.query_one(StreamedMarkdown)
        answer.finish(
            "Open &#x202e;gnp.exe, pa&#x200b;ypal &#x1b;]2;owned&#x7;\n\n"
            "`&#x202e;` [&#x200b;x](http://a.example/&#x202e;) ![&#x202e;](http://b.example/&#x200b;.png)\n\n"
            "# &#x2066;heading &#x1b;[31m\n\n- &#xfeff;item"
        )
        await pilot.pause()
        drawn = drawn_text(answer)
        assert not any(ch in drawn for ch in "\u202e\u200b\x1b\x07\u2066\ufeff")
        assert "\\u202egnp.exe" in drawn and "pa\\u200bypal" in drawn and "\\u2066heading" in drawn  # shown, not obeyed


async def test_answers_on_a_closed_screen_are_freed():
    """A closed chat's answers go with it: a watch on the app's theme kept each one alive."""
    import gc
    import weakref

    from textual.screen import Screen

    made: weakref.WeakSet[StreamedMarkdown] = weakref.WeakSet()  # this test's answers, not another's in the process

    class Chat(Screen[None]):
        def compose(self) -> ComposeResult:
            answer = StreamedMarkdown()
            made.add(answer)
            yield answer

    app = Holder()
    async with app.run_test(size=(60, 20)) as pilot:
        for _ in range(3):
            await app.push_screen(Chat())
            app.query_one(StreamedMarkdown).finish("an answer")
            await pilot.pause()
            await app.pop_screen()
        for _ in range(3):  # what a closed screen held is freed over a few turns of the loop, not at once
            await pilot.pause()
            gc.collect()
        assert len(made) <= 1  # of 3 (one may stay in Textual's caches)
