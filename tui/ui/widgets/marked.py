"""What a list does with its marked rows (a part of `ResourceView`): mark all shown, the menu of
what can act on all of them, delete and tag edit on all of them; each run by `ui.bulk` (one
confirmation, a few requests in flight, an outcome per row), or by an action's own flow when it takes
several rows itself (`ActionSpec.many`). Nothing here names a product."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Awaitable, Callable

from ...products.kit.base import ActionSpec

if TYPE_CHECKING:
    from types import ModuleType

    from pydantic import BaseModel

    from ...products.kit.base import Row
    from ...products.kit.vocabulary import TagChange
    from ..bulk import Bulk
    from .resource_view import ResourceView


def _bulk() -> ModuleType:
    """`ui.bulk`, read when a mark is first acted on, not on the console's start path."""
    from .. import bulk

    return bulk


class Marked:
    def __init__(self, view: ResourceView) -> None:
        self.view = view

    def rows(self) -> list[Row]:
        return self.view.table.marked_rows()

    def mark_all(self) -> None:
        """Every row the filter shows is marked (the others keep their marks)."""
        table = self.view.table
        shown = table.shown_keys
        for key in shown:
            if key not in table.marked:
                table.toggle_mark(key)
        self.view.app.notify(f"{len(table.marked)} marked: a acts on them, esc unmarks.", timeout=4)

    def cleared(self) -> None:
        """Marks cleared once an act on them was sent (what came of it stays in its dialog)."""
        if self.view.table.marked:
            self.view.table.clear_marks()
            self.view.update_title()
            self.view.refresh_bindings()

    # ---- the menu --------------------------------------------------------------------------------
    def menu(self, rows: list[Row]) -> None:
        """What can act on all the marked rows: each action offered when it can act on some (how
        many said), greyed with why when on none or when it asks about each one; then delete and
        tag edit when the kind has them."""
        from ..action_runner import offered
        from ..screens.picker import PickerScreen

        bulk = _bulk()

        choices: list[tuple[str, ActionSpec | str, str | None]] = []
        for spec in self.view.kind.actions:
            if not offered(spec, self.view.read_only):
                continue
            why = bulk.bulkable(spec) or self._scopes_why(spec, rows)
            if why is None and not spec.many:
                able = sum(1 for r in rows if not bulk.why_not(spec, r))
                if not able:
                    first = rows[0]
                    why = f"{first.name or first.id}: {bulk.why_not(spec, first)}" + (
                        " (and the others)" if len(rows) > 1 else ""
                    )
                label = spec.label if able in (0, len(rows)) else f"{spec.label} ({able} of {len(rows)})"
            elif why is None:  # its own flow takes the rows: each must allow it
                blocked = next((r for r in rows if bulk.why_not(spec, r)), None)
                why = None if blocked is None else f"{blocked.name or blocked.id}: {bulk.why_not(spec, blocked)}"
                label = spec.label
            else:
                label = spec.label
            choices.append((label, spec, why))
        if self.view.may("edit"):
            choices.append(("Edit tags…", "tags", bulk.tags_editable(self.view.kind)))
        if self.view.may("delete"):
            choices.append(("Delete…", "delete", bulk.deletable_at_once(self.view.kind)))
        if not choices:
            self.view.app.notify("Nothing acts on several rows here: esc unmarks them.", severity="warning")
            return

        def picked(choice: object) -> None:
            if choice == "delete":
                self.delete(rows)
            elif choice == "tags":
                self.tags(rows)
            elif isinstance(choice, ActionSpec):
                self.act(choice, rows)

        self.view.app.push_screen(PickerScreen(f"{len(rows)} marked: actions", choices, id="actions-menu"), picked)

    def _scopes_why(self, spec: ActionSpec, rows: list[Row]) -> str | None:
        """An action's own flow over several rows acts in one zone or region; one request per row
        goes to each row's own."""
        scopes = sorted({self.view.kind.scope_of(r) for r in rows} - {None, ""})
        if not spec.many or len(scopes) < 2:
            return None
        from ...products.kit.location import scope_word

        word = scope_word(self.view.kind.scope_type).lower()
        return f"the marked rows are in {len(scopes)} {word}s: mark those of one {word}"

    # ---- the acts ----------------------------------------------------------------------------------
    def act(self, spec: ActionSpec, rows: list[Row]) -> None:
        if spec.many:  # its flow takes the rows itself (one confirmation of its own)
            self.view._act(spec, rows)
            return
        bulk = _bulk()
        self._run(lambda: bulk.of_action(self.view, spec, rows))

    def delete(self, rows: list[Row]) -> None:
        staged = self.view.staged
        if staged.staging:  # each delete staged, reviewed with the other changes before sending
            for row in rows:
                staged.stage_delete(row)
            self.cleared()
            return
        if _bulk().deletable_at_once(self.view.kind):
            self.view.app.notify(
                f"Deleting a {self.view.kind.singular} asks about each one: delete them one at a time.",
                severity="warning",
                timeout=8,
            )
            return
        self._run(lambda: _bulk().of_delete(self.view, rows))

    def tags(self, rows: list[Row]) -> None:
        bulk = _bulk()
        why = bulk.tags_editable(self.view.kind)
        if why:
            self.view.app.notify(
                f"Tags of several {self.view.kind.title_in_text}: not here, {why}.", severity="warning"
            )
            return
        from ...products.kit.vocabulary import TagChange
        from ..screens.form import FormScreen

        async def submit(form: BaseModel, extra: dict[str, Any]) -> BaseModel:
            return form

        def done(result: tuple[TagChange, BaseModel] | None) -> None:
            if result:
                form = result[0] if isinstance(result, tuple) else result
                self._run(lambda: bulk.of_tags(self.view, rows, form.add, form.remove))

        self.view.app.push_screen(
            FormScreen(f"Tags of {self.view.kind.counted(len(rows))}", TagChange, submit, submit_label="Review"),
            done,
        )

    def _run(self, plan: Callable[[], Awaitable[Bulk | None]]) -> None:
        """Plan the act (its reads: what the question says), then ask and send it. Keys typed while it is
        planned wait for its question (`d` on marked rows, then the count), however long the reads take."""
        type_ahead = self.view.app.type_ahead

        async def running() -> None:
            from ..errors import notify_error

            try:
                planned = await plan()
            except Exception as err:  # reading what the confirmation says failed: nothing is sent
                notify_error(self.view.app, err, "Acting on the marked rows")
                type_ahead.expect_done()  # (said while awaited: the keys typed for its question are dropped)
                return
            if planned is None:  # its questions cancelled
                type_ahead.expect_done()
            elif await _bulk().run(self.view, planned):  # (its question pushed, or why none is said)
                self.cleared()

        type_ahead.expect_screen()
        self.view.run_worker(running(), group="mutate", exit_on_error=False)
