"""What the action runner (`action_runner.run`) and a product's flows (`flow_ui.ViewFlowUI`) need of
the view that runs them: a list (`ResourceView`) or a panel (`PanelView`). Each says here what it
provides; a unit test checks both provide all of it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from textual.worker import ResultType, Worker, WorkType

    from ..products.kit.base import ActionSpec, Context, ResourceKind, Row
    from ..products.kit.service import ResourceService
    from .app import CloudApp


class RunsWorkers(Protocol):
    """A host a part runs its workers on (Textual's `DOMNode.run_worker`)."""

    def run_worker(
        self,
        work: WorkType[ResultType],
        name: str | None = "",
        group: str = "default",
        description: str = "",
        exit_on_error: bool = True,
        start: bool = True,
        exclusive: bool = False,
        thread: bool = False,
    ) -> Worker[ResultType]: ...


class ActionHost(Protocol):
    app: CloudApp
    kind: ResourceKind
    service: ResourceService
    scope: str  # the scope shown ("all" when a list shows every zone)
    read_only: bool

    def context(self, scope: str) -> Context:
        """The project and scope a request in `scope` is sent with."""
        ...

    def create_scope(self) -> str:
        """Where a flow started from "all" acts."""
        ...

    def follow(self, row: Row) -> None:
        """Show `row` fresh now and keep reading it while it moves."""
        ...

    def forget(self, row: Row) -> None:
        """`row` is gone: out of what is shown."""
        ...

    def upsert_row(self, row: Row) -> None:
        """A row a flow made or read: shown now, followed while it moves."""
        ...

    def reload(self) -> None:
        """Read everything shown again."""
        ...

    def run_when_settled(self, row: Row, spec: ActionSpec) -> None:
        """Run `spec` on `row` once it has settled (`ActionSpec.then`)."""
        ...
