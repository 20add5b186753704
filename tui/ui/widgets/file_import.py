"""A file read back into a list edited as a change set (`I`, where the kind declares a file format
that loads: a zone file into a zone's records). Nothing is sent: what the file lacks is staged as
deletes, what it adds as creates and what it changes as changes (`products.kit.file_plan`), each checked
by the kind's own create form first (a record the form refuses stops the import, named with why), and
`w` reviews them as a diff before anything is sent. A file whose changes would delete what deserves a
word (a zone's own name servers, more than half the list) asks first, Cancel focused.

Reading, checking and matching the file run in a worker thread, in one pass each; the list then takes
the changes a slice at a time (`Staging.stage_plan`), so keys are answered all along. The cycle
collector waits meanwhile, as it does while a list loads (`collector.paused`)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from ...products.kit.nouns import counted

if TYPE_CHECKING:
    from ...products.kit.base import Row
    from ...products.kit.file_plan import Plan
    from .resource_actions import ResourceActions

    Check = Callable[[dict[str, Any]], dict[str, Any]]  # an object read -> what the create form sends for it


async def import_file(view: ResourceActions) -> None:
    from ...products.kit.flows import Refused
    from ..errors import notify_error
    from ..flow_ui import ViewFlowUI

    file, parent = view.kind.rows.file, view.service.parent
    if view.model.changes:  # the file is the state wanted: not laid over changes staged before it
        view.app.notify(
            f"This list holds {counted(len(view.model.changes), 'staged change')}: send them (w) or drop them "
            "(u, or esc) before importing a file.",
            title="Import",
            severity="warning",
            timeout=10,
        )
        return
    ui = ViewFlowUI(view, view.scope)
    where = parent.name if parent is not None else view.kind.title_in_text
    from ...products.kit import files

    assert file is not None  # (`I` is offered only where the kind reads a file back)
    path = await ui.dialog("file", title=f"Import a {file.name} into {where}", mode="open", path=str(files.folder()))
    if path is None:
        return
    name = Path(path).name
    rows = [r for r in view.table.resources() if not str(r.id).startswith("+")]
    from .. import collector

    try:
        with collector.paused():  # the file's records hold no cycles (see collector.py): no collection stalls a key
            text = await asyncio.to_thread(Path(path).read_text, encoding="utf-8")
            files.used(path)
            check = await _checker(view, text)
            planned = await asyncio.to_thread(_planned, view, text, rows, check)
    except (OSError, UnicodeDecodeError) as err:
        view.app.notify(f"{path} cannot be read: {err}. Nothing was staged.", severity="error", timeout=10)
        return
    except Refused as err:
        notify_error(view.app, err, f"Importing {name}")
        return
    if planned.warnings and not await ui.confirm(
        f"Stage what {name} deletes?",
        f"Importing {name} stages deleting:\n"
        + "\n".join(f"• {w}" for w in planned.warnings)
        + "\n\nNothing is sent yet: w reviews every change first. Stage them?",
        "Stage",
    ):
        view.app.notify(f"{name}: nothing was staged.", title="Import", timeout=6)
        return
    if view.model.changes:  # staged by hand while the file was read: the file is not laid over them
        view.app.notify(
            f"Changes were staged while {name} was read: nothing was staged from it. Send them (w) or drop "
            "them (u, or esc), then import it again.",
            title="Import",
            severity="warning",
            timeout=10,
        )
        return
    with collector.paused():
        await view.staged.stage_plan(planned)
    left = (
        f" {counted(len(planned.left), view.kind.singular)} of the file left as listed: a {file.name} cannot say "
        f"what {'it gives' if len(planned.left) == 1 else 'they give'} ({', '.join(planned.left[:3])}"
        f"{' …' if len(planned.left) > 3 else ''})."
        if planned.left
        else ""
    )
    view.app.notify(
        f"Staged from {name}: {len(planned.adds):,} to add, {len(planned.edits):,} to change, "
        f"{len(planned.deletes):,} to delete, {planned.kept:,} as they are.{left} "
        "Nothing is sent: w reviews them as a diff, u undoes one.",
        title="Import",
        timeout=12,
    )


def _planned(view: ResourceActions, text: str, rows: list[Row], check: Check) -> Plan:
    """The file read and matched against the list's rows (in a worker thread)."""
    from ...products.kit.file_plan import plan

    file, parent = view.kind.rows.file, view.service.parent
    assert file is not None and file.load is not None  # (as `import_file`'s)
    read = file.load.get()(text, parent)
    return plan(file, read, rows, parent, check, view.kind.singular, view.staged.label_of)


async def _checker(view: ResourceActions, text: str) -> Check:
    """`(object read) -> what the create form sends for it`, or `Refused` naming it (`where`: its line)
    and why: each object as if typed in the kind's create form (`edit.from_resource`). Its choices are
    read here, on the loop; the check itself runs in the worker thread."""
    from ...products.kit.flows import Refused
    from ...products.kit.rows import Row, called

    kind, file = view.kind, view.kind.rows.file
    if kind.create is None or kind.edit is None:
        return dict
    # (imported off the loop; both are there: checked above)
    create, edit = await asyncio.to_thread(lambda: (kind.create.get(), kind.edit.get()))  # type: ignore[union-attr]
    _, context = await create.options(view.service, view.scope) if create.options else ({}, {})
    ctx = view.context(view.scope)
    ctx.parent = view.service.parent
    assert file is not None  # (as `import_file`'s)
    where = file.where.get() if file.where is not None else (lambda text, obj: "")
    model, context = create.form_model, context or None

    def check(obj: dict[str, Any]) -> dict[str, Any]:
        from pydantic import ValidationError  # (in the worker thread: imported there the first time)

        row = Row(dict(obj), kind.state_field, kind.id_field)
        try:
            form = model.model_validate(edit.from_resource(row), context=context)
        except ValidationError as err:
            from .form_fields import first_error

            said = where(text, obj) or f"{kind.singular} read ({called(row)})"
            raise Refused(f"{said}: {first_error(err, model)}; nothing was staged") from None
        return create.to_payload(form, ctx)

    return check
