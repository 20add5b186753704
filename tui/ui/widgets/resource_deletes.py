"""Delete in a view: why not, staged or asked (the name typed where data is lost, or on a production
profile), the request, and what the table shows after — including after an answer that was lost. A
part of `Writes` (resource_changes.py), whose view it reads."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ...products.base import ResourceKind
    from ...products.list_model import ListModel

from ...api import journal
from ...api.errors import ApiError
from ...products import before_retry, outcome
from ...products.base import Lazy
from ...products.rows import called, called_with_id
from ..errors import notify_error, notify_lost


class Deletes:
    """A list's delete (`Writes` gives the view, `host`, and its list's `model`)."""

    host: Any
    model: ListModel
    kind: ResourceKind  # (the model's)

    def confirm_delete(self, resource: Any) -> None:
        if self.host.read_only:
            return
        why_not = self.kind.writing.deletable(resource)
        if why_not:
            self.host.app.notify(
                f"Cannot delete {called(resource)}: {why_not}.", title="Delete", severity="warning", timeout=8
            )
            return
        if self.host.staged.staging:  # reviewed with the other staged changes before anything is sent
            self.host.staged.ask_delete(resource)
            return
        if self.kind.writing.delete_flow is not None:
            self.host.run_flow(self.kind.writing.delete_flow.get(), resource, "Delete")
            return
        warn = self.kind.writing.delete_warning
        if isinstance(warn, Lazy):  # read from the API before asking (the frontends that use a backend)
            self._warn_then_ask(resource, warn)
        else:
            self._ask_delete(resource, warn(resource))

    def _warn_then_ask(self, resource: Any, warn: Lazy[Any]) -> None:
        self.host.run_worker(self._warned_then_ask(resource, warn), group="mutate", exit_on_error=False)

    async def _warned_then_ask(self, resource: Any, warn: Lazy[Any]) -> None:
        try:
            said = await warn.get()(self.model.service, self.kind.scope_of(resource) or self.model.scope, resource)
        except ApiError as err:
            said = f"What else it affects could not be read ({err.summary})"
        self._ask_delete(resource, said)

    def _ask_delete(self, resource: Any, warning: str | None) -> None:
        from ..screens.confirm import ConfirmScreen

        def answered(ok: bool | None) -> None:
            if ok:
                self.delete(resource)

        name = called(resource)
        self.host.app.push_screen(
            ConfirmScreen(
                f"Delete {self.kind.singular} {name}?",
                called_with_id(resource)
                + (f" in {self.kind.scope_of(resource)}" if self.kind.scope_type != "global" else "")
                + " will be deleted. This cannot be undone."
                + (f"\n{warning}." if warning else ""),
                "Delete",
                require_text=name if self.kind.writing.delete_needs_name or self.host.app.settings.production else None,
            ),
            answered,
        )

    def delete(self, resource: Any) -> None:
        """Send the delete (confirmed already), in a worker, and show what happened."""
        self.host.run_worker(self._deleting(resource), group="mutate", exit_on_error=False)

    async def _deleting(self, resource: Any) -> None:
        scope = self.kind.scope_of(resource) or self.model.scope
        try:
            ready = partial(
                before_retry.before_delete, self.model.service, scope, resource.id
            )  # a retry from the journal
            with journal.doing("Delete", self.kind.product, called(resource), ready=ready):
                found = await outcome.delete(self.model.service, scope, resource)
        except Exception as err:
            notify_error(self.host.app, err, f"Deleting {resource.name}")
            return
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

    def forget(self, resource: Any) -> None:
        """A resource deleted (by a delete here, a bulk act, a flow): out of the table and the counts. Where
        the kind has a GET by id, the row is read again at once and followed instead: gone (404), it leaves
        and the count with it; deleted in the background (a namespace `deleting` for a while), it shows so
        until it is gone — taken out at once, it came back with the next refresh, and the count with it."""
        if self.kind.reading.fetch_detail and self.model.rows.get(resource.id) is not None:
            self.host.follow(resource)
            return
        self.model.drop([resource.id])
        sc = self.kind.scope_of(resource)
        if sc in self.model.totals:
            self.model.totals[sc] = max(0, self.model.totals[sc] - 1)
        self.host.update_title()
        self.host.refresh_detail()
        self.host.post_message(self.host.Refreshed(self.host))  # the index and the watches see it gone
