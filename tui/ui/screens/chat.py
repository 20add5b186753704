"""A conversation with a model (a manifest entry `opens="chat"` with a `products.kit.views.ChatSpec`): a model picked
from the endpoint's list, a system prompt, temperature and maximum tokens; each answer streamed as server-sent
events and drawn as it arrives: each finished block as Markdown, the block still arriving as plain text
(`StreamedMarkdown`); its token usage under it, and gauges of the limits the answers' headers report, their resets
counted down. A refusal (429) says which limit is spent and when it resets, and is not retried. The screen is kept
for the session: leaving it and coming back finds the conversation. Nothing here names a product. Keys: enter sends
the message (while an answer comes it says it sent nothing and keeps the message, selected: enter sends it once the
answer is over, a new one typed replaces it), esc stops an answer being streamed (otherwise goes back), ctrl+y
copies the last answer, ctrl+s saves the conversation to a file, ctrl+r lists the models again; a letter typed where
no text goes is the message's. Text from the model is cleaned of control characters and never read as Textual
markup."""

from __future__ import annotations

import time
from asyncio import CancelledError
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Input, Label, Select, Static
from textual.widgets.input import Selection

from ...api.safe import clean
from .. import styles
from ..console_app import wall_time
from ..errors import describe, log_shown
from ..widgets.key_bar import KeyBar
from ..widgets.line_input import LineInput
from ..widgets.status_bar import StatusBar
from ..widgets.streamed_markdown import StreamedMarkdown
from . import chat_words
from .chat_gauges import gauge_text, limits_in, usage_text, used_up

if TYPE_CHECKING:
    from ...api.client import ApiClient
    from ...products.kit.views import ChatSpec
    from .chat_gauges import Headers


FLUSH = 0.05  # seconds between redraws of an answer arriving


