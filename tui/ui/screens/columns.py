"""The picker of a list's columns (issue 51, item 4; `C` on a list): which of its declared fields it
shows, in which order and how wide, with a preview of the rows it holds drawn as chosen. Enter keeps
the choice (for this profile, or with `t` for every one: `config.save_columns`), Esc leaves the list
as it was, `r` takes the list's own back. Marks are words ([x]), so they read without colour."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from ...api.safe import clean, cut
from ...products.kit import own_columns
from ...products.kit.own_columns import WIDEST, Chosen
from ...records import record
from .. import styles
from ..widgets.dialog_title import DialogTitle
from .option_keys import KEYS, OptionKeys

if TYPE_CHECKING:
    from ...products.kit.base import Column, ResourceKind, Row

PREVIEW_ROWS = 3  # (at 80×24 the fields, the preview and the keys all fit)
GAP = 2  # cells between two columns, as the list draws them


@record(frozen=True)
class ColumnsChosen:
    """The picker's answer: the columns in order (none: the list's own again), and for whom."""

    chosen: tuple[Chosen, ...]
    for_profile: bool


class ColumnsScreen(OptionKeys, ModalScreen["ColumnsChosen | None"]):
    CSS_PATH = styles.DIALOGS
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="cancel"),
        Binding("space", "show_hide", "Show/hide", id="column_toggle"),
        Binding("K,shift+up", "move(-1)", "Move up", id="column_up"),
        Binding("J,shift+down", "move(1)", "Move down", id="column_down"),
        Binding("plus,right", "width(1)", "Wider", id="column_wider"),
        Binding("minus,left", "width(-1)", "Narrower", id="column_narrower"),
        Binding("r", "own", "List's own", id="column_own"),
        Binding("t", "whom", "For whom", id="column_whom"),
        *KEYS,
    ]

    def __init__(
        self,
        kind: ResourceKind,
        rows: Sequence[Row],
        profile: str,
        shown: Sequence[Column],
        own: Sequence[str],
        for_profile: bool = True,
    ) -> None:
        """`shown`: the list's columns as it shows them now; `own`: the keys of its own columns as it would
        show them here (a zone's list leaves its zone out), which `r` takes back and a choice equal to
        which is no choice of the operator's; `for_profile`: whether the choice in force is this profile's
        (or none), rather than every profile's."""
        super().__init__()
        self.kind, self.rows, self.profile, self.own = kind, rows, profile, tuple(own)
        self.candidates = {c.key: c for c in own_columns.candidates(kind)}
        self.for_profile = for_profile
        self._take([Chosen(c.key, c.width) for c in shown])

    @property
    def _first(self) -> str:
        """The key of the list's first own column (its name): first wherever it is shown."""
        return self.kind.columns[0].key  # type: ignore[union-attr]  # (all Columns once the kind is made)

    def _take(self, chosen: Sequence[Chosen]) -> None:
        """Shown: `chosen` (those the list has), in order; then the others, as the list declares them."""
        known = [c for c in chosen if c.key in self.candidates]
        self.shown = [c.key for c in known]
        self.order = self.shown + [k for k in self.candidates if k not in self.shown]
        self.widths = {k: c.width or 0 for k, c in self.candidates.items()}
        self.widths.update({c.key: c.width for c in known if c.width is not None})

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="columns"):
            yield DialogTitle(f"Columns of {self.kind.title}")
            yield Label("", id="columns-whom", markup=False)
            yield OptionList(id="columns-list", markup=False)
            yield Static("", id="columns-preview", markup=False)
            yield Label(
                "enter keeps them · esc as it was · r the list's own · t for whom",
                id="columns-keys",
                markup=False,
            )

    def on_mount(self) -> None:
        self._draw(0)
        self.query_one(OptionList).focus()

    # ---- drawing ------------------------------------------------------------------------------
    def _line(self, key: str) -> Text:
        column = self.candidates[key]
        mark = "[x]" if key in self.shown else "[ ]"
        room = max(10, min(40, self._room() - 38))  # the key's (a line is never wrapped at 80 columns)
        return Text.assemble(
            f"{mark} {cut(column.title, 24):<24} ", (f"{cut(key, room):<{room}}", "dim"), f" {self.widths[key]:>3}"
        )

    def _draw(self, highlighted: int) -> None:
        options = self.query_one(OptionList)
        options.clear_options()
        options.add_options([Option(self._line(k), id=k) for k in self.order])
        options.highlighted = max(0, min(highlighted, len(self.order) - 1))
        whom = f"this profile ({self.profile})" if self.for_profile else "every profile"
        self.query_one("#columns-whom", Label).update(f"Kept for {whom}: t for " + (
            "every profile" if self.for_profile else "this profile alone"))
        self.query_one("#columns-preview", Static).update(self._preview())

    def _preview(self) -> Text:
        """The list's first rows as the columns chosen draw them (plain text: values from the API are
        cleaned of escapes, cut to their column)."""
        every = [self.candidates[k] for k in self.shown]
        room = self._room()
        columns: list[Column] = []
        for c in every:  # the columns that fit whole; the others named
            room -= self.widths[c.key] + (GAP if columns else 0)
            if room < 0 and columns:
                break
            columns.append(c)
        lines = [Text(self._cells([c.title for c in columns], columns), style="bold")]
        for row in self.rows[:PREVIEW_ROWS]:
            cells = []
            for c in columns:
                value = c.value(row)
                cells.append(value.plain if isinstance(value, Text) else str(value))
            lines.append(Text(self._cells(cells, columns)))
        if not self.rows:
            lines.append(Text("(the list holds no rows to show here)", style="italic"))
        held = self.rows[0].raw if self.rows else {}  # (no rows: nothing to say of them)
        unread = [c.title for c in columns if c.field and c.field.path and c.field.path.split(".")[0] not in held]
        if unread and self.rows:  # rows keep only what their columns read: these are read when the list is read again
            lines.append(Text(f"{', '.join(unread)}: read with the list once kept", style="italic"))
        beyond = [c.title for c in every[len(columns) :]]
        if beyond:
            lines.append(Text(f"→ {', '.join(beyond)}: past this width (the list scrolls sideways)", style="italic"))
        return Text("\n", no_wrap=True, overflow="crop").join(lines)

    def _room(self) -> int:
        """The preview's width in cells (before it is first drawn: the dialog's, as its style sheet makes it)."""
        drawn = self.query("#columns-preview")
        width = drawn.first().content_region.width if drawn else 0
        return width or min(110, self.app.size.width * 96 // 100) - 4

    def _cells(self, texts: list[str], columns: list[Column]) -> str:
        widths = [self.widths[c.key] for c in columns]
        return (" " * GAP).join(f"{cut(clean(t), w):<{w}}"[:w] for t, w in zip(texts, widths))

    # ---- keys ---------------------------------------------------------------------------------
    @property
    def _at(self) -> int:
        return self.query_one(OptionList).highlighted or 0

    def _say(self, text: str) -> None:
        self.query_one("#columns-keys", Label).update(text)

    def action_show_hide(self) -> None:
        key = self.order[self._at]
        if key in self.shown and len(self.shown) == 1:
            self._say("A list shows one column at least: show another first.")
            return
        if key in self.shown:
            self.shown.remove(key)
        elif key == self._first:
            self.shown.insert(0, key)  # the name goes first (it stays in place when the list scrolls sideways)
        else:
            self.shown.append(key)  # shown last of those shown, where it now stands in the list
        self.order = self.shown + [k for k in self.order if k not in self.shown]
        self._draw(self.order.index(key))

    def action_move(self, by: int) -> None:
        at = self._at
        key = self.order[at]
        if key not in self.shown:
            self._say("Show it first (space): only the columns shown have an order.")
            return
        to = at + by
        if not 0 <= to < len(self.shown):
            return
        if self._first in (key, self.shown[to]):
            self._say(f"{self.candidates[self._first].title} stays first: it stays in place when the list scrolls.")
            return
        self.shown.insert(to, self.shown.pop(at))
        self.order = self.shown + [k for k in self.order if k not in self.shown]
        self._draw(to)

    def action_width(self, by: int) -> None:
        key = self.order[self._at]
        self.widths[key] = max(own_columns.NARROWEST, min(WIDEST, self.widths[key] + by))
        self._draw(self._at)

    def action_own(self) -> None:
        self._take([Chosen(k) for k in self.own])
        self._draw(0)

    def action_whom(self) -> None:
        self.for_profile = not self.for_profile
        self._draw(self._at)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(ColumnsChosen(self.chosen(), self.for_profile))

    def chosen(self) -> tuple[Chosen, ...]:
        """What is chosen, each width said only where it is not the column's own; none when it is the
        list's own columns as they are (the saved entry is then removed)."""
        out = tuple(
            Chosen(k, self.widths[k] if self.widths[k] != self.candidates[k].width else None) for k in self.shown
        )
        return () if out == tuple(Chosen(k) for k in self.own) else out

    def action_cancel(self) -> None:
        self.dismiss(None)
