"""Delete in a view: why not, staged, or sent through the write pipeline (`products.kit.writes`: asked with
the name typed where data is lost, or on a production profile), and what the table shows after —
including after an answer that was lost. A part of `Writes` (resource_changes.py), whose view it reads."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...api.journal import Act
    from ...products.kit.base import ResourceKind, Row
    from ...products.kit.list_model import ListModel
    from .resource_changes import WritesHost

from ...api.errors import ApiError
from ...products.kit.base import Lazy
from ...products.kit.rows import called, called_with_id
from ..errors import notify_error, notify_lost


class Deletes:
    """A list's delete (`Writes` gives the view, `host`, and its list's `model`)."""

    host: WritesHost
    model: ListModel
    kind: ResourceKind  # (the model's)

    def confirm_delete(self, resource: Row) -> None:
        if self.host.read_only:
            return
        why_not = self.kind.writing.refuses.delete(resource)
        if why_not:
            self.host.app.notify(
                f"Cannot delete {called(resource)}: {why_not}.", title="Delete", severity="warning", timeout=8
            )
            return
        if self.host.staged.staging:  # reviewed with the other staged changes before anything is sent
            self.host.staged.ask_delete(resource)
            return
        if self.kind.writing.deleting.flow is not None:
            self.host.run_flow(self.kind.writing.deleting.flow.get(), resource, "Delete")
            return
        self.delete(resource)

    def delete(self, resource: Row) -> None:
        """The kind's delete of `resource`, asked and sent through the pipeline in a worker."""
        self.host.app.type_ahead.expect_screen()  # keys typed before its question opens wait for it (`d` then the name)
        self.host.run_worker(self._deleting(resource), group="mutate", exit_on_error=False)

    async def _warning(self, resource: Row) -> str | None:
        """What else a delete affects, said when it is asked: declared, or read from the API first (the
        frontends that use a backend); a read that fails says so, and the delete is still asked."""
        warn = self.kind.writing.deleting.warning
        if not isinstance(warn, Lazy):
            return warn(resource)
        try:
            return await warn.get()(self.model.service, self.kind.scope_of(resource) or self.model.scope, resource)
        except ApiError as err:
            return f"What else it affects could not be read ({err.summary})"

    async def _deleting(self, resource: Row) -> None:
        """Asked (Cancel focused; the name typed where data is lost, or on a production profile), sent
        through the pipeline, and what happened shown — including what a look found after a lost answer."""
        from ...products.kit import before_retry, looks  # (the write path: not on the start path)
        from ...products.kit.writes import Question, Write
        from .. import asking

        scope = self.kind.scope_of(resource) or self.model.scope
        service, name = self.model.service, called(resource)
        try:
            warning = await self._warning(resource)
            asked = Question(
                f"Delete {self.kind.singular} {name}?",
                called_with_id(resource)
                + (f" in {self.kind.scope_of(resource)}" if self.kind.scope_type != "global" else "")
                + " will be deleted. This cannot be undone."
                + (f"\n{warning}." if warning else ""),
                "Delete",
                typed=name if self.kind.writing.deleting.needs_name else None,
            )

            async def delete(act: Act) -> None:
                self.host.app.type_ahead.expect_done()  # asked: no dialog comes now, keys typed while it is sent go on
                await service.acting(act).delete(scope, resource)

            done = await asking.send(
                self.host.app,
                Write(
                    "Delete",
                    self.kind.product,
                    name,
                    delete,
                    look=lambda _: looks.after_delete(service, scope, resource.id),
                    ready=partial(before_retry.before_delete, service, scope, resource.id),  # a retry from the journal
                    confirm=asked,
                ),
            )
        except Exception as err:
            notify_error(self.host.app, err, f"Deleting {resource.name}")
            return
        finally:
            self.host.app.type_ahead.expect_done()
        if done.cancelled:
            return
        found = done.found
        if found is None:
            self.host.app.notify(f"Deleted {resource.name}", timeout=4)
            self.forget(resource)
            return
        notify_lost(self.host.app, f"Deleting {resource.name}", found.told)
        if found.applied:
            self.forget(resource)
        elif found.row is not None:
            self.model.put([found.row])
            self.host.follow(found.row)

    def forget(self, resource: Row) -> None:
        """A resource deleted (by a delete here, a bulk act, a flow): out of the table and the counts. Where
        the kind has a GET by id, the row is read again at once and followed instead: gone (404), it leaves
        and the count with it; deleted in the background (a namespace `deleting` for a while), it shows so
        until it is gone — taken out at once, it came back with the next refresh, and the count with it."""
        if self.kind.reading.item.fetch and self.model.rows.get(resource.id) is not None:
            self.host.follow(resource)
            return
        self.model.drop([resource.id])
        sc = self.kind.scope_of(resource)
        if sc in self.model.totals:
            self.model.totals[sc] = max(0, self.model.totals[sc] - 1)
        self.host.update_title()
        self.host.refresh_detail()
        self.host.post_message(self.host.Refreshed(self.host))  # the index and the watches see it gone