class ChatScreen(Screen[None]):
    CSS_PATH = styles.DIALOGS
    BINDINGS = [
        Binding("escape", "stop_or_back", "Stop / back", id="stop_or_back"),
        Binding("ctrl+y", "copy_answer", "Copy answer", priority=True, id="copy_answer"),
        Binding("ctrl+s", "save", "Save", priority=True, id="save"),
        Binding("ctrl+r", "models", "Reload models", priority=True, id="models"),
        Binding("f1", "app.help", "Help", priority=True, id="help"),  # ? is typed into the message here
    ]
    DEFAULT_CSS = """
    ChatScreen #chat-head { width: 100%; height: auto; max-height: 3; padding: 0 1; text-style: bold; }
    ChatScreen .chat-row { height: 1; padding: 0 1; margin-top: 1; }
    ChatScreen .chat-row Label { width: auto; padding-right: 1; color: $text-muted; }
    ChatScreen .chat-row Select { width: 1fr; }
    ChatScreen #chat-temperature { width: 8; margin-right: 1; }
    ChatScreen #chat-max-tokens { width: 10; }
    ChatScreen #chat-system { width: 1fr; }
    /* its width never changes: an answer is not drawn again when the scrollbar comes */
    ChatScreen #conversation { height: 1fr; padding: 0 1; border: round $panel; scrollbar-gutter: stable; }
    ChatScreen .said { margin-top: 1; text-style: bold; }
    ChatScreen .usage { color: $text-muted; }
    ChatScreen StreamedMarkdown { margin-bottom: 1; }
    ChatScreen .failed { color: $error; }
    ChatScreen #chat-input { margin: 0 1; }
    ChatScreen #chat-status { height: auto; max-height: 3; padding: 0 1; }
    """

    def __init__(self, spec: ChatSpec, client: Callable[[], ApiClient]) -> None:
        super().__init__()
        self.spec, self.client = spec, client
        self.messages: list[dict[str, str]] = []
        self.answers: list[str] = []
        self._refused = False  # a 429 is said in the status until its limit renews
        self.incomplete: dict[int, str] = {}  # index in `messages` of an answer that did not end → why
        self.streaming = False
        self.held = ""  # a message enter did not send while an answer came (kept in the field)
        self.gauges: list[str] = []

    def compose(self) -> ComposeResult:
        yield Label(self.spec.title, id="chat-head", markup=False)
        with Horizontal(classes="chat-row"):
            yield Label("Model")
            yield Select([], prompt="loading models…", id="chat-model", allow_blank=True, compact=True)
            yield Label(" Temperature")
            yield LineInput(
                placeholder="0–2", id="chat-temperature", compact=True, tooltip="0 to 2: higher is more varied"
            )
            yield Label("Max tokens")
            yield LineInput(
                placeholder="e.g. 512", id="chat-max-tokens", compact=True, tooltip="the longest answer, in tokens"
            )
        with Horizontal(classes="chat-row"):
            yield Label("System")
            yield LineInput(
                self.spec.system,
                placeholder="optional, e.g. You answer in one paragraph.",
                id="chat-system",
                compact=True,
            )
        yield VerticalScroll(id="conversation")
        yield LineInput(
            placeholder="your message · enter sends", id="chat-input", select_on_focus=False
        )  # letters typed elsewhere are added, not a selection replaced
        yield Static("", id="chat-status", markup=False)
        yield StatusBar()  # the profile in use, PRODUCTION first (main's, on every screen)
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#chat-input", Input).focus()
        self.set_interval(1.0, self._draw_gauges)  # the resets count down
        self.action_models()
        self._status("enter sends · tab moves between the fields")

    # ---- models -------------------------------------------------------------------------------
    def action_models(self) -> None:
        self._load_models()

    @work(exclusive=True, group="chat-models", exit_on_error=False)
    async def _load_models(self) -> None:
        select = self.query_one("#chat-model", Select)
        try:
            found = self.spec.model_ids(await self.client().get_json(self.spec.models))
        except Exception as err:
            summary, hint = describe(err)
            log_shown("Listing the models", summary, err)
            select.prompt = "no models listed"
            if getattr(err, "status", 0) in (401, 403, 404):  # a wrong address answers so too
                where = clean(str(getattr(self.client(), "api_url", "")))
                hint = (
                    f"The chat asks {where}: if that is not the generative-model API, set genai_url "
                    f"(or CLOUDTUI_GENAI_URL); else {hint[:1].lower()}{hint[1:]}"
                )
            self._status(f"✖ The models could not be listed: {summary}. {hint} ctrl+r tries again.", "red")
            return
        current = select.value
        select.set_options([(clean(m), m) for m in found])
        select.prompt = "pick a model" if found else "no models offered"  # the blank choice: not read as a model's name
        if current in found:
            select.value = current
        elif found:
            select.value = found[0]

    # ---- a message ----------------------------------------------------------------------------
    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "chat-input":
            self.query_one("#chat-input", Input).focus()
            return
        text = event.value.strip()
        if self.streaming:  # even with nothing typed: enter is answered
            if not text:
                self._status("An answer is still coming: esc stops it.", "yellow")
                return
            # kept, selected whole: enter sends it once the answer is over, typing a new one replaces it
            self.held = event.value
            event.input.selection = Selection(0, len(event.value))
            self._status(
                "✖ Not sent: an answer is still coming (esc stops it). Your message is kept: enter sends it "
                "once the answer is over, typing replaces it.",
                "yellow",
            )
            return
        self.held = ""
        if not text:
            self._status("Type a message first: enter sends it.", "yellow")
            return
        settings = self._settings()
        if settings is None:
            return
        event.input.value = ""
        system = self.query_one("#chat-system", Input).value.strip()
        messages = (
            ([{"role": "system", "content": system}] if system else [])
            + self.messages
            + [{"role": "user", "content": text}]
        )
        self._stream(text, messages, settings)

    def _settings(self) -> dict[str, Any] | None:
        model = self.query_one("#chat-model", Select).value
        if not isinstance(model, str):
            self._status("✖ Not sent: pick a model first (ctrl+r lists them again).", "red")
            return None
        out: dict[str, Any] = {"model": model, "temperature": None, "max_tokens": None}
        temp = self.query_one("#chat-temperature", Input).value.strip()
        tokens = self.query_one("#chat-max-tokens", Input).value.strip()
        try:
            if temp:
                out["temperature"] = float(temp)
                if not 0 <= out["temperature"] <= 2:
                    raise ValueError
        except ValueError:
            self._status("✖ Not sent: the temperature is a number from 0 to 2, e.g. 0.7.", "red")
            self._to_fix("#chat-temperature")
            return None
        if tokens:
            if not tokens.isdigit() or not 1 <= int(tokens) <= 1_000_000:
                self._status("✖ Not sent: max tokens is a whole number from 1 to 1,000,000, e.g. 512.", "red")
                self._to_fix("#chat-max-tokens")
                return None
            out["max_tokens"] = int(tokens)
        return out

    def _to_fix(self, field_id: str) -> None:
        """A setting refused before sending: the focus goes to it, its text selected (the message stays)."""
        field = self.query_one(field_id, Input)
        field.focus()
        field.selection = Selection(0, len(field.value))

    @work(exclusive=True, group="chat-stream", exit_on_error=False)
    async def _stream(self, text: str, messages: list[dict[str, str]], settings: dict[str, Any]) -> None:
        conversation = self.query_one("#conversation", VerticalScroll)
        # The answer is drawn as Markdown block by block as it comes, the block arriving as plain
        # text, redrawn at most every FLUSH seconds (streamed_markdown.py says why). The message,
        # the model's name and the answer are mounted at once: one layout, not three.
        live = StreamedMarkdown(classes="answer-live")
        await conversation.mount(
            Static(Text("You", style="bold"), classes="said"),
            Static(Text(clean(text, keep_newlines=True))),
            Static(Text(clean(settings["model"]), style="bold"), classes="said"),
            live,
        )
        conversation.scroll_end(animate=False)
        got: list[str] = []
        usage: dict[str, Any] | None = None
        ending, finish = "", ""
        skipped: list[str] = []  # why each event not understood was skipped
        started = self._now()
        drawn = 0.0
        self.streaming, self._refused = True, False
        self._status("answering… esc stops")
        try:
            async with self.client().stream(
                "POST", self.spec.completions, json=self.spec.body(messages, settings), mutating=False
            ) as answer_stream:
                self._gauges(answer_stream.headers)
                async for event in answer_stream.events():
                    try:
                        chunk = self.spec.chunk(event.data)
                    except ValueError as err:  # not an answer chunk: said under the answer, which goes on
                        if event.data.strip():  # (an empty one is a keep-alive)
                            skipped.append(chat_words.skipped(err, event.data))
                        continue
                    if chunk.text:
                        got.append(clean(chunk.text, keep_newlines=True))
                        if time.monotonic() - drawn >= FLUSH:
                            if live.draw("".join(got), conversation.scrollable_content_region.height):
                                conversation.scroll_end(animate=False)
                            drawn = time.monotonic()
                    usage = chunk.usage or usage
                    finish = chunk.finish or finish
                    if chunk.done:
                        break
        except CancelledError:  # esc: the stream is closed, what came stays
            ending = "stopped"
        except Exception as err:
            summary, hint = describe(err)
            log_shown("Chat", summary, err)
            limits = getattr(err, "limits", None) or {}
            if limits:
                self._gauges(limits)  # a refusal's headers say what is left too
            spent = used_up(self.spec.gauges, limits) if getattr(err, "status", 0) == 429 else ""
            self._refused = bool(spent)
            ending = (
                f"refused: {spent}. Not retried: send it again then" if spent else f"interrupted: {summary}. {hint}"
            )
        finally:
            self.streaming = False
        said = "".join(got)
        if got:
            live.finish(said)
        else:
            await live.remove()
        if got:
            self.messages = [m for m in messages if m["role"] != "system"] + [{"role": "assistant", "content": said}]
            self.answers.append(said)
            if ending or finish == "length":  # a saved conversation says the answer is not whole
                self.incomplete[len(self.messages) - 1] = (
                    ending.split(":")[0] if ending else "cut short at the max tokens"
                )
        elif ending:  # nothing came back: the message goes back to be sent again
            field = self.query_one("#chat-input", Input)
            if not field.value:
                field.value = text
                # selected whole: enter sends it again, typing replaces it, an arrow or end edits it
                field.selection = Selection(0, len(text))
                ending += " (your message is kept: enter sends it again, typing replaces it)"
        said_too = " · cut short: the max tokens were reached" if finish == "length" else ""
        if skipped:
            said_too += (
                f" · 1 event not understood was skipped ({skipped[0]})"
                if len(skipped) == 1
                else f" · {len(skipped):,} events not understood were skipped (the first: {skipped[0]})"
            )
        note = usage_text(usage, self._now() - started) + said_too + (f" · {ending}" if ending else "")
        await conversation.mount(
            Static(Text(note), classes="usage failed" if ending.startswith(("interrupted", "refused")) else "usage")
        )
        conversation.scroll_end(animate=False)
        said = f"Answer {ending}." if ending else "enter sends the next message"
        held = self.held
        if held and self.query_one("#chat-input", Input).value == held:  # still there, not sent: said again
            kept = (
                f"“{chat_words.short(held)}” was not sent while the answer came: "
                "enter sends it now, typing replaces it."
            )
            said = f"Answer {ending}. {kept}" if ending else kept
        self._status(said, "red" if ending.startswith(("interrupted", "refused")) else "")

    def _gauges(self, headers: Headers) -> None:
        """The limits an answer reports, kept with when it came: the head counts their resets down (a
        header that is no count reads "unreadable (see log)", and the log says what it was)."""
        said = limits_in(self.spec.gauges, headers)
        if said:
            self._limits, self._limits_at = said, self._now()
            self._draw_gauges()

    def _draw_gauges(self) -> None:
        if not getattr(self, "_limits", None):
            return
        elapsed = self._now() - self._limits_at  # the app's clock: fixed in tests, so a snapshot does not count
        shown = [t for g in self.spec.gauges if (t := gauge_text(g, self._limits, elapsed))]
        if shown:
            self.gauges = shown
            self.query_one("#chat-head", Label).update(Text(f"{self.spec.title} · " + " · ".join(shown)))
            if self._refused and any("(renewed)" in t for t in shown) and not any("(resets " in t for t in shown):
                self._refused = False  # the refusal's "it resets in 33s" is over
                self._status("The limits are renewed: enter sends your message.", "")

    def on_resize(self, event: events.Resize) -> None:
        """Answers are drawn again at the new width, longer or shorter: the transcript stays at its end."""
        conversation = self.query_one("#conversation", VerticalScroll)
        self.call_after_refresh(conversation.scroll_end, animate=False)

    # ---- keys ---------------------------------------------------------------------------------
    def on_key(self, event: events.Key) -> None:
        """A letter typed where no text goes (the transcript, the model list) belongs to the message:
        it goes there, rather than being a key of the console (`q` would quit, taking the
        conversation with it)."""
        if event.is_printable and event.character and not isinstance(self.focused, (Input, Select)):
            field = self.query_one("#chat-input", Input)
            field.focus()
            if field.selection.is_empty:
                field.insert_text_at_cursor(event.character)
            else:  # a kept message, selected whole: a new one replaces it
                field.replace(event.character, *field.selection)
            event.stop()
            event.prevent_default()

    def on_input_changed(self, event: Input.Changed) -> None:
        """Typing replaced the kept message: the status no longer offers to send it."""
        if self.held and event.input.id == "chat-input" and event.value != self.held:
            self.held = ""
            if not self.streaming:
                self._status("enter sends the next message")

    def action_stop_or_back(self) -> None:
        if self.streaming:
            for worker in self.workers:
                if worker.group == "chat-stream":
                    worker.cancel()
            return
        self.app.pop_screen()

    def action_copy_answer(self) -> None:
        if not self.answers:
            self._status("No answer to copy yet.", "yellow")
            return
        self.app.copy_to_clipboard(self.answers[-1])
        self.app.notify("Last answer copied to the clipboard.", timeout=3)

    def transcript(self) -> str:
        system = self.query_one("#chat-system", Input).value.strip()
        model = self.query_one("#chat-model", Select).value
        return chat_words.transcript(
            self.spec.title, model if isinstance(model, str) else None, system, self.messages, self.incomplete
        )

    def action_save(self) -> None:
        from .files import FilePickerScreen

        if not self.messages:
            self._status("Nothing to save yet.", "yellow")
            return
        name = Path.home() / f"chat-{time.strftime('%Y%m%d-%H%M')}.md"
        self.app.push_screen(FilePickerScreen("Save the conversation", "save", name), self._save_to)

    def _save_to(self, path: Path | None) -> None:
        failed = chat_words.save(path, self.transcript()) if path is not None else None
        if failed:
            self._status(failed, "red")
        elif path is not None:
            self.app.notify(f"Conversation saved to {clean(str(path))}.", timeout=4)

    def _now(self) -> float:
        return wall_time(self)  # the console's wall clock (fixed in tests and snapshots)

    def _status(self, text: str, style: str = "") -> None:
        self.query_one("#chat-status", Static).update(Text(text, style=style))
