"""Staged edits in a list view (a kind with `batch`): `c`, `e` and `d` change a ChangeSet laid over
the rows instead of sending; `u` undoes the change on the row under the cursor; a file read back
(`I`) stages its changes a slice at a time; `w` shows the diff and, once confirmed, sends them all
through the kind's batch (`staged_send`). A failed send keeps every staged change; a refresh keeps
them too. A part of ResourceView (`Staging`), which says what it needs of the view (`StagingHost`).
"""

from __future__ import annotations

import asyncio
from itertools import chain, islice
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Protocol, cast

from ...products.kit.base import Column, Row
from ...products.kit.changeset import STAGED, laid
from ...products.kit.rows import called
from ..action_host import RunsWorkers
from ..errors import guarded
from .staged_send import Sending

if TYPE_CHECKING:
    from textual.message_pump import Callback
    from textual.screen import Screen

    from ...products.kit.file_plan import Plan
    from ...products.kit.list_model import ListModel
    from ..app import CloudApp
    from .resource_table import ResourceTable
    from .resource_view import ResourceView


VIEWS = ".resource-view"  # the lists (`ResourceView`'s class), found without importing it


# (a query by class is typed Widget: what `VIEWS` finds are ResourceViews)
def unsent(screens: Iterable[Screen[Any]]) -> list[ResourceView]:
    """The lists holding staged changes not sent, on `screens` (a part of the screen stack)."""
    return [
        view for screen in screens for view in cast("Iterable[ResourceView]", screen.query(VIEWS)) if view.model.changes
    ]


def sending(screens: Iterable[Screen[Any]]) -> list[ResourceView]:
    """The lists on `screens` whose staged changes are being sent (their answer awaited)."""
    return [
        view
        for screen in screens
        for view in cast("Iterable[ResourceView]", screen.query(VIEWS))
        if view.staged.sending
    ]


SENDING = "The changes are being sent: wait for the answer."


def unsent_words(views: list[ResourceView]) -> str:
    count = sum(len(v.model.changes or ()) for v in views)  # (views holding changes: `unsent`)
    where = ", ".join(
        f"{v.kind.title_in_text} of {v.service.parent.name}" if v.service.parent is not None else v.kind.title_in_text
        for v in views
    )
    return f"{count} staged change{'s' if count != 1 else ''} ({where}), not sent"


def _preload_review() -> None:
    """The review's modules, imported once a change is staged, after its frame: `w` then opens
    the review without importing them on the key."""
    from ..dialogs import open_dialog  # noqa: F401
    from ..screens import diff  # noqa: F401


STAGED_COLUMN = Column(STAGED, "±", lambda r: r.text(STAGED), width=1)
SLICE = 2_500  # changes of a file staged between two turns of the loop (~25 ms): keys are answered meanwhile


class StagingHost(RunsWorkers, Protocol):
    """What the staging part needs of its list view (the rows and the changes are its model's)."""

    app: CloudApp
    read_only: bool
    table: ResourceTable  # (its cursor)

    def refresh_bindings(self) -> None: ...

    def update_title(self) -> None: ...

    def call_after_refresh(self, callback: Callback, *args: object, **kwargs: object) -> bool: ...

    def reload(self) -> None: ...


