"""A request to try (a `products.kit.views.Playground` opens it): the payload in an editor, typed or
loaded from a file, sent with a key; the answer, or the error with what to do, shown below; every
exchange kept in the session's history of that resource (reopening the playground finds it, and
the payload left unsent). Nothing here knows what is being tried.

Keys: ctrl+s send, ctrl+o load a file into the payload, tab to the answer (y copies it) and the
history (enter puts an earlier exchange back), esc close.
"""

from __future__ import annotations

import json
import time
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList, Static, TextArea

from ...api.errors import UntrustedOrigin
from ...api.safe import clean, clean_tree
from ...records import record
from .. import styles
from ..console_app import console_of, wall_time
from ..errors import describe, log_shown
from ..widgets.text_input import LinesInput

if TYPE_CHECKING:
    from ..app import CloudApp

MAX_FILE = 1_000_000  # bytes: a payload is typed or a file of sample data, not a dataset


@record
class Exchange:
    at: str
    payload: str
    status: str
    answer: str


@record
class Session:
    draft: str
    history: list[Exchange] = field(default_factory=list)


def sessions_of(app: CloudApp) -> dict[str, Session]:
    """One session per resource tried, kept on the app: for as long as the console runs."""
    return app.playground_sessions


def as_text(answer: object, width: int = 72) -> str:
    """An answer as JSON, each array or object that fits on one line kept on one line (a row of
    predictions reads as a row, not one number a line), the rest indented."""
    return compact_json(clean_tree(answer), width) if not isinstance(answer, str) else clean(answer, keep_newlines=True)


def compact_json(value: object, width: int = 72, indent: int = 0) -> str:
    flat = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(", ", ": "))
    if not isinstance(value, (list, dict)) or not value or indent + len(flat) <= width:
        return flat
    pad = " " * (indent + 2)
    close = "\n" + " " * indent
    if isinstance(value, list):
        if all(not isinstance(v, (list, dict)) for v in value):  # numbers: as many a line as fit
            lines, line = [], ""
            for item in (json.dumps(v, ensure_ascii=False) for v in value):
                if line and len(pad) + len(line) + len(item) + 2 > width:
                    lines.append(line + ",")
                    line = ""
                line += (", " if line else "") + item
            return "[\n" + "\n".join(pad + text for text in lines + [line]) + close + "]"
        return "[\n" + ",\n".join(pad + compact_json(v, width, indent + 2) for v in value) + close + "]"
    items = [
        f"{pad}{json.dumps(str(k), ensure_ascii=False)}: {compact_json(value[k], width, indent + 2)}"
        for k in sorted(value, key=str)
    ]
    return "{\n" + ",\n".join(items) + close + "}"


