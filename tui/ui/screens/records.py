"""Edit a short list of records (security-group rules, user data, server volumes) as a whole.

Each record is edited in a FormScreen built from a pydantic model, so every rule of the model is
checked with the field named before anything is sent. Nothing is sent from here: ctrl+s returns
the new list to the caller (e.g. one PUT of the whole rule list); esc asks before dropping changes.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable, Sequence

from pydantic import BaseModel
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label, Static

from ...api.safe import clean
from ...products.kit.base import Choices, Column
from .. import styles
from ..console_app import expecting_question, key_in_force


def _cell(value: str | Text) -> Text:
    """A cell as Text: DataTable reads a str as markup, and records carry API text."""
    return value if isinstance(value, Text) else Text(str(value))


class RecordListScreen(ModalScreen[list[dict[str, Any]] | None]):
    CSS_PATH = styles.DIALOGS
    BINDINGS = [
        Binding("c", "add", "Add", id="create"),  # c creates everywhere
        Binding("e", "edit", "Edit", id="edit"),
        Binding("d", "remove", "Delete", id="delete"),
        # [ and ] (or shift+↑ ↓) move a record: J is the journal everywhere, K its pair
        Binding("left_square_bracket,shift+up", "move(-1)", "Move up", key_display="[", id="move_up"),
        Binding("right_square_bracket,shift+down", "move(1)", "Move down", key_display="]", id="move_down"),
        Binding("j", "cursor(1)", show=False, id="down"),
        Binding("k", "cursor(-1)", show=False, id="up"),
        Binding("g", "cursor_to(0)", show=False, id="top"),  # the first record, the last: as in every list
        Binding("G", "cursor_to(-1)", show=False, id="bottom"),
        Binding("ctrl+s", "save", "Save", id="send"),
        Binding("escape", "cancel", "Cancel", id="cancel"),
    ]

    def __init__(
        self,
        title: str,
        model: type[BaseModel],
        records: list[dict[str, Any]],
        columns: Sequence[Column],
        *,
        ordered: bool = False,
        choices: Choices | None = None,
        describe: str = "",
        context: dict[str, Any] | None = None,
        number_from: int | None = None,
        save: Callable[[list[dict[str, Any]]], Awaitable[Any]] | None = None,
        read_only: bool = False,
        unique: str | tuple[str, ...] | None = None,
    ) -> None:
        super().__init__()
        self.unique = (unique,) if isinstance(unique, str) else tuple(unique or ())  # fields no two records share
        self.read_only = read_only  # shown to read, nothing to change (read-only mode)
        self.save = save  # sends the list from inside the dialog: a refusal keeps the edits here
        self.title_text = title
        self.model = model
        self.records = [dict(r) for r in records]
        self.columns = tuple(columns)
        self.ordered = ordered
        self.choices = choices or {}
        self.context = context or {}
        self.number_from = number_from  # a "#" column numbering the rows from this (order matters)
        self.describe = describe
        self.changed = False

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="records"):
            yield Label(self.title_text + (" (read-only)" if self.read_only else ""), id="dialog-title", markup=False)
            if self.describe:
                yield Static(self.describe, id="records-note", markup=False)
            yield DataTable(id="records", cursor_type="row", zebra_stripes=False)
            key = key_in_force(self)  # the keys in force ([keymap])
            keys = f"{key('create', 'c')} add · {key('edit', 'e')} edit · {key('delete', 'd')} delete"
            if self.ordered:
                keys += f" · {key('move_up', '[')} {key('move_down', ']')} move"
            keys += f" · {key('send', 'ctrl+s')} save · esc cancel"
            if self.read_only:
                keys = "read-only: nothing here is changed · esc close"
            yield Static("", id="records-status", markup=False)
            yield Static(keys, id="records-keys", markup=False)  # keys are not markup ("[")

    @property
    def table(self) -> DataTable:
        return self.query_one("#records", DataTable)

    def on_mount(self) -> None:
        if self.number_from is not None:
            self.table.add_column("#", key="#", width=3)
        for col in self.columns:
            self.table.add_column(col.title, key=col.key, width=col.width)
        self._fill()
        self.table.focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.read_only and action in ("add", "edit", "remove", "move", "save"):
            return False
        return self.ordered if action == "move" else True

    def _fill(self, cursor: int | None = None) -> None:
        status = self.query("#records-status").results(Static)
        for box in status:  # a refusal said of the list as it was: the list changed
            if box.has_class("-error"):
                box.update("")
                box.set_class(False, "-error")
        table = self.table
        row = table.cursor_row if cursor is None else cursor
        table.clear()
        for i, record in enumerate(self.records):
            cells: list[str | Text] = [_cell(col.value(record)) for col in self.columns]
            if self.number_from is not None:
                cells.insert(0, str(i + self.number_from))
            table.add_row(*cells, key=str(i))
        if self.records:
            table.move_cursor(row=max(0, min(row, len(self.records) - 1)))

    def _index(self) -> int | None:
        return self.table.cursor_row if self.records else None

    # ---- editing ------------------------------------------------------------------------------
    def _open(self, record: dict[str, Any] | None, index: int | None) -> None:
        from .form import FormScreen

        async def submit(form: BaseModel, extra: dict[str, Any]) -> dict[str, Any]:
            new = form.model_dump()
            self._refuse_twice(new, index)
            return new

        async def load() -> tuple[Choices, dict[str, Any]]:
            return self.choices, self.context

        def done(result: tuple[dict[str, Any], BaseModel] | None) -> None:
            if not result:
                return
            new = result[0]
            if index is None:
                self.records.append(new)
                at = len(self.records) - 1
            else:
                self.records[index] = new
                at = index
            self.changed = True
            self._fill(at)

        title = "Add" if record is None else "Edit"
        self.app.push_screen(
            FormScreen(
                f"{title}: {self.title_text}",
                self.model,
                submit,
                initial=record,
                loader=load if (self.choices or self.context) else None,
                submit_label="OK",
            ),
            done,
        )

    def _refuse_twice(self, new: dict[str, Any], index: int | None) -> None:
        """A record that repeats another's unique fields is refused in its form (an added user-data
        key `cloud-init` beside the one there replaced it, silently, once sent)."""
        from ...products.kit.flows import Refused

        if not self.unique:
            return
        mine = tuple(new.get(f) for f in self.unique)
        for at, other in enumerate(self.records):
            if at != index and tuple(other.get(f) for f in self.unique) == mine:
                # named as its row shows it (a volume by its name, not its id), numbered as the list is
                first = str(_cell(self.columns[0].value(other))) if self.columns else ""
                shown = clean(first or str(mine[0]) if len(mine) == 1 else first or "the same")
                where = f"#{at + self.number_from}" if self.number_from is not None else f"row {at + 1}"
                raise Refused(f"{shown} is already listed ({where}): edit that row (e) instead")

    def action_add(self) -> None:
        if not self.read_only:  # (the key is off then, but an action may come another way)
            self._open(None, None)

    def action_edit(self) -> None:
        index = self._index()
        if index is not None and not self.read_only:  # enter on a row comes here too: read-only, nothing opens
            self._open(self.records[index], index)

    def action_remove(self) -> None:
        index = self._index()
        if index is not None and not self.read_only:
            del self.records[index]
            self.changed = True
            self._fill(index)

    def action_move(self, step: int) -> None:
        index = self._index()
        if index is None or self.read_only or not 0 <= index + step < len(self.records):
            return
        self.records[index], self.records[index + step] = self.records[index + step], self.records[index]
        self.changed = True
        self._fill(index + step)

    def action_cursor(self, step: int) -> None:
        if self.records:
            self.table.move_cursor(row=max(0, min(self.table.cursor_row + step, len(self.records) - 1)))

    def action_cursor_to(self, at: int) -> None:
        if self.records:
            self.table.move_cursor(row=at % len(self.records))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_edit()

    def action_save(self) -> None:
        if self.save is None:
            self.dismiss(self.records)
        elif not self.busy:
            self._send(expecting_question(self))

    busy = False

    @work(exclusive=True, group="records-save", exit_on_error=False)
    async def _send(self, over: Callable[[], None]) -> None:
        try:
            await self._sending()
        finally:
            over()

    async def _sending(self) -> None:
        from ...api.errors import OutcomeUnknown
        from ...products.kit.flows import Refused, StepCancelled
        from ..errors import describe, log_shown

        assert self.save is not None
        self.busy = True
        status = self.query_one("#records-status", Static)
        status.update("Saving…")
        status.set_class(False, "-error")
        status.set_class(True, "-shown")
        try:
            await self.save([dict(r) for r in self.records])
        except Exception as err:  # refused: the edits stay, with the reason
            if isinstance(err, OutcomeUnknown):  # re-raised in the flow, whose write pipeline looks and says
                self.dismiss(err)  # type: ignore[arg-type]  # (the error for the list: the flow raises it)
                return
            if isinstance(err, StepCancelled):  # the operator's own no: said plainly, not as a failure (walk 22)
                status.update(str(err))
                return
            summary, hint = (
                (str(err), "Change the list and save again, or esc to drop it.")
                if isinstance(err, (Refused, StepCancelled))  # a rule, or a question answered no: not a bug
                else describe(err)
            )
            log_shown(self.title_text, summary)
            status.update(f"✖ {summary}\n{hint}")
            status.set_class(True, "-error")
            return
        finally:
            self.busy = False
        self.dismiss(self.records)

    def action_cancel(self) -> None:
        from .confirm import close_or_ask

        unsent = bool(self.changed) and not self.read_only
        close_or_ask(self, unsent, "Drop your changes?", "The edits made here have not been sent.")
