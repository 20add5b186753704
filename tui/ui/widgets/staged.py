"""Staged edits in a list view (a kind with `batch`): `c`, `e` and `d` change a ChangeSet laid over
the rows instead of sending; `u` undoes the change on the row under the cursor; `w` shows the diff
and, once confirmed, sends it all in one request built by the kind. A failed send keeps every
staged change; a refresh keeps them too. A batch whose answer was lost may look and say what it
found: it returns what to say when the changes were applied after all, raises `NotApplied` (the
changes stay staged) when they were not, and `OutcomeUnclear` when it cannot tell: the changes stay
staged marked `?` (unknown), and the batch looks for them before sending them again. A part of
ResourceView (`Staging`), which says what it needs of the view (`StagingHost`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from ...api.errors import OutcomeUnknown
from ...products.base import Column, Row
from ...products.changeset import STAGED, ChangeSet
from ...products.nouns import counted
from ...products.rows import called
from ..errors import guarded, notify_error

if TYPE_CHECKING:
    from ...products.base import ResourceKind
    from ...products.service import ResourceService
    from .resource_table import ResourceTable


VIEWS = ".resource-view"  # the lists (`ResourceView`'s class), found without importing it


def unsent(screens: Any) -> list[Any]:
    """The lists holding staged changes not sent, on `screens` (a part of the screen stack)."""
    return [view for screen in screens for view in screen.query(VIEWS) if getattr(view, "changes", None)]


def sending(screens: Any) -> list[Any]:
    """The lists on `screens` whose staged changes are being sent (their answer awaited)."""
    return [view for screen in screens for view in screen.query(VIEWS) if getattr(view, "sending", False)]


SENDING = "The changes are being sent: wait for the answer."


def unsent_words(views: list[Any]) -> str:
    count = sum(len(v.changes) for v in views)
    where = ", ".join(
        f"{v.kind.title_in_text} of {v.parent_ref.name}" if v.parent_ref is not None else v.kind.title_in_text
        for v in views
    )
    return f"{count} staged change{'s' if count != 1 else ''} ({where}), not sent"


def _preload_review() -> None:
    """The review's modules, imported once a change is staged, after its frame: `w` then opens
    the review without importing them on the key."""
    from ..dialogs import open_dialog  # noqa: F401
    from ..screens import diff  # noqa: F401


STAGED_COLUMN = Column(STAGED, "±", lambda r: r.text(STAGED), width=1)


class StagingHost(Protocol):
    """What the staging part needs of its list view."""

    app: Any
    kind: ResourceKind
    service: ResourceService
    scope: str
    read_only: bool
    table: ResourceTable

    def refresh_bindings(self) -> None: ...

    def update_title(self) -> None: ...

    def call_after_refresh(self, callback: Any) -> Any: ...

    def reload(self) -> None: ...

    def run_worker(self, work: Any, **kwargs: Any) -> Any: ...


class Staging:
    """A list's staged changes: laid over its rows, reviewed, sent as one batch."""

    def __init__(self, host: StagingHost, changes: ChangeSet | None) -> None:
        self.host = host
        self.changes = changes
        self.sending = False  # a send is under way: the list stays until its answer is shown

    # what the view holds, read where it is
    app = property(lambda self: self.host.app)
    kind = property(lambda self: self.host.kind)
    service = property(lambda self: self.host.service)
    scope = property(lambda self: self.host.scope)
    table = property(lambda self: self.host.table)

    @property
    def staging(self) -> bool:
        return self.changes is not None and not self.host.read_only

    def columns(self, columns: tuple[Column, ...]) -> tuple[Column, ...]:
        return (STAGED_COLUMN, *columns) if self.changes is not None else columns

    def shown(self, rows: Any) -> Any:
        """Rows as they will be once the staged changes are sent."""
        if not self.changes:
            return rows
        return self.changes.overlay(rows, self.kind.row_maker(self.scope), self.kind.id_field)

    def _restage_one(self, key: str, before: Any) -> None:
        """Show one row as its staged change makes it (`before`: the row unstaged, None for a new
        one): a change set of hundreds over ten thousand rows costs one row per key, not the table."""
        assert self.changes is not None
        change = self.changes.get(key)
        if change is None and (before is None or key.startswith("+")):
            self.table.remove([key])  # a new row undone
        elif change is None:
            self.table.upsert([before])
        else:
            shown = self.changes.overlay(
                [before] if before is not None else [], self.kind.row_maker(self.scope), self.kind.id_field
            )
            self.table.upsert([r for r in shown if r.id == key])
        self._staged_changed()

    def _staged_changed(self) -> None:
        self.host.refresh_bindings()
        self.host.update_title()
        if self.changes is not None and len(self.changes) == 1:
            self.host.call_after_refresh(_preload_review)

    def label_of(self, data: dict[str, Any]) -> str:
        """How a staged object is named to the operator (the kind's `label`, else its name or id)."""
        if self.kind.writing.label is not None:
            return self.kind.writing.label(data)
        return str(data.get("name") or data.get(self.kind.id_field) or "")

    def rows_as_staged(self, but: str | None = None) -> list[dict[str, Any]]:
        """The list's objects as they will be once the staged changes are sent (those staged for
        deletion left out, and `but`, the one being edited): a staging form's validators see them as
        `rows` in their context, for rules between objects (a CNAME stands alone at its name)."""
        out = []
        for row in self.table.resources():
            change = self.changes.get(row.id) if self.changes else None
            if row.id != but and (change is None or change.op != "delete"):
                out.append({k: v for k, v in row.data.items() if k != STAGED})
        return out

    def _unstaged(self, row: Any) -> Any:
        change = self.changes.get(row.id) if self.changes else None
        if STAGED not in row.data:
            return row
        data = {k: v for k, v in row.data.items() if k != STAGED}
        if change is not None and change.op == "edit":
            data.update(change.before)
        return self.kind.row_maker(self.scope)(data)

    def stage_add(self, payload: dict[str, Any]) -> Row:
        assert self.changes is not None
        key = self.changes.add(payload)
        self._restage_one(key, None)
        return self.table.get(key)

    def stage_edit(self, resource: Any, patch: dict[str, Any]) -> Row:
        assert self.changes is not None
        before = None if str(resource.id).startswith("+") else self._unstaged(resource)
        self.changes.edit(resource.id, before.data if before is not None else {}, patch)
        self._restage_one(resource.id, before)
        return self.table.get(resource.id)

    def ask_delete(self, resource: Any) -> None:
        """`d`: a delete staged; a row added and not sent yet is dropped with what was typed in it, asked first."""
        change = self.changes.get(resource.id) if self.changes is not None else None
        if change is None or change.op != "add":
            self.stage_delete(resource)
            return
        from ..screens.confirm import ConfirmScreen

        name = called(resource)
        said = f"{name} is staged to be added, not sent. Dropping it loses what was typed in it: u cannot undo it."
        self.app.push_screen(
            ConfirmScreen(f"Drop {name}?", said, "Drop"), lambda ok: self.stage_delete(resource) if ok else None
        )

    def stage_delete(self, resource: Any) -> None:
        assert self.changes is not None
        change = self.changes.get(resource.id)
        before = None if str(resource.id).startswith("+") else self._unstaged(resource)
        if change is not None and change.op == "delete":
            self.changes.undo(resource.id)  # d again: no longer deleted
        else:
            self.changes.delete(resource.id, before.data if before is not None else {})
        self._restage_one(resource.id, before)
        if len(self.changes) == 1:  # the title counts them from here: one toast, not one per key
            self.app.notify(
                "Changes are staged, not sent (the title counts them): w reviews and sends them, u undoes one.",
                timeout=4,
            )

    def breaks(self, data: dict[str, Any], key: str) -> str | None:
        """What `data` (the row `key`) breaks among the others as staged, by the kind's rule, or None."""
        rule = self.kind.writing.staged_rule
        if rule is None:
            return None
        return rule.get()({k: v for k, v in data.items() if k != STAGED}, self.rows_as_staged(but=key))

    def broken(self) -> str | None:
        """The first staged row (added or changed) that breaks the kind's rule among the others (one
        staged, another read since, or an undo), said with its name; None when the changes keep it."""
        assert self.changes is not None
        for change in self.changes.changes:
            row = self.table.get(change.key) if change.op != "delete" else None
            problem = self.breaks(row.data, change.key) if row is not None else None
            if problem:
                return f"{self.label_of(row.data) or change.key}: {problem}"
        return None

    def _settle(self) -> None:
        """The changes applied: their rows shown as sent, unmarked, at once (the list read again
        replaces them; should that read fail, they do not stay marked as still to send)."""
        assert self.changes is not None
        make = self.kind.row_maker(self.scope)
        for change in self.changes.changes:
            row = self.table.get(change.key)
            if change.op == "delete" or row is None:
                self.table.remove([change.key])
            else:
                self.table.upsert([make({k: v for k, v in row.data.items() if k != STAGED})])

    @guarded("Undo")
    def undo(self) -> None:
        key = self.table.cursor_key
        row = self.table.get(key) if key is not None else None
        if self.changes is not None and row is not None:
            before = None if str(key).startswith("+") else self._unstaged(row)
            broken = self.breaks(before.data, key) if before is not None else None
            if broken:  # the row back as it was would stand beside one staged since, against the kind's rule
                label = self.label_of(before.data) or key
                said = f"{label} stays as staged: {broken}."
                self.app.notify(said, title="Not undone", severity="warning", timeout=10)
                return
            if self.changes.undo(key):
                self._restage_one(key, before)

    @guarded("Send")
    def write(self) -> None:
        if not self.staging or not self.changes:  # (the key is dim then: nothing to send)
            return
        from ..dialogs import open_dialog

        broken = self.broken()
        if broken:
            said = f"{broken}. Change it (e) or undo it (u) first."
            self.app.notify(said, title="Not sent", severity="warning", timeout=10)
            return
        entries = self.changes.entries(self.label_of)
        count = len(self.changes)

        def answered(ok: bool | None) -> None:
            if ok and self.app.settings.production:  # every change on a production profile: a name typed
                from ..screens.confirm import ConfirmScreen

                parent = self.service.parent
                named = str(parent.name if parent is not None else self.kind.title_in_text)
                said = f"Send {counted(count, 'change')} to {named}."
                said += f"\n\nProfile {self.app.settings.profile} is production."
                asked = ConfirmScreen(f"Send to {named}?", said, "Send", require_text=named)
                self.app.push_screen(asked, lambda typed: self._send_changes() if typed else None)
            elif ok:
                self._send_changes()

        open_dialog(
            self.app,
            "diff",
            answered,
            title=f"Send {counted(count, 'change')} to {self.kind.title_in_text}?",
            entries=entries,
            confirm_label="Send",
        )

    def _send_changes(self) -> None:
        self.host.run_worker(self._sending(), exclusive=True, group="mutate", exit_on_error=False)

    async def _sending(self) -> None:
        self.sending = True
        try:
            await self._send()
        finally:
            self.sending = False

    async def _send(self) -> None:
        assert self.changes is not None and self.kind.writing.batch is not None
        rows = [self._unstaged(r) for r in self.table.resources() if not str(r.id).startswith("+")]
        from ...products.outcome import NotApplied, OutcomeUnclear

        lost = "Sending the changes: the answer was lost"
        from ...api import journal

        parent = self.service.parent
        try:
            what = f"Send {counted(len(self.changes), 'staged change')}"
            with journal.doing(what, self.kind.product, parent.name if parent else "", retry=False):  # w sends again
                said = await self.kind.writing.batch.get()(self.service, self.scope, self.changes, rows)
        except NotApplied as err:
            self.app.notify(
                f"{err}\nThe changes stay staged: w sends them again.", title=lost, severity="warning", timeout=20
            )
            self.host.reload()
            return
        except (OutcomeUnclear, OutcomeUnknown) as err:
            self.changes.mark_unknown()
            self._staged_changed()
            then = (
                "look at the list before sending again"
                if isinstance(err, OutcomeUnknown)  # a batch that cannot look
                else "w looks for them first and sends only what is missing"
            )
            self.app.notify(
                f"{err.summary if isinstance(err, OutcomeUnknown) else err}\nThe changes stay staged, marked ? "
                f"(they may have been applied): {then}.",
                title=lost,
                severity="warning",
                timeout=20,
            )
            self.host.reload()
            return
        except Exception as err:
            notify_error(self.app, err, f"Sending {counted(len(self.changes), 'change')}")
            return  # nothing lost: every change stays staged
        sent = len(self.changes)
        self._settle()
        self.changes.clear()
        self._staged_changed()
        if isinstance(said, str) and said:  # the answer was lost, and the batch looked: applied
            self.app.notify(said, title="Sending the changes: the answer was lost", severity="warning", timeout=20)
        else:
            self.app.notify(f"Sent {counted(sent, 'change')}.", timeout=4)
        self.host.reload()
