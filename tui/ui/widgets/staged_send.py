"""Sending a list's staged changes (`w`): the review as a diff (Cancel focused; on a production
profile the name typed too), then the kind's batch in a worker, and what came of it said one way.
Sent: the rows shown as sent. Refused: every change stays staged. The answer lost, and the batch's
look found them not applied (`NotApplied`): they stay staged; could not tell (`OutcomeUnclear`):
they stay staged marked `?`, and the batch looks for them before sending them again. Stopped after
some were applied (`PartlySent`, a batch sent in several requests): what was applied is said and
unstaged, the rest stays staged. A part of `Staging` (a mixin over its model and host).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ...products.kit.base import ResourceKind, Row
    from ...products.kit.list_model import ListModel
    from .staged import StagingHost

from ...products.kit.changeset import STAGED
from ...products.kit.nouns import counted
from ..errors import guarded, notify_error


class Sending:
    """`w` and what follows it, for `Staging`."""

    host: StagingHost
    kind: ResourceKind  # (the model's)
    model: ListModel  # the list's model: its rows and staged changes
    staging: bool
    sending: bool

    if TYPE_CHECKING:  # `Staging`'s

        def broken(self) -> str | None: ...

        def label_of(self, data: dict[str, Any]) -> str: ...

        def _unstaged(self, row: Row) -> Row: ...

        def _staged_changed(self) -> None: ...

    @guarded("Send")
    def write(self) -> None:
        if not self.staging or not self.model.changes:  # (the key is dim then: nothing to send)
            return
        from ..dialogs import open_dialog

        broken = self.broken()
        if broken:
            said = f"{broken}. Change it (e) or undo it (u) first."
            self.host.app.notify(said, title="Not sent", severity="warning", timeout=10)
            return
        entries = self.model.changes.entries(self.label_of)
        count = len(self.model.changes)

        def answered(ok: bool | None) -> None:
            if ok:  # (on a production profile the pipeline asks the name typed, at the send)
                self._send_changes()

        open_dialog(
            self.host.app,
            "diff",
            answered,
            title=f"Send {counted(count, 'change')} to {self.kind.title_in_text}{self._of_parent()}?",
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
        assert self.model.changes is not None and self.kind.writing.staged is not None
        rows = [self._unstaged(r) for r in self.model.rows.values() if not str(r.id).startswith("+")]
        from ...products.kit.outcome import NotApplied, OutcomeUnclear, PartlySent
        from ...products.kit.writes import Write
        from .. import asking

        lost = "Sending the changes: the answer was lost"
        parent = self.model.service.parent
        named = str(parent.name if parent is not None else self.kind.title_in_text)
        count = len(self.model.changes)
        service, batch = self.model.service, self.kind.writing.staged.batch.get()
        try:
            done = await asking.send(
                self.host.app,
                Write(
                    f"Send {counted(count, 'staged change')}",
                    self.kind.product,
                    parent.name if parent else "",
                    lambda act: batch(service.acting(act), self.model.scope, self.model.changes, rows),
                    typed=named,
                    says=f"Send {counted(count, 'change')} to {named}",
                    label="Send",
                    retry=False,  # w sends again
                ),
            )
            if done.cancelled:
                return
            said = done.answer
            if done.lost is not None:  # a batch that cannot look
                self._unclear(lost, done.lost.summary, "look at the list before sending again")
                return
        except NotApplied as err:
            self.host.app.notify(
                f"{err}\nThe changes stay staged: w sends them again.", title=lost, severity="warning", timeout=20
            )
            self.host.reload()
            return
        except OutcomeUnclear as err:
            self._unclear(lost, str(err), "w looks for them first and sends only what is missing")
            return
        except PartlySent as err:  # the requests applied are done; the rest stay staged
            self._settle(err.applied)
            self.model.changes.applied(err.applied)
            self.model.changes.mark_unknown(err.unknown)
            self._staged_changed()
            left = len(self.model.changes)
            stay = "The change not applied stays" if left == 1 else f"The {left:,} changes not applied stay"
            unsure = f", {len(err.unknown):,} of them marked ? (they may have been applied)" if err.unknown else ""
            self.host.app.notify(
                f"{err}\n{stay} staged{unsure}: change (e) or undo (u) one refused, then w sends what is staged.",
                title="Sending the changes: stopped partway",
                severity="warning",
                timeout=30,
            )
            self.host.reload()
            return
        except Exception as err:
            notify_error(self.host.app, err, f"Sending {counted(len(self.model.changes), 'change')}")
            return  # nothing lost: every change stays staged
        sent = len(self.model.changes)
        self._settle()
        self.model.changes.clear()
        self._staged_changed()
        if isinstance(said, str) and said:  # the answer was lost, and the batch looked: applied
            self.host.app.notify(said, title="Sending the changes: the answer was lost", severity="warning", timeout=20)
        else:
            self.host.app.notify(f"Sent {counted(sent, 'change')}.", timeout=4)
        self.host.reload()

    def _of_parent(self) -> str:
        """ " of shop.example.com": whose list the changes go to, when it is a child's (walk 22)."""
        parent = self.model.service.parent
        return f" of {parent.name}" if parent is not None and parent.name else ""

    def _unclear(self, title: str, said: str, then: str) -> None:
        """The batch's answer was lost and whether it was applied cannot be told: its changes stay staged,
        marked `?`; `then` says what to do."""
        assert self.model.changes is not None
        self.model.changes.mark_unknown()
        self._staged_changed()
        self.host.app.notify(
            f"{said}\nThe changes stay staged, marked ? (they may have been applied): {then}.",
            title=title,
            severity="warning",
            timeout=20,
        )
        self.host.reload()

    def _settle(self, keys: list[str] | None = None) -> None:
        """The changes applied (`keys`; all by default): their rows shown as sent, unmarked, at once
        (the list read again replaces them; should that read fail, they do not stay marked as still
        to send), in one update of the table."""
        assert self.model.changes is not None
        make = self.kind.row_maker(self.model.scope)
        gone, sent = [], []
        for change in self.model.changes.changes if keys is None else filter(None, map(self.model.changes.get, keys)):
            row = self.model.rows.get(change.key)
            if change.op == "delete" or row is None:
                gone.append(change.key)
            else:
                sent.append(make({k: v for k, v in row.data.items() if k != STAGED}))
        self.model.drop(gone)
        self.model.put(sent)
