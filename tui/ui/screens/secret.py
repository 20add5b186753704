"""A one-time secret (a password, a token, a TSIG key): hidden until asked, copyable, shown once.

The values never reach a log, a row or the JSON view (the service keeps them aside); here they are
masked until `v`, and `y` copies the highlighted one to the clipboard (OSC 52, so it works over
SSH and in tmux with `set-clipboard on`). Closing forgets them: the platform will not give them
again, so closing a one-time secret that was not copied asks first (Cancel focused). A value of
several lines (a configuration to paste) starts on its own line and is never wrapped: its
indentation reads as it will be pasted, and the list scrolls sideways (← →) for its long lines: a
line longer than the dialog, a configuration's or a single address's, ends in `…` (`widgets.sideways`).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from ...api.safe import clean, mask_userinfo
from .. import styles
from ..console_app import wall_time
from ..widgets.sideways import furthest, shifted

MASK = "•" * 12


class SecretScreen(ModalScreen[None]):
    CSS_PATH = styles.DIALOGS
    BINDINGS = [
        Binding("escape", "close", "Close", id="close"),
        Binding("v", "toggle", "Reveal/hide", id="toggle"),
        Binding("y", "copy", "Copy", id="copy"),
        Binding("j", "move(1)", show=False, id="down"),
        Binding("k", "move(-1)", show=False, id="up"),
        Binding("left,h", "sideways(-8)", show=False, id="left"),
        Binding("right,l", "sideways(8)", show=False, id="right"),
    ]

    def __init__(
        self,
        title: str,
        secrets: dict[str, Any],
        note: str = "",
        expires_at: str | None = None,
        extra: dict[str, Any] | None = None,
        once: tuple[str, ...] = (),
    ) -> None:
        """`secrets` are masked until `v`; `extra` values (a URL, a login) are shown plainly and
        copyable too; `expires_at` (RFC 3339) counts down. `once` names the secrets the platform
        gives once: closing before one was copied (alone or inside a value holding it) asks first."""
        super().__init__(id="secret-dialog")
        self.title_text = title
        self._plain = {k: "" if v is None else str(v) for k, v in (extra or {}).items()}
        self._secrets = {k: "" if v is None else str(v) for k, v in secrets.items()}
        self.note = note or "Shown once: the platform will not give it again. Copy it now (y)."
        self.expires_at = expires_at
        self.revealed = False
        self._once = tuple(name for name in once if self._secrets.get(name))
        self._copied: list[str] = []  # what was copied: a configuration holding the key counts as the key
        self.shift = 0  # columns scrolled sideways (← →)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="secret"):
            yield Label(self.title_text, id="dialog-title", markup=False)
            yield Static(self.note, id="secret-note", markup=False)
            if self.expires_at:
                yield Static(self._left(), id="secret-expiry", markup=False)
            yield OptionList(*self._options(), id="secret-list")
            yield Static("v reveal/hide · y copy · ← → scroll · esc close", classes="hint", markup=False)

    def _lines(self) -> list[tuple[str, Text]]:
        plain = [(name, _line(name, clean(value, keep_newlines=True))) for name, value in self._plain.items()]
        return plain + [
            (name, _line(name, clean(value, keep_newlines=True) if self.revealed else _masked(value)))
            for name, value in self._secrets.items()
        ]

    def _options(self) -> list[Option]:
        return [Option(shifted(text, self.shift), id=name) for name, text in self._lines()]

    def _left(self) -> str:
        from ...products.kit import times
        from ...products.kit.times import moment_of

        seconds = times.left(self.expires_at, wall_time(self))  # the console's wall clock
        if seconds is None:
            return f"expires at {moment_of(self.expires_at)}"
        if seconds <= 0:
            return f"expired ({moment_of(self.expires_at)})"
        return f"expires in {times.span(seconds)} ({moment_of(self.expires_at)})"

    def on_mount(self) -> None:
        box = self.query_one(OptionList)
        box.focus()
        if self._secrets:  # y copies the secret, as the note says, before any move
            box.highlighted = len(self._plain)
        if self.expires_at:
            self.set_interval(1.0, lambda: self.query_one("#secret-expiry", Static).update(self._left()))

    # (v's own; it hides Textual's `action_toggle(attribute_name)`, which no binding here names)
    def action_toggle(self) -> None:  # type: ignore[override]
        self.revealed = not self.revealed
        self._redraw()

    def _redraw(self) -> None:
        box = self.query_one(OptionList)
        at = box.highlighted
        box.clear_options()
        box.add_options(self._options())
        box.highlighted = at

    def action_move(self, step: int) -> None:
        box = self.query_one(OptionList)
        box.action_cursor_down() if step > 0 else box.action_cursor_up()

    def _current(self) -> str | None:
        box = self.query_one(OptionList)
        if box.highlighted is None:
            return next(iter(self._secrets), None)
        return box.get_option_at_index(box.highlighted).id

    def _value(self, name: str) -> str:
        return self._secrets.get(name, self._plain.get(name, ""))

    def action_sideways(self, cells: int) -> None:
        width = self.query_one(OptionList).scrollable_content_region.width
        most = max((furthest(text, width) for _, text in self._lines()), default=0)
        shift = min(max(self.shift + cells, 0), most)
        if shift != self.shift:
            self.shift = shift
            self._redraw()

    def action_copy(self) -> None:
        name = self._current()
        if name is None:
            return
        self._copied.append(self._value(name))
        self.app.copy_to_clipboard(self._value(name))
        self.app.notify(f"Copied {name} to the clipboard.", timeout=4)

    def uncopied(self) -> list[str]:
        """The one-time secrets not copied yet, alone or inside a value that holds them."""
        return [name for name in self._once if not any(self._secrets[name] in copied for copied in self._copied)]

    def action_close(self) -> None:
        lost = self.uncopied()
        if not lost:
            self._forget()
            return
        from .confirm import ConfirmScreen

        self.app.push_screen(
            ConfirmScreen(
                "Copied it? It will not be shown again",
                f"{' and '.join(lost)} {'was' if len(lost) == 1 else 'were'} not copied. Once this closes, "
                "the platform will not give it again: a new one has to be made. Cancel goes back to it (y copies).",
                "Close without it",
            ),
            lambda ok: self._forget() if ok else None,
        )

    def _forget(self) -> None:
        self._secrets, self._plain, self._copied, self._once = {}, {}, [], ()
        self.dismiss(None)


def _line(name: str, value: "str | Text") -> Text:
    """An entry: a value of several lines (a configuration to paste, a key in PEM) starts on its own
    line, so its indentation is the one pasted; none is wrapped (the list scrolls sideways, and a line
    longer than the list ends in `…`)."""
    multi = "\n" in (value.plain if isinstance(value, Text) else value)
    text = Text.assemble((f"{name}:" + ("\n" if multi else " "), "bold"), value)
    text.no_wrap = True
    return text


def _masked(value: str) -> str:
    """A secret as shown until revealed: a URL keeps all but its credential (`vnc://m1:•••@host`)."""
    url = mask_userinfo(clean(value))
    return url if url != clean(value) else MASK
