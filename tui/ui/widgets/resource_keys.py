"""A resource view's keys, shown only when they can work: writes are gone in read-only mode (and,
pressed anyway, say why), verbs that change nothing stay."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, overload

if TYPE_CHECKING:
    from collections.abc import Iterable

    from textual.binding import BindingType
    from textual.css.query import DOMQuery, QueryType
    from textual.screen import Screen
    from textual.widget import Widget

    from ...products.kit.base import ActionSpec, ResourceKind, Row
    from ...products.kit.list_model import ListModel
    from ..app import CloudApp
    from .resource_table import ResourceTable
    from .staged import Staging

from textual import events
from textual.binding import Binding

WRITES = ("create", "edit", "delete")  # the actions of writes, hidden in read-only mode
STAGED = ("write", "undo")  # a list edited as staged changes: send them, undo one
MARKS = ("mark", "mark_all")  # marks, for the acts on several rows: off in read-only mode where every such act writes


# The keys of a list (`ResourceView.BINDINGS`), each with its id for the config's [keymap].
LIST_KEYS: list[BindingType] = [
    Binding("c", "create", "Create", tooltip="Create a new resource", id="create"),
    Binding("e", "edit", "Edit", id="edit"),
    Binding("d", "delete", "Delete", id="delete"),
    Binding("a", "actions", "Actions", id="actions"),
    Binding("r", "refresh", "Refresh", id="refresh"),
    Binding("slash", "filter", "Filter", id="filter"),
    Binding("s", "sort", "Sort", show=False, id="sort"),
    Binding("S", "sort_reverse", "Reverse sort", show=False, id="sort_reverse"),
    Binding("y", "copy_id", "Copy ID", show=False, id="copy_id"),
    Binding("E", "export", "Export", show=False, id="export", tooltip="The rows shown, to a CSV or JSON file"),
    Binding("I", "import_file", "Import", show=False, id="import", tooltip="A file read back: staged, then w"),
    Binding("C", "columns", "Columns", show=False, id="columns", tooltip="Choose, order and size the columns shown"),
    Binding("dollar_sign", "costs", "Monthly estimate", show=False, id="costs", tooltip="From the price list"),
    Binding(
        "R",
        "related",
        "Related",
        show=False,
        tooltip="What points at this resource, and what it points at",
        id="related",
    ),
    Binding("escape", "clear_filter", "Clear filter", show=False, id="clear_filter"),
    Binding("escape", "clear_marks", "Unmark all", show=False, id="clear_marks"),
    # space marks: in the key bar where an action takes several rows, in help elsewhere (the bar keeps z, q…)
    Binding("space", "mark('shown')", "Mark", id="mark_shown"),
    Binding("space", "mark('quiet')", "Mark", show=False, id="mark_quiet"),
    Binding("M", "mark_all", "Mark all shown", show=False, tooltip="Mark every row the filter shows", id="mark_all"),
    Binding(
        "W",
        "watch",
        "Watch",
        show=False,
        tooltip="Be told when its state changes (ctrl+w: what is watched)",
        id="watch",
    ),
    Binding("w", "write", "Send changes", id="write"),
    Binding("u", "undo", "Undo one", id="undo"),
]


class ResourceKeys:
    """Mixed into ResourceView (its kind, read_only, table, model and staged edits)."""

    app: CloudApp
    kind: ResourceKind
    read_only: bool
    table: ResourceTable
    model: ListModel  # the list's model
    staged: Staging  # the view's staged edits
    BINDINGS: ClassVar[list[BindingType]]

    if TYPE_CHECKING:  # Textual's (`Widget.query`)

        @overload
        def query(self, selector: str | None = None) -> DOMQuery[Widget]: ...

        @overload
        def query(self, selector: type[QueryType]) -> DOMQuery[QueryType]: ...

        def query(self, selector: str | type[QueryType] | None = None) -> DOMQuery[Widget] | DOMQuery[QueryType]: ...

        @property
        def screen(self) -> Screen[object]: ...

        def current(self) -> Row | None: ...  # (ResourceActions')

        def run_action(self, resource: Row, spec: ActionSpec, asked: bool = False) -> None: ...

    _own_actions: tuple[object, tuple[ActionSpec, ...]] | None = None  # (the commands, the kind's actions and theirs)

    def all_actions(self) -> tuple[ActionSpec, ...]:
        """The kind's actions, then the operator's own commands declared on it (`[[commands]]`); made once
        for the commands in force (the key bar asks on every refresh)."""
        commands = self.app.settings.commands
        if not commands:
            return self.kind.actions
        made = self._own_actions
        if made is None or made[0] is not commands:
            from ...products.kit.own_commands import actions_for

            taken = frozenset(self.screen.active_bindings)  # (its label names no key that does something else)
            made = self._own_actions = (commands, (*self.kind.actions, *actions_for(commands, self.kind, taken)))
        return made[1]

    def own_action_keyed(self, key: str, bound: Iterable[str] | None = None) -> ActionSpec | None:
        """The operator's own command bound to `key` on this kind, if any; a key the console binds where it
        is pressed (`bound`: the list's screen's, or a detail's) stays the console's (the clash is said at
        start; the menu still runs the command)."""
        if key in (self.screen.active_bindings if bound is None else bound):
            return None
        for command in self.app.settings.commands:
            if command.key == key and self.kind.id in command.kinds:
                return next((a for a in self.all_actions() if a.name == f"own:{command.title}"), None)
        return None

    def run_own_keyed(self, key: str, row: Row | None, bound: Iterable[str] | None = None) -> bool:
        """Run the operator's own command bound to `key` on `row` (refused, said why, in read-only mode when
        it changes things); whether `key` was such a command."""
        own = self.own_action_keyed(key, bound) if self.app.settings.commands else None
        if own is None or row is None:
            return False
        from ..action_runner import offered

        if offered(own, self.read_only):
            self.run_action(row, own)
        else:
            self.app.notify(f"{own.label}: it changes things, and cloudtui runs with --read-only.", severity="warning")
            self.app.type_ahead.refuse()
        return True

    def action_undo(self) -> None:
        self.staged.undo()

    def action_write(self) -> None:
        self.staged.write()

    def may(self, what: str) -> bool | None:
        """Whether a key can work here: writes are gone in read-only mode, verbs that change nothing
        (a GET-only flow, a child list) stay."""
        kind, writable = self.kind, not self.read_only
        if what in WRITES:
            return writable and self.offers(what)
        if what in ("actions", "mark", "mark_all"):
            from ..action_runner import offered  # (not on the start path's imports)
        if what == "actions":
            return bool(kind.children) or any(offered(a, not writable) for a in self.all_actions())
        if what in ("mark", "mark_all"):  # rows are marked for what acts on several at once
            several = any((a.many or a.call is not None) and offered(a, not writable) for a in kind.actions)
            return several or bool(self.may("delete")) or bool(self.may("edit"))
        if what == "clear_marks":
            return bool(self.table.marked) and not self.may("clear_filter")
        if what in ("write", "undo"):  # a list edited as a change set shows them, dim until one is staged
            return (True if self.model.changes else None) if self.staged.staging else False
        if what == "import_file":  # a file read back into a list edited as a change set
            own = kind.rows.file
            return writable and own is not None and own.load is not None and bool(self.staged.staging)
        if what == "costs":  # where the kind has a published price list
            return kind.rows.cost is not None
        if what == "clear_filter":  # else escape goes on to the screen (back, on a child list)
            return bool(self.table._filter) or any(box.display for box in self.query("#filter"))
        return True

    def offers(self, what: str) -> bool:
        """Whether the kind has a create, an edit, a delete, an import or staged changes (read-only mode or not)."""
        kind = self.kind
        if what == "import_file":
            return kind.rows.file is not None and kind.rows.file.load is not None
        if what in STAGED:
            return kind.writing.staged is not None
        if what == "create":
            return kind.create is not None
        if what == "edit":
            return kind.edit is not None
        return kind.delete is not None or kind.writing.deleting.flow is not None or kind.writing.staged is not None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "mark" and parameters:  # in the key bar where marks are the point (an action takes several)
            from ..action_runner import offered

            wanted = any(a.many and offered(a, self.read_only) for a in self.kind.actions)
            return self.may("mark") if (parameters[0] == "shown") == wanted else False
        return self.may(action)

    def refuse_read_only(self, key: str) -> bool:
        """In read-only mode the keys of writes are not offered; pressed anyway, they say why
        nothing happens (True when `key` was one of them)."""
        keymap = self.app.settings.keymap  # the keys in force: a moved key says it, the old one is quiet

        def keys(b: Binding) -> list[str]:
            return [k.strip() for k in keymap.get(b.id or "", b.key).split(",")]

        found = next(
            (
                b
                for b in self.BINDINGS
                if isinstance(b, Binding)
                and b.action.split("(")[0] in (*WRITES, *MARKS, *STAGED, "import_file")
                and key in keys(b)
            ),
            None,
        )
        if not self.read_only or found is None:
            return False
        action = found.action.split("(")[0]
        if action in MARKS:  # marks are for acts on several rows: off when every such act is a write
            if self.may("mark") or not self._marks_when_writable():
                return False
            said = "Marking is off: marked rows are for acts on several, and cloudtui runs with --read-only"
        elif not self.offers(action):
            return False
        else:
            said = f"{str(found.description or action).capitalize()} is off: cloudtui runs with --read-only"
        self.app.notify(f"{said}; restart without it to change anything.", title="Read-only", severity="warning")
        self.app.type_ahead.refuse()  # what was typed after it was meant for the dialog that does not come
        return True

    def _marks_when_writable(self) -> bool:
        """Whether rows could be marked here without --read-only (something acts on several)."""
        from ..action_runner import offered

        kind = self.kind
        return any((a.many or a.call is not None) and offered(a, False) for a in kind.actions) or bool(
            kind.delete is not None or kind.writing.deleting.flow is not None or kind.edit is not None
        )

    def on_key(self, event: events.Key) -> None:
        if self.refuse_read_only(event.key):
            event.stop()
            return
        if self.app.settings.commands and self.run_own_keyed(event.key, self.current()):
            event.stop()  # a command of the operator's own, on the row under the cursor