class Staging(Sending):
    """A list's staged changes (its model's `changes`): laid over its rows, reviewed, sent as one batch."""

    def __init__(self, host: StagingHost, model: ListModel) -> None:
        self.host, self.model = host, model
        self.kind = model.kind
        self.staging = model.changes is not None and not host.read_only  # edits are staged, not sent
        self.sending = False  # a send is under way: the list stays until its answer is shown

    def columns(self, columns: tuple[Column, ...]) -> tuple[Column, ...]:
        return (STAGED_COLUMN, *columns) if self.staging else columns  # (read-only: nothing is staged)

    def _restage_one(self, key: str, before: Row | None) -> None:
        """Show one row as its staged change makes it (`before`: the row unstaged, None for a new
        one): a change set of hundreds over ten thousand rows costs one row per key, not the table."""
        assert self.model.changes is not None
        change = self.model.changes.get(key)
        if change is None and (before is None or key.startswith("+")):
            self.model.drop([key])  # a new row undone
        elif change is None:
            assert before is not None  # (the branch above takes a row with none)
            self.model.put([before])
        else:
            shown = self.model.changes.overlay(
                [before] if before is not None else [],
                self.kind.row_maker(self.model.scope),
                self.kind.id_field,
            )
            self.model.put([r for r in shown if r.id == key])
        self._staged_changed()

    def _staged_changed(self) -> None:
        self.host.refresh_bindings()
        self.host.update_title()
        if self.model.changes is not None and len(self.model.changes) == 1:
            self.host.call_after_refresh(_preload_review)

    def label_of(self, data: dict[str, Any]) -> str:
        """How a staged object is named to the operator (the kind's `label`, else its name or id)."""
        staged = self.kind.writing.staged
        if staged is not None and staged.label is not None:
            return staged.label(data)
        return str(data.get("name") or data.get(self.kind.id_field) or "")

    def rows_as_staged(self, but: str | None = None) -> list[dict[str, Any]]:
        """The list's objects as they will be once the staged changes are sent (those staged for
        deletion left out, and `but`, the one being edited): a staging form's validators see them as
        `rows` in their context, for rules between objects (a CNAME stands alone at its name)."""
        out = []
        for row in self.model.rows.values():
            change = self.model.changes.get(row.id) if self.model.changes else None
            if row.id != but and (change is None or change.op != "delete"):
                out.append({k: v for k, v in row.data.items() if k != STAGED})
        return out

    def _unstaged(self, row: Row) -> Row:
        change = self.model.changes.get(row.id) if self.model.changes else None
        if STAGED not in row.data:
            return row
        data = {k: v for k, v in row.data.items() if k != STAGED}
        if change is not None and change.op == "edit":
            data.update(change.before)
        return self.kind.row_maker(self.model.scope)(data)

    async def stage_plan(self, plan: Plan) -> None:
        """A file's changes (`file_plan.Plan`: deletes, then changes, then adds), staged a slice at a
        time, each slice's rows shown in one update of the table: linear in the changes, and the loop
        turns between slices, so keys are answered while ten thousand are staged."""
        assert self.model.changes is not None
        make, id_field, changes = (
            self.kind.row_maker(self.model.scope),
            self.kind.id_field,
            self.model.changes,
        )
        steps: Iterator[tuple[str, Any, Any]] = chain(  # (op, the row or None, the patch or payload or None)
            (("delete", row, None) for row in plan.deletes),
            (("edit", row, patch) for row, patch in plan.edits),
            (("add", None, payload) for payload in plan.adds),
        )
        for _ in range(0, len(plan), SLICE):
            shown = []
            for op, row, what in islice(steps, SLICE):
                if op == "add":
                    key, data = changes.add(what), {}
                elif op == "edit":
                    key, data = row.id, row.data
                    changes.edit(key, data, what)
                else:
                    key, data = row.id, row.data
                    changes.delete(key, data)
                change = changes.get(key)
                if change is not None:
                    shown.append(make(laid(change, data, id_field)))
            self.model.put(shown)
            self._staged_changed()
            await asyncio.sleep(0)

    def stage_add(self, payload: dict[str, Any]) -> Row | None:
        assert self.model.changes is not None
        key = self.model.changes.add(payload)
        self._restage_one(key, None)
        return self.model.rows.get(key)

    def stage_edit(self, resource: Row, patch: dict[str, Any]) -> Row | None:
        assert self.model.changes is not None
        before = None if str(resource.id).startswith("+") else self._unstaged(resource)
        self.model.changes.edit(resource.id, before.data if before is not None else {}, patch)
        self._restage_one(resource.id, before)
        return self.model.rows.get(resource.id)

    def ask_delete(self, resource: Row) -> None:
        """`d`: a delete staged; a row added and not sent yet is dropped with what was typed in it, asked first."""
        change = self.model.changes.get(resource.id) if self.model.changes is not None else None
        if change is None or change.op != "add":
            self.stage_delete(resource)
            return
        from ..screens.confirm import ConfirmScreen

        name = called(resource)
        said = f"{name} is staged to be added, not sent. Dropping it loses what was typed in it: u cannot undo it."
        self.host.app.push_screen(
            ConfirmScreen(f"Drop {name}?", said, "Drop"), lambda ok: self.stage_delete(resource) if ok else None
        )

    def stage_delete(self, resource: Row) -> None:
        assert self.model.changes is not None
        change = self.model.changes.get(resource.id)
        before = None if str(resource.id).startswith("+") else self._unstaged(resource)
        if change is not None and change.op == "delete":
            self.model.changes.undo(resource.id)  # d again: no longer deleted
        else:
            self.model.changes.delete(resource.id, before.data if before is not None else {})
        self._restage_one(resource.id, before)
        if len(self.model.changes) == 1:  # the title counts them from here: one toast, not one per key
            self.host.app.notify(
                "Changes are staged, not sent (the title counts them): w reviews and sends them, u undoes one.",
                timeout=4,
            )

    def breaks(self, data: dict[str, Any], key: str) -> str | None:
        """What `data` (the row `key`) breaks among the others as staged, by the kind's rule, or None."""
        staged = self.kind.writing.staged
        rule = staged.rule if staged is not None else None
        if rule is None:
            return None
        rows = [*self.rows_as_staged(but=key), {k: v for k, v in data.items() if k != STAGED}]
        found = rule.get()(rows, [len(rows) - 1])
        return found[1] if found else None

    def broken(self) -> str | None:
        """The first staged row (added or changed) that breaks the kind's rule among the others (one
        staged, another read since, or an undo), said with its name; None when the changes keep it.
        The rule is given every row at once: one pass, however many changes are staged."""
        assert self.model.changes is not None
        staged = self.kind.writing.staged
        rule = staged.rule if staged is not None else None
        if rule is None or all(c.op == "delete" for c in self.model.changes.changes):
            return None  # only deletes: nothing staged can break the rule (and no copy of every row is made)
        rows: list[dict[str, Any]] = []
        changed: list[int] = []
        for row in self.model.rows.values():
            change = self.model.changes.get(row.id)
            if change is not None and change.op == "delete":
                continue
            if change is not None:
                changed.append(len(rows))
            rows.append({k: v for k, v in row.data.items() if k != STAGED})
        found = rule.get()(rows, changed)
        if found is None:
            return None
        at, problem = found
        return f"{self.label_of(rows[at]) or rows[at].get(self.kind.id_field)}: {problem}"

    @guarded("Undo")
    def undo(self) -> None:
        key = self.host.table.cursor_key
        row = self.model.rows.get(key) if key is not None else None
        if self.model.changes is not None and row is not None:
            assert key is not None  # (a row only with it)
            before = None if str(key).startswith("+") else self._unstaged(row)
            broken = self.breaks(before.data, key) if before is not None else None
            if broken:  # the row back as it was would stand beside one staged since, against the kind's rule
                assert before is not None  # (`broken` only with it)
                label = self.label_of(before.data) or key
                said = f"{label} stays as staged: {broken}."
                self.host.app.notify(said, title="Not undone", severity="warning", timeout=10)
                return
            if self.model.changes.undo(key):
                self._restage_one(key, before)