class PlaygroundScreen(ModalScreen[None]):
    app: CloudApp
    CSS_PATH = styles.DIALOGS
    BINDINGS = [
        Binding("ctrl+s", "send", "Send", priority=True, id="send"),  # the one send key of every screen
        Binding("ctrl+o", "load", "Load file", priority=True, id="load"),
        Binding("y", "copy", "Copy answer", id="copy"),
        Binding("escape", "close", "Close", id="close"),
    ]
    DEFAULT_CSS = """
    PlaygroundScreen #dialog { width: 100; height: 95%; }
    PlaygroundScreen #payload { height: 1fr; min-height: 4; }
    PlaygroundScreen #answer-scroll { height: 1fr; min-height: 3; border: round $panel; }
    PlaygroundScreen #history { height: auto; max-height: 5; border: none; }
    PlaygroundScreen #play-status { height: auto; }
    """

    def __init__(
        self,
        title: str,
        key: str,
        template: str,
        parse: Callable[[str], Any],
        send: Callable[[Any], Awaitable[Any]],
        docs: Callable[[], Awaitable[Any]] | None = None,
        load: Callable[[Path], str] | None = None,
    ) -> None:
        """`load` turns a file picked with ctrl+o into the payload's text (a product's reading of a
        CSV or an image); without it the file is loaded as UTF-8 text."""
        super().__init__(id="playground-dialog")
        self.title_text = title
        self.key, self.template = key, template
        self.parse, self.send_fn, self.docs_fn, self.load_fn = parse, send, docs, load
        self.answer = ""

    def compose(self) -> ComposeResult:
        self.session = sessions_of(self.app).setdefault(self.key, Session(self.template))
        with Vertical(id="dialog", classes="playground"):
            yield Label(self.title_text, id="dialog-title", markup=False)
            yield LinesInput(
                self.session.draft, id="payload", soft_wrap=True, show_line_numbers=False, tab_behavior="focus"
            )
            yield Static("", id="play-status", markup=False)
            with VerticalScroll(id="answer-scroll"):
                yield Static("", id="answer", markup=False)
            yield OptionList(id="history")
            yield Static(
                "ctrl+s send · ctrl+o load a file · tab to the answer (y copy) or history · esc close",
                classes="hint",
                markup=False,
            )

    def on_mount(self) -> None:
        self._show_history()
        self.query_one("#payload", TextArea).focus()
        if self.session.history:
            self._show_exchange(self.session.history[-1])
        elif self.docs_fn is not None:
            self._docs()

    @work(exclusive=True, group="playground-docs", exit_on_error=False)
    async def _docs(self) -> None:
        self._status("reading how to call it…")
        try:
            found = await self.docs_fn()  # type: ignore[misc]  # (run only with one: `on_mount`)
        except Exception as err:
            summary, hint = describe(err)
            log_shown(self.title_text, summary, err)
            self._status(f"The documentation could not be read: {summary}. {hint}", "yellow")
            console = console_of(self)
            if isinstance(err, UntrustedOrigin) and console is not None:  # asked now, as the hint says
                console.origins.ask(err.origin, then=self._docs_again)
            return
        self._set_answer(as_text(found), "How to call it (the API's documentation):\n")
        self._status("ctrl+s sends the payload above.")

    def _docs_again(self) -> None:
        """The documentation's origin allowed: read it, unless this dialog is closed or has an answer."""
        if self.is_attached and not self.answer:
            self._docs()

    # ---- send ---------------------------------------------------------------------------------
    def action_send(self) -> None:
        text = self.query_one("#payload", TextArea).text
        self.session.draft = text
        try:
            body = self.parse(text)
        except ValueError as err:
            self._status(f"✖ Not sent: {clean(str(err))}", "red")
            return
        self._send(text, body)

    @work(exclusive=True, group="playground-send", exit_on_error=False)
    async def _send(self, text: str, body: object) -> None:  # (`body`: what the product's parse made of the text)
        self._status("sending…")
        started = self._now()
        try:
            answer = await self.send_fn(body)
        except Exception as err:
            summary, hint = describe(err)
            log_shown(self.title_text, summary, err)
            console = console_of(self)
            if isinstance(err, UntrustedOrigin) and console is not None:  # the key stays here until allowed
                console.origins.ask(err.origin, again=True)  # sent with ctrl+s: asked even if refused before
            status = f"✖ {summary}"
            shown = f"{summary}\n\n{hint}"
            body_text = getattr(err, "body", None)
            if body_text:
                shown += "\n\nThe API answered:\n" + as_text(body_text)
            self._record(Exchange(self._at(), text, status, shown))
            self._status(status, "red")
            return
        ms = (self._now() - started) * 1000
        status = f"✔ answered in {ms:,.0f} ms"
        self._record(Exchange(self._at(), text, status, as_text(answer)))
        self._status(status, "green")

    def _record(self, exchange: Exchange) -> None:
        self.session.history.append(exchange)
        self._show_history()
        self._set_answer(exchange.answer)

    # ---- history ------------------------------------------------------------------------------
    def _show_history(self) -> None:
        options = self.query_one("#history", OptionList)
        options.clear_options()
        for n, ex in enumerate(reversed(self.session.history)):
            first = clean(" ".join(ex.payload.split()))
            options.add_option(
                Text(f"{ex.at}  {clean(ex.status)[:30]:<30}  {first}", no_wrap=True, overflow="ellipsis")
            )
        options.display = bool(self.session.history)
        if self.session.history:
            options.border_title = f"History ({len(self.session.history)})"
            options.highlighted = 0  # the newest first

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        exchange = self.session.history[len(self.session.history) - 1 - event.option_index]
        self.query_one("#payload", TextArea).text = exchange.payload
        self._show_exchange(exchange)

    def _show_exchange(self, exchange: Exchange) -> None:
        self._set_answer(exchange.answer)
        self._status(f"{exchange.at}: {exchange.status}", "red" if exchange.status.startswith("✖") else "green")

    # ---- files --------------------------------------------------------------------------------
    def action_load(self) -> None:
        from .files import FilePickerScreen

        self.app.push_screen(FilePickerScreen("Load the payload from a file", "open"), self._loaded)

    def _loaded(self, path: Path | None) -> None:
        if path is None:
            return
        try:
            size = path.stat().st_size
            if size > MAX_FILE:
                raise ValueError(f"{path} is over {MAX_FILE:,} bytes")
            text = self.load_fn(path) if self.load_fn is not None else path.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            self._status(f"✖ {clean(str(path))} is not UTF-8 text.", "red")
            return
        except (OSError, ValueError) as err:
            self._status(f"✖ Not loaded: {clean(str(err))}", "red")
            return
        self.query_one("#payload", TextArea).text = text
        self.session.draft = text
        self._status(
            f"Loaded {clean(str(path))} ({size:,} bytes) as a request of {len(text):,} characters: ctrl+s sends it."
        )

    # ---- shown --------------------------------------------------------------------------------
    def _set_answer(self, text: str, heading: str = "") -> None:
        self.answer = text
        self.query_one("#answer", Static).update(Text(heading + clean(text, keep_newlines=True)))

    def _now(self) -> float:
        return wall_time(self)  # the console's wall clock (fixed in tests and snapshots)

    def _at(self) -> str:
        return time.strftime("%H:%M:%S", time.localtime(self._now()))

    def _status(self, text: str, style: str = "") -> None:
        self.query_one("#play-status", Static).update(Text(clean(text), style=style))

    def action_copy(self) -> None:
        if self.answer and not isinstance(self.focused, TextArea):
            self.app.copy_to_clipboard(self.answer)
            self.app.notify("Answer copied to the clipboard.", timeout=3)

    def action_close(self) -> None:
        self.session.draft = self.query_one("#payload", TextArea).text
        self.dismiss(None)
