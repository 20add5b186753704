"""A file read back into a list edited as a change set (`I`, where the kind declares a file format
that loads: a zone file into a zone's records). Nothing is sent: what the file lacks is staged as
deletes, what it adds as creates, each checked by the kind's own create form first (a record the form
refuses stops the import, named with why), and `w` reviews them as a diff before anything is sent."""

from __future__ import annotations

import asyncio
from functools import partial
from pathlib import Path
from typing import Any

from ...products.nouns import counted


async def import_file(view: Any) -> None:
    from ...products.flows import Refused
    from ..errors import notify_error
    from ..flow_ui import ViewFlowUI

    file, parent = view.kind.rows.file, view.service.parent
    if view.changes:  # the file is the state wanted: not laid over changes staged before it
        view.app.notify(
            f"This list holds {counted(len(view.changes), 'staged change')}: send them (w) or drop them (u, or esc) "
            "before importing a file.",
            title="Import",
            severity="warning",
            timeout=10,
        )
        return
    ui = ViewFlowUI(view, view.scope)
    where = parent.name if parent is not None else view.kind.title_in_text
    from ...products import files

    path = await ui.dialog("file", title=f"Import a {file.name} into {where}", mode="open", path=str(files.folder()))
    if path is None:
        return
    try:
        text = await asyncio.to_thread(Path(path).read_text, encoding="utf-8")
        files.used(path)
        read = await asyncio.to_thread(file.load.get(), text, parent)
        where = partial(file.where.get(), text) if file.where is not None else (lambda obj: "")
        staged = await _checked(view, read, where)
    except (OSError, UnicodeDecodeError) as err:
        view.app.notify(f"{path} cannot be read: {err}. Nothing was staged.", severity="error", timeout=10)
        return
    except Refused as err:
        notify_error(view.app, err, f"Importing {Path(path).name}")
        return
    key = file.key.get()
    held = file.holds.get() if file.holds is not None else (lambda row: True)
    rows = [r for r in view.table.resources() if not str(r.id).startswith("+") and held(r)]
    listed, wanted = {key(r.data) for r in rows}, {key(p) for p in staged}  # one pass each: no pair compared
    adds = [p for p in staged if key(p) not in listed]
    gone = [r for r in rows if key(r.data) not in wanted]
    for payload in adds:
        view.staged.stage_add(payload)
    for row in gone:
        view.staged.stage_delete(row)
    kept = len(staged) - len(adds)
    view.app.notify(
        f"Staged from {Path(path).name}: {len(adds)} to add, {len(gone)} to delete, {kept} as they are. "
        "Nothing is sent: w reviews them as a diff, u undoes one.",
        title="Import",
        timeout=12,
    )


async def _checked(view: Any, read: list[dict[str, Any]], where: Any) -> list[dict[str, Any]]:
    """Each object read, through the kind's create form (as typed in it: `edit.from_resource`): what the
    form would send, or `Refused` naming the first one it refuses (`where(obj)`: its line) and why."""
    from pydantic import ValidationError

    from ...products.flows import Refused
    from ...products.rows import Row, called
    from .form_fields import first_error

    kind = view.kind
    if kind.create is None or kind.edit is None:
        return read
    create, edit = kind.create.get(), kind.edit.get()
    _, context = await create.options(view.service, view.scope) if create.options else ({}, {})
    ctx = view.context(view.scope)
    ctx.parent = view.service.parent
    out = []
    for n, obj in enumerate(read, start=1):
        values = edit.from_resource(Row(dict(obj), kind.state_field, kind.id_field))
        try:
            form = create.form_model.model_validate(values, context=context or None)
        except ValidationError as err:
            said = (
                where(obj) or f"{kind.singular} #{n} read ({called(Row(dict(obj), kind.state_field, kind.id_field))})"
            )
            raise Refused(f"{said}: {first_error(err, create.form_model)}; nothing was staged") from None
        out.append(create.to_payload(form, ctx))
    return out
