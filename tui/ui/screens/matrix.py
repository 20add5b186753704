"""Edit a grid of choices in place: rows × columns, each cell one of a few values (database users ×
databases → none / readonly / readwrite / all; any "who may do what where" table).

`space` or `enter` cycles the cell under the cursor; changed cells are marked `*`; columns or cells
that cannot change are shown with their reason and refuse. ctrl+s sends the changes through `save`
(from inside the dialog: a failure is shown here and the edits stay); esc asks before dropping them.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable, Sequence

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.coordinate import Coordinate
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from .. import styles
from ..console_app import expecting_question
from ..widgets.dialog_title import DialogTitle

Cell = tuple[str, str]


class MatrixScreen(ModalScreen[dict[Cell, str] | None]):
    CSS_PATH = styles.DIALOGS
    BINDINGS = [
        Binding("space", "cycle(1)", "Next value", id="next_value"),
        Binding("enter", "cycle(1)", "Next value", show=False, id="next_value_enter"),
        Binding("backspace", "cycle(-1)", "Previous value", show=False, id="previous_value"),
        Binding("j", "move(1, 0)", show=False, id="down"),
        Binding("k", "move(-1, 0)", show=False, id="up"),
        Binding("l", "move(0, 1)", show=False, id="right"),
        Binding("h", "move(0, -1)", show=False, id="left"),
        Binding("ctrl+s", "save", "Save", id="send"),
        Binding("escape", "cancel", "Cancel", id="cancel"),
    ]

    def __init__(
        self,
        title: str,
        rows: Sequence[str],
        columns: Sequence[str],
        values: dict[Cell, str],
        choices: Sequence[str],
        *,
        locked: dict[str, str] | None = None,
        describe: str = "",
        corner: str = "",
        save: Callable[[dict[Cell, str]], Awaitable[Any]] | None = None,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.rows = list(rows)
        self.columns = list(columns)
        self.original = dict(values)
        self.values = dict(values)
        self.choices = list(choices)
        self.locked = locked or {}  # column -> why it cannot change
        self.describe = describe
        self.corner = corner
        self.save = save
        self.busy = False

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="matrix"):
            yield DialogTitle(self.title_text)
            if self.describe:
                yield Static(self.describe, id="matrix-note", markup=False)
            yield DataTable(id="matrix", cursor_type="cell", zebra_stripes=False)
            yield Static("", id="matrix-status", markup=False)
            if self._shown_only():
                why = (
                    next(iter(set(self.locked.values()))) if len(set(self.locked.values())) == 1 else "see each column"
                )
                keys = ("" if "not changed" in why else "shown, not changed: ") + why + " · esc closes"
            else:
                keys = "space cycles " + " → ".join(self.choices) + " · ctrl+s save · esc cancel"
            yield Static(keys, id="matrix-keys", markup=False)

    @property
    def table(self) -> DataTable:
        return self.query_one("#matrix", DataTable)

    def _shown_only(self) -> bool:
        """Every column locked (read-only mode, or nothing managed): nothing here changes."""
        return bool(self.columns) and all(c in self.locked for c in self.columns)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Shown only: the keys that change a cell or save are not offered (the key bar had `^s Save`)."""
        if action in ("cycle", "save") and self._shown_only():
            return False
        return True

    def on_mount(self) -> None:
        table = self.table
        # Keys by position: names come from the API and may repeat or be anything ("_row").
        table.add_column(Text(self.corner), key="corner")
        # Wide enough for any value a cell may take, marked changed ("*readwrite"): a cell cycled to
        # a longer value than its column's name and first values is not cut.
        widest = 1 + max((len(v) for v in (*self.choices, *self.values.values())), default=0)
        for n, col in enumerate(self.columns):
            header = Text(col + (" (locked)" if col in self.locked else ""))
            table.add_column(header, key=f"c{n}", width=max(header.cell_len, widest))
        for n, row in enumerate(self.rows):
            table.add_row(Text(row, style="bold"), *(self._cell((row, col)) for col in self.columns), key=f"r{n}")
        if self.rows and self.columns:
            table.cursor_coordinate = Coordinate(0, 1)
        table.focus()

    def changes(self) -> dict[Cell, str]:
        return {cell: v for cell, v in self.values.items() if self.original.get(cell) != v}

    def _cell(self, cell: Cell) -> Text:
        value = self.values.get(cell, "")
        if cell[1] in self.locked:
            return Text(value or "—", style="dim")
        changed = self.original.get(cell) != value
        return Text(("*" if changed else " ") + value, style="bold" if changed else "")

    def _at_cursor(self) -> Cell | None:
        coord = self.table.cursor_coordinate
        if coord.column == 0 or not self.rows or coord.row >= len(self.rows):
            return None
        return self.rows[coord.row], self.columns[coord.column - 1]

    def _status(self, text: str, error: bool = False) -> None:
        status = self.query_one("#matrix-status", Static)
        status.update(text)
        status.set_class(error, "-error")

    def action_cycle(self, step: int) -> None:
        cell = self._at_cursor()
        if cell is None:
            return
        if cell[1] in self.locked:
            self._status(f"✖ {cell[1]}: {self.locked[cell[1]]}", error=True)
            return
        current = self.values.get(cell, self.choices[0])
        at = self.choices.index(current) if current in self.choices else -1
        self.values[cell] = self.choices[(at + step) % len(self.choices)]
        coord = self.table.cursor_coordinate
        for r, row in enumerate(self.rows):  # every place showing this cell (a name may repeat)
            for c, col in enumerate(self.columns):
                if (row, col) == cell:
                    self.table.update_cell(f"r{r}", f"c{c}", self._cell(cell))
        self.table.cursor_coordinate = coord
        n = len(self.changes())
        self._status(f"{n} change{'s' if n != 1 else ''} to send" if n else "")

    def action_move(self, rows: int, cols: int) -> None:
        coord = self.table.cursor_coordinate
        self.table.cursor_coordinate = Coordinate(
            max(0, min(coord.row + rows, len(self.rows) - 1)),
            max(1, min(coord.column + cols, len(self.columns))),
        )

    def action_save(self) -> None:
        changes = self.changes()
        if not changes:
            self.dismiss({})
        elif self.save is None:
            self.dismiss(changes)
        elif not self.busy:
            self._send(changes, expecting_question(self))

    @work(exclusive=True, group="matrix-save", exit_on_error=False)
    async def _send(self, changes: dict[Cell, str], over: Callable[[], None]) -> None:
        try:
            await self._sending(changes)
        finally:
            over()

    async def _sending(self, changes: dict[Cell, str]) -> None:
        from ...products.kit.flows import Refused, StepCancelled
        from ..errors import describe

        assert self.save is not None
        self.busy = True
        self._status(f"Sending {len(changes)} change{'s' if len(changes) != 1 else ''}…")
        try:
            await self.save(changes)
        except StepCancelled as err:  # the operator's own no: said plainly, the edits stay
            self._status(str(err))
            return
        except Exception as err:  # the edits stay, with the reason
            summary, hint = (str(err), "") if isinstance(err, Refused) else describe(err)
            self._status(f"✖ {summary}\n{hint}".rstrip(), error=True)
            return
        finally:
            self.busy = False
        self.dismiss(changes)

    def action_cancel(self) -> None:
        from .confirm import close_or_ask

        close_or_ask(self, bool(self.changes()), "Drop your changes?", "The cells changed here have not been sent.")
