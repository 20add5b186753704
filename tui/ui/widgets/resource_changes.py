"""Create, edit and delete in a view: the form or the confirm, the request, and what the table
shows after — including after an answer that was lost ("may have been applied": look, then say).
A part of ResourceView (`Writes`), which says what it needs of the view (`WritesHost`); its delete
is `resource_deletes.Deletes`."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Protocol, TypeVar

from ...products.kit.base import ALL, Row
from ...products.kit.flows import StepCancelled
from ...products.kit.rows import called
from ..action_host import RunsWorkers
from ..errors import notify_lost
from .resource_deletes import Deletes

T = TypeVar("T")
NOT_SENT = "Not sent: nothing was sent. ctrl+s asks again; esc closes."

if TYPE_CHECKING:
    from pydantic import BaseModel
    from textual.message import Message

    from ...api.journal import Act
    from ...products.kit.base import ActionSpec, Choices, Context, CreateSpec, ResourceKind
    from ...products.kit.list_model import ListModel
    from ...products.kit.service import ResourceService
    from ...products.kit.writes import Look, Outcome
    from ..app import CloudApp
    from .resource_actions import Flow
    from .resource_table import ResourceTable
    from .staged import Staging


class WritesHost(RunsWorkers, Protocol):
    """What the writes part needs of its list view (the rows, totals and scope are its model's). A create's
    or an edit's flow (`ViewFlowUI`) is given the view too: what the action runner needs of it (`ActionHost`)."""

    app: CloudApp
    read_only: bool
    staged: Staging
    table: ResourceTable  # (its cursor)
    kind: ResourceKind
    service: ResourceService
    scope: str

    @property
    def Refreshed(self) -> Callable[..., Message]: ...  # (the view's message class: `ResourceView.Refreshed`)

    def context(self, scope: str) -> Context: ...

    def follow(self, resource: Row) -> None: ...

    def forget(self, resource: Row) -> None: ...

    def upsert_row(self, row: Row) -> None: ...

    def reload(self) -> None: ...

    def create_scope(self) -> str: ...

    def run_when_settled(self, row: Row, spec: ActionSpec) -> None: ...

    def update_title(self) -> None: ...

    def refresh_detail(self) -> None: ...

    def reveal_secrets(self, resource: Row) -> None: ...

    def run_flow(self, flow: Flow, resource: Row, what: str, mutating: bool = True) -> None: ...

    def run_action(self, resource: Row, spec: ActionSpec, asked: bool = False) -> None: ...

    def post_message(self, message: Message) -> bool: ...


class Writes(Deletes):
    """A list's create, edit and delete (`Deletes`)."""

    def __init__(self, host: WritesHost, model: ListModel) -> None:
        self.host, self.model = host, model
        self.kind = model.kind

    # create / edit ----------------------------------------------------------------------------
    def create_scope(self) -> str:
        """Where a flow started from "all" acts: the row's own scope is passed when there is one."""
        return self.host.context(self.model.scope).scope if self.model.scope == ALL else self.model.scope

    def open_create(self) -> None:
        if self.model.scope != ALL:
            self._open_create(self.model.scope)
            return
        from ...products.kit.location import scope_word
        from ..screens.picker import PickerScreen

        def picked(scope: str | None) -> None:
            if scope:
                self._open_create(scope)

        word = scope_word(self.kind.scope_type).lower()
        choices = [(sc, sc) for sc in self.kind.all_scopes]
        self.host.app.push_screen(
            PickerScreen(
                f"Create a {self.kind.singular} in which {word}?",
                choices,
                current=self.create_scope(),
                id="create-scope",
                typed_ahead=False,
            ),
            picked,
        )

    def _open_create(self, scope: str) -> None:
        assert self.kind.create is not None
        spec = self.kind.create.get()
        ctx = self.host.context(scope)
        ctx.parent = self.model.service.parent  # a child list's payload names its parent (a certificate's zone)
        from ..screens.form import FormScreen

        lost: set[str] = set()  # created, but the answer was lost: said as such, not as "Created"
        existed: set[str] = set()  # not created: the answer was one already listed (said as such, not counted)

        async def submit(form: BaseModel, extra: dict[str, Any]) -> Row | None:
            ctx.extra = extra
            payload = spec.to_payload(form, ctx)
            if spec.extend is not None:
                from ..flow_ui import ViewFlowUI

                payload = await spec.extend.get()(ViewFlowUI(self.host, scope), form, payload, extra)
                if payload is None:
                    raise StepCancelled("Cancelled: nothing was sent. Change the form, or ctrl+s to go on.")
            if self.host.staged.staging:
                return self.host.staged.stage_add(payload)
            then = self._then_of(spec, form)
            also = f", then {then.label.rstrip('…').lower()}" if then is not None else ""
            from ...products.kit import before_retry, looks  # (the write path: not on the start path)
            from ...products.kit.writes import Write
            from .. import asking

            held = [r.id for r in self.model.rows.values()]
            named = str(payload.get("name") or self.kind.singular)
            service = self.model.service

            async def create(act: Act) -> Row:
                row = await service.acting(act).create(scope, payload)
                if not payload.get("name"):  # the journal names what was made (a new address)
                    act.made(called(row))
                return row

            done = await asking.send(
                self.host.app,
                Write(
                    "Create",
                    self.kind.product,
                    named,
                    create,
                    look=lambda _: looks.after_create(service, scope, payload, held),
                    ready=partial(before_retry.before_create, service, scope, payload),  # a retry from the journal
                    says=f"Create {self.kind.singular} {named}{self._where(scope)}{also}",
                ),
            )
            if done.cancelled:
                raise StepCancelled(NOT_SENT)
            row = done.answer if done.lost is None else done.found_row()
            assert row is not None
            looked = done.told
            if not looked and row.id in held:  # create-or-get: the platform answered with one it had
                existed.add(row.id)
            if looked:
                if self.kind.secrets.fields:  # a one-time value came in the answer that was lost
                    renew = next((a for a in self.kind.actions if a.name == self.kind.secrets.renewal), None)
                    how = (
                        f"{renew.label.rstrip('…')} (a) makes a new one"
                        if renew
                        else f"delete this {self.kind.singular} (d) and create another"
                    )
                    looked += (
                        f"\nIts {' and '.join(f.replace('_', ' ') for f in self.kind.secrets.fields)} was in the lost"
                        " "
                        f"answer and will not be given again: {how}."
                    )
                notify_lost(self.host.app, f"Creating {row.name or row.id}", looked)
                lost.add(row.id)
            return row

        # a staging form's validators see the list as staged (`rows`)
        async def load() -> tuple[Choices, dict[str, Any]]:
            choices, context = await spec.options(self.model.service, scope) if spec.options else ({}, {})
            return choices, {
                **context,
                "rows": self.host.staged.rows_as_staged(),
            } if self.host.staged.staging else context

        def done(result: tuple[Row, BaseModel] | None) -> None:
            if not result:
                return
            created, form = result
            if self.host.staged.staging:
                self.host.table.move_to(created.id)
                self.host.app.notify(f"Staged: a new {self.kind.singular}. w reviews and sends the changes.", timeout=4)
                return
            self.model.put([created], first=self.kind.reading.order.newest_first)
            self.host.table.move_to(created.id)
            if self.kind.is_transitional(created):  # on its way (to_create, creating…): followed until it settles
                self.host.follow(created)
            if created.id in existed:
                self.said_existing(created)
                return
            if scope in self.model.totals:
                self.model.totals[scope] += 1
            self.host.update_title()
            if created.id not in lost:
                self.host.app.notify(
                    f"Created {created.name or created.id}" + ("" if scope == "global" else f" in {scope}"), timeout=4
                )
            self.host.reveal_secrets(created)
            action = self._then_of(spec, form)
            if action is not None:  # asked already with the create, on a production profile
                self.host.run_action(created, action, asked=True)

        self.host.app.push_screen(
            FormScreen(
                (
                    ("Stage a new " if self.host.staged.staging else "Create ")
                    + f"{self.kind.singular} "
                    + (
                        f"for {self.model.service.parent.name}"
                        if self.model.service.parent is not None
                        else ""
                        if scope == "global"
                        else f"in {scope}"
                    )
                ).strip(),
                spec.form_model,
                submit,
                loader=load if spec.options or self.host.staged.staging else None,
                field_map=spec.field_map,
                submit_label="Stage" if self.host.staged.staging else "Create",
            ),
            done,
        )

    def said_existing(self, row: Row) -> None:
        """A create answered with a resource the list already held (a create-or-get, such as a DNS
        zone's certificate): nothing was made, so nothing is counted; its secrets, readable again,
        are not shown as given once."""
        self.model.service.take_secrets(row.id)
        self.model.service.take_extras(row.id)
        self.host.update_title()
        owner = (
            f"{self.model.service.parent.name} already has"
            if self.model.service.parent is not None
            else "there already is"
        )
        state = f", {row.state}" if row.state else ""
        self.host.app.notify(
            f"Not created: {owner} a {self.kind.singular}: {row.name or row.id}{state}. The platform answered with "
            "it; "
            "nothing new was made.",
            title="Create",
            severity="warning",
            timeout=10,
        )

    def open_edit(self, resource: Row) -> None:
        if self.kind.edit is None or self.host.read_only:
            return
        why_not = self.kind.writing.refuses.edit(resource)
        if why_not:
            self.host.app.notify(
                f"Cannot edit {called(resource)}: {why_not}.", title="Edit", severity="warning", timeout=8
            )
            return
        spec = self.kind.edit.get()
        from ..screens.form import FormScreen

        scope = self.kind.scope_of(resource) or self.model.scope

        said: list[str] = []  # what an edit of several requests sent (`EditSpec.steps`)

        async def submit(form: BaseModel, extra: dict[str, Any]) -> Row | None:
            said_first = spec.confirm(form, resource) if spec.confirm is not None else None
            if said_first and not self.host.staged.staging:
                from ..flow_ui import ViewFlowUI

                if not await ViewFlowUI(self.host, scope).confirm(f"Save {resource.name}?", said_first, "Save"):
                    raise StepCancelled("Not saved: nothing was sent. ctrl+s asks again; esc closes.")
            from ...products.kit import looks
            from ...products.kit.diff import edited
            from ...products.kit.vocabulary import labels_of

            service = self.model.service
            # what the question says changes, in the form's words
            changes = edited(spec.from_resource(resource), form.model_dump(), labels_of(type(form)))
            edit = partial(self._edit, called(resource), scope, changes)
            done: Outcome[Any]  # (the steps' answer is a row and what was said; a single request's, a row)
            if spec.steps and not self.host.staged.staging:
                from ...products.kit.edit_steps import send_steps

                done = await edit(lambda act: send_steps(service.acting(act), scope, resource, spec, form))
                done.applied_or_raise()  # (each step looks after its own lost answer)
                row, told = done.answer  # type: ignore[misc]  # (not raised: answered, so not None)
                said[:] = [told]
                return row
            patch = spec.body(form, resource)
            if not patch and spec.method == "PATCH":  # an unchanged form is not a change: nothing staged, nothing sent
                named = self.host.staged.label_of(resource.data) or resource.name or resource.id
                said[:] = [
                    f"Nothing changed in {named}: nothing " + ("staged." if self.host.staged.staging else "was sent.")
                ]
                return resource
            if self.host.staged.staging:
                return self.host.staged.stage_edit(resource, patch)
            done = await edit(
                lambda act: service.acting(act).update(scope, resource.id, patch, spec.method),
                lambda _: looks.after_update(service, scope, resource.id, patch),
            )
            row = done.answer if done.lost is None else done.found_row()
            if done.lost:  # (the row a look found: not None)
                notify_lost(self.host.app, f"Saving {row.name}", done.told)  # type: ignore[union-attr]
            return row

        def done(result: tuple[Row, BaseModel] | None) -> None:
            if result and said and said[0].startswith("Nothing changed"):
                self.host.app.notify(said[0], timeout=4)
            elif result and self.host.staged.staging:
                self.host.app.notify(
                    f"Staged: {self.host.staged.label_of(result[0].data) or result[0].id} changed. w reviews and sends "
                    "the "
                    "changes.",
                    timeout=4,
                )
            elif result:
                self.model.put([result[0]])
                if self.kind.is_transitional(result[0]):  # a volume resizing: read again and polled until it settles
                    self.host.follow(result[0])
                self.host.refresh_detail()
                self.host.app.notify(said[0] if said else f"Saved {result[0].name}", timeout=6 if said else 4)

        # validators see the resource as it is (e.g. a volume only grows)
        async def load() -> tuple[Choices, dict[str, Any]]:
            choices, context = await spec.options(self.model.service, scope) if spec.options else ({}, {})
            return choices, {
                **context,
                "current": resource,
                **({"rows": self.host.staged.rows_as_staged(resource.id)} if self.host.staged.staging else {}),
            }

        self.host.app.push_screen(
            FormScreen(
                ("Stage a change to " if self.host.staged.staging else "Edit ")
                + (self.host.staged.label_of(resource.data) or resource.name or resource.id),
                spec.form_model,
                submit,
                initial=spec.from_resource(resource),
                loader=load,
                submit_label="Stage" if self.host.staged.staging else "Save",
            ),
            done,
        )

    def _then_of(self, spec: CreateSpec, form: BaseModel) -> ActionSpec | None:
        """The action a create form asked to run on what it makes (power it on), or None."""
        if spec.after_create and getattr(form, spec.after_create, False) and spec.after_action:
            return next((a for a in self.kind.actions if a.name == spec.after_action), None)
        return None

    def _where(self, scope: str) -> str:
        return f" in {scope}" if self.kind.scope_type != "global" else ""

    async def _edit(
        self, name: str, scope: str, changes: str, send: Callable[[Act], Awaitable[T]], look: Look | None = None
    ) -> Outcome[T]:
        """An edit of `name` through the pipeline (on a production profile its name typed, at each ctrl+s,
        saying what `changes`); `StepCancelled` when not confirmed: the form stays, with what was typed."""
        from ...products.kit.writes import Write
        from .. import asking

        done = await asking.send(
            self.host.app,
            Write(
                "Edit",
                self.kind.product,
                name,
                send,
                look=look,
                says=f"Save {self.kind.singular} {name}{self._where(scope)}" + (f": {changes}" if changes else ""),
                label="Save",
            ),
        )
        if done.cancelled:
            raise StepCancelled(NOT_SENT)
        return done
