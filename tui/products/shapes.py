"""Action shapes: the conversations most actions are, declared instead of written as flows.

    ActionSpec("acls", "ACL rules (replace the set)…", shape=SetEditor(...))

A shape is run by the console exactly like a flow (`products/flows.py`: the same FlowUI, worker,
read-only rule and error handling), so a product declares what differs and nothing else:

- `ShowValue`: a value to read and copy (a download URL, a configuration snippet);
- `ShowSecret`: a value holding a secret (a URL with a password), masked until revealed;
- `ShowAnswer`: what a GET answers (the platform's default rules, an access open now), shown;
- `SaveAnswer`: a file the API answers (a TLS certificate), saved where the operator says;
- `FormCall`: a form, then one request with its values (then the row followed or the list read);
- `PickCall`: one value picked (a type to change to, a group to join), then one request with it;
- `SetEditor`: a whole set (ACL rules, settings, networks, members) edited as a list and sent in
  one request, with uniqueness and a maximum count checked before sending.

Titles and texts are templates of the row: `{name}`, `{id}`, any row field (`{download_url}`,
`{expires_at:.16}`), `{parent}`, the name of the resource a child list is opened for, and
`{grandparent}`, the name of that resource's own parent. No
Textual and no pydantic here: form models are `Lazy`.
"""

from __future__ import annotations

import inspect
from types import SimpleNamespace
from typing import Any, Callable, Literal

from .base import Choices, Column, Lazy, Row
from .location import Call

# `Lazy` of `async def options(ui, row) -> (choices, context)`: select choices and data the form's
# rules need (in the product's forms module, with the rules that read them).
ShapeOptions = Lazy  # of `async (ui, row) -> (choices, context)`


class Shape:
    """A declared shape: its fields are its annotations, set from the arguments in that order or
    by name; a field with a class default may be left out. Plain classes, not dataclasses: kinds
    on the start-up path declare shapes, and a dataclass costs ~0.5 ms of code generation each."""

    FIELDS: tuple[str, ...] = ()

    def __init_subclass__(cls) -> None:
        cls.FIELDS = tuple(cls.__dict__.get("__annotations__", {}))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(self.FIELDS):
            raise TypeError(f"{type(self).__name__} takes {len(self.FIELDS)} fields, {len(args)} given")
        for name, value in zip(self.FIELDS, args):
            setattr(self, name, value)
        for name, value in kwargs.items():
            if name not in self.FIELDS or name in self.FIELDS[:len(args)]:
                raise TypeError(f"{type(self).__name__}: unexpected or repeated field {name!r}")
            setattr(self, name, value)
        missing = [name for name in self.FIELDS if not hasattr(self, name)]
        if missing:
            raise TypeError(f"{type(self).__name__} needs {', '.join(missing)}")

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self.__dict__:
            raise AttributeError(f"{type(self).__name__} is a declaration: {name} is set once")
        object.__setattr__(self, name, value)


class _Fields(dict):  # type: ignore[type-arg]
    """Template values: the row's fields as text, its name and id, and the parent's name."""

    def __init__(self, row: Row, ui: Any, extra: dict[str, Any]) -> None:
        parent = getattr(ui.service(), "parent", None)
        up = parent.up if parent is not None else None
        super().__init__(name=row.name or row.id, id=row.id, parent=(parent.name or parent.id) if parent else "",
                         grandparent=(up.name or up.id) if up else "", **extra)
        self.row = row

    def __missing__(self, key: str) -> str:
        return self.row.text(key)


def fill_text(template: str, row: Row, ui: Any, **extra: Any) -> str:
    return template.format_map(_Fields(row, ui, extra))


class ShowValue(Shape):
    """A value to read and copy (`y`): `text` is a template of the row."""

    title: str
    text: str
    mutating = False

    async def __call__(self, ui: Any, row: Row) -> None:
        await ui.dialog("result", title=fill_text(self.title, row, ui), text=fill_text(self.text, row, ui))


class ShowSecret(Shape):
    """A row field holding a secret (a URL with a password): masked until `v`, copied whole with `y`."""

    title: str
    field: str
    label: str
    note: str = ""
    mutating = False

    async def __call__(self, ui: Any, row: Row) -> None:
        value = row.get(self.field)
        await ui.dialog("secret", title=fill_text(self.title, row, ui), secrets={self.label: getattr(value, "secret", value)}, note=self.note)


class ShowAnswer(Shape):
    """What a GET answers (`call`), to read and copy: `text` is a template of the answer's fields
    (`{url}`) or a function of the answer. With `secret`, that field is masked until revealed (`v`)
    and `text` is its note; `copy` names fields offered to copy beside it, `expires` the field
    saying until when it works. `absent` is said instead when the API answers 404 (nothing open)."""

    title: str
    call: Call
    text: str | Callable[[dict[str, Any]], str]
    secret: str = ""
    copy: tuple[str, ...] = ()
    expires: str = ""
    absent: str = ""
    mutating = False

    async def __call__(self, ui: Any, row: Row) -> None:
        from ..api.errors import NotFound

        try:
            answer = await ui.service().run(self.call, ui.scope, row)
        except NotFound:
            if not self.absent:
                raise
            ui.notify(fill_text(self.absent, row, ui))
            return
        await self.show(ui, row, answer)

    async def show(self, ui: Any, row: Row, answer: dict[str, Any]) -> None:
        text = self.text(answer) if callable(self.text) else self.text.format_map(_Answer(answer))
        title = fill_text(self.title, row, ui)
        if not self.secret:
            await ui.dialog("result", title=title, text=text)
            return
        await ui.dialog("secret", title=title, secrets={self.secret: answer.get(self.secret)}, note=text,
                        expires_at=answer.get(self.expires) if self.expires else None, extra={k: answer.get(k) for k in self.copy})


class _Answer(dict):  # type: ignore[type-arg]
    def __missing__(self, key: str) -> str:
        return ""


class SaveAnswer(Shape):
    """A file the API answers (`call`, a GET), saved where the operator says."""

    call: Call
    title: str

    @property
    def mutating(self) -> bool:
        return self.call.mutating

    async def __call__(self, ui: Any, row: Row) -> None:
        from .files import save_file_flow

        answer = await ui.service().run(self.call, ui.scope, row)
        await save_file_flow(ui, fill_text(self.title, row, ui), answer)


class FormCall(Shape):
    """A form, then `call` with its values added to the call's own body (`body`, a `Lazy` of
    `(form, row) -> dict`, default: the form's values, secrets as their value). An API error keeps
    the form open with what was typed; an answer lost on the way is looked for (`outcome.send`).
    Then `done` is said (a template of the row, and of the values sent as `{form.bucket}`) and the
    row followed, or the list read again; with `answer` (a `ShowAnswer`), the answer is shown
    (an access opened: its URL and password)."""

    title: str | Callable[[Row, dict[str, Any]], str]  # a template of the row, or a function of the row and the options' context
    form: Lazy[Any]
    call: Call
    done: str = "{name}: sent"
    answer: "ShowAnswer | None" = None
    initial: Callable[[Row], dict[str, Any]] | None = None
    body: Lazy[Callable[[Any, Row], dict[str, Any]]] | None = None
    choices: Choices | None = None  # fixed select choices (`options` loads them)
    options: ShapeOptions | None = None
    submit_label: str = "Send"
    then: Literal["follow", "reload", "upsert"] = "follow"  # upsert: the answer is the new row

    @property
    def mutating(self) -> bool:
        return self.call.mutating

    async def __call__(self, ui: Any, row: Row) -> None:
        from . import outcome
        from .fields import form_body

        choices, context = await self.options.get()(ui, row) if self.options is not None else (self.choices or {}, {})
        lost: list[str] = []

        typed: dict[str, str] = {}

        async def send(form: Any) -> Any:
            body = self.body.get()(form, row) if self.body is not None else form_body(form)
            typed.update({k: str(v) for k, v in form_body(form).items() if isinstance(v, (str, int, float))})
            answer, said = await outcome.send(ui.service(), self.call, ui.scope, row, body)
            if said:
                lost.append(said)
            return answer

        title = self.title(row, context) if callable(self.title) else fill_text(self.title, row, ui)
        sent = await ui.form(title, self.form.get(), initial=self.initial(row) if self.initial else None,
                             choices=choices, context={**context, "current": row}, submit=send, submit_label=self.submit_label)
        if sent is None:
            return
        if self.answer is not None and sent:
            await self.answer.show(ui, row, sent)
        else:
            ui.notify(lost[0] if lost else fill_text(self.done, row, ui, form=SimpleNamespace(**typed)),
                      "warning" if lost else "information")
        if self.then == "upsert" and isinstance(sent, dict) and sent:
            ui.upsert(ui.service().row_of(sent, ui.scope))
        else:
            ui.follow(row) if self.then != "reload" else ui.reload()


class PickCall(Shape):
    """One value picked, then `call` with it at `key` of the body (dotted for a nested field:
    "security_group.id"). `choices` is a fixed list of (label, value), or a `Lazy` of `async (ui,
    row) -> (choices, current)`; picking the current value sends nothing. With `none`, a first
    choice so labelled sends null (leave the group). A choice may be an object (a server row):
    `value` gives what is sent of it, and `confirm(ui, row, picked)` (may be async: it may read what
    is there now) what sending it does, asked first (Cancel focused) under `confirm_title`."""

    title: str
    choices: Lazy[Any] | tuple[tuple[str, Any], ...]
    call: Call
    key: str
    done: str = "{name}: {picked}"
    none: str | None = None
    value: Callable[[Any], Any] | None = None
    confirm: Callable[[Any, Row, Any], Any] | None = None
    confirm_title: str = "{name}: {picked}?"
    confirm_label: str = "Send"

    @property
    def mutating(self) -> bool:
        return self.call.mutating

    async def __call__(self, ui: Any, row: Row) -> None:
        from . import outcome

        if isinstance(self.choices, Lazy):
            choices, current = await self.choices.get()(ui, row)
        else:
            choices, current = list(self.choices), None
        unset = object()  # the picker's value for "none" (None means cancelled)
        offered = ([(self.none, unset)] if self.none is not None else []) + list(choices)
        picked = await ui.pick(fill_text(self.title, row, ui), offered, current=unset if self.none is not None and current is None else current)
        if picked is None:
            return
        if picked == current or (picked is unset and current is None):
            ui.notify(f"{fill_text(self.title, row, ui)}: that is the current choice; nothing was sent.")
            return
        label = next((str(c[0]) for c in offered if c[1] is picked), str(picked))
        label = label.split(" · ")[0].split("  ")[0].strip()  # the choice's name, not its details
        if self.confirm is not None and picked is not unset:
            said = self.confirm(ui, row, picked)
            said = await said if inspect.isawaitable(said) else said
            if not await ui.confirm(fill_text(self.confirm_title, row, ui, picked=label), said, self.confirm_label):
                return
        value = None if picked is unset else (self.value(picked) if self.value is not None else picked)
        body: dict[str, Any] = {}
        *path, last = self.key.split(".")
        nested = body
        for part in path:
            nested = nested.setdefault(part, {})
        nested[last] = value
        if value is None and path:  # leaving: the field itself is null
            body = {path[0]: None}
        _, lost = await outcome.send(ui.service(), self.call, ui.scope, row, body)
        ui.notify(lost or fill_text(self.done, row, ui, picked=label), "warning" if lost else "information")
        ui.follow(row)


class SetEditor(Shape):
    """The whole set of something edited as a list, sent in one request (`send`, a PUT).

    The current set is `read`: the row's own array field (a name); a GET listing it under `key`
    (a `Call`, paged as the kind); or `ROWS`, the rows of the child list the action is offered on
    (the set belongs to the list's parent: paths use `{parent}`).
    Each record keeps `fields`; the body is `{key: records}`, or `{key: [record[fields[0]], …]}`
    with `flat` (a list of ids). Before sending: at most `max_count`, and `unique` (a field) not
    listed twice; with `empty`, an empty set is sent only once the operator has read what it means.
    `what` names one record in messages ("ACL rule"). `keep` filters what is read (rules the
    platform owns stay out); with `ordered`, `numbered` names the field the body numbers from 1 (a
    rule's position). `describe` is a template of the row, or a function of it."""

    title: str
    record: Lazy[Any]
    columns: tuple[Column, ...]
    send: Call
    key: str
    fields: tuple[str, ...]
    what: str
    read: str | Call = "ROWS"
    empty: str | None = None  # what an empty set means ("nobody can connect"): asked before sending one
    describe: str | Callable[[Row], str] = ""
    unique: str | tuple[str, ...] | None = None  # a field, or the fields that together make a record unique
    max_count: int | None = None
    flat: bool = False
    ordered: bool = False
    options: ShapeOptions | None = None
    choices: Choices | None = None  # fixed select choices of the record form (`options` loads them)
    keep: Callable[[dict[str, Any]], bool] | None = None
    numbered: str | None = None

    viewable = True  # offered in read-only mode too, to read the set

    @property
    def mutating(self) -> bool:
        return self.send.mutating

    async def current(self, ui: Any, row: Row, fresh: bool = False) -> list[dict[str, Any]]:
        """The set as it is (`fresh`: read again, not as listed); a field it lacks takes the record's default."""
        if isinstance(self.read, Call):
            items = await ui.service().read_list(self.read, ui.scope, row, self.key)
        elif self.read == ROWS:
            items = [r.data for r in await ui.service().list_rows(ui.scope)]
        else:
            source = await ui.service().get_row(ui.scope, row.id) if fresh else row
            items = [i for i in source.items(self.read) if isinstance(i, dict)]
        if self.keep is not None:
            items = [i for i in items if self.keep(i)]
        return [{f: i[f] for f in self.fields if i.get(f) is not None} for i in items]

    def check(self, records: list[dict[str, Any]]) -> None:
        """The rules of the whole set, checked before sending (a `Refused` names the broken one)."""
        from .flows import Refused

        if self.max_count is not None and len(records) > self.max_count:
            raise Refused(f"at most {self.max_count} {self.what}s ({len(records)} given)")
        if self.unique is not None:
            fields = (self.unique,) if isinstance(self.unique, str) else tuple(self.unique)
            values = [tuple(r.get(f) for f in fields) for r in records]
            twice = next((i for i, v in enumerate(values) if v in values[:i]), None)
            if twice is not None:
                shown = values[twice][0] if len(fields) == 1 else f"the {self.what} at #{twice + 1}"
                raise Refused(f"{shown} is listed twice: each {self.what} once")

    def body(self, records: list[dict[str, Any]]) -> dict[str, Any]:
        if self.flat:
            return {self.key: [r.get(self.fields[0]) for r in records]}
        out = [{f: r.get(f) for f in self.fields if r.get(f) is not None} for r in records]
        if self.numbered:
            out = [{**r, self.numbered: n} for n, r in enumerate(out, 1)]
        return {self.key: out}

    async def send_set(self, ui: Any, row: Row, records: list[dict[str, Any]]) -> dict[str, Any]:
        """Check the set and send it; when the answer is lost, read the set again: applied (said),
        or not (`outcome.Looked`, shown in the editor, whose edits stay)."""
        from . import outcome
        from ..api.errors import ApiError, OutcomeUnknown
        from .flows import Refused

        self.check(records)
        if not records and self.empty and not await ui.confirm(f"Send an empty set of {self.what}s?", self.empty, "Send it empty"):
            raise Refused(f"Not sent: {self.empty[0].lower()}{self.empty[1:]}")
        body = self.body(records)
        try:
            return await ui.service().run(self.send, ui.scope, row, body)
        except OutcomeUnknown as err:  # may have been applied: read the set again and compare
            try:
                now = self.body(await self.current(ui, row, fresh=True))
            except ApiError as again:
                raise outcome.Looked(err, f"reading the set again failed too ({again.summary}): check before saving again") from None
            if not _same(now[self.key], body[self.key], self.ordered):
                raise outcome.Looked(err, "the set is not what was sent: it was not applied") from None
            ui.notify(outcome.lost(err, outcome.Found(None, "the set now holds what was sent: it was applied", True)), "warning")
            return {}

    async def __call__(self, ui: Any, row: Row) -> None:
        choices, context = await self.options.get()(ui, row) if self.options is not None else (self.choices or {}, {})
        on_parent = self.read == ROWS
        if ui.read_only:  # read-only mode: the set is shown, nothing can be changed or sent
            await ui.edit_records(fill_text(self.title, row, ui), self.record.get(), await self.current(ui, row), self.columns,
                                  choices=choices, context=context, ordered=self.ordered, number_from=1 if self.ordered else None)
            return
        describe = self.describe(row) if callable(self.describe) else fill_text(self.describe, row, ui)

        before = await self.current(ui, row)
        unchanged: list[bool] = []

        async def save(records: list[dict[str, Any]]) -> Any:
            if _same(self.body(records)[self.key], self.body(before)[self.key], self.ordered):
                unchanged.append(True)  # nothing to send
                return {}
            return await self.send_set(ui, row, records)

        done = await ui.edit_records(
            fill_text(self.title, row, ui), self.record.get(), before, self.columns, save=save,
            choices=choices, context=context, describe=describe, ordered=self.ordered, number_from=1 if self.ordered else None,
        )
        if done is None:
            return
        owner = fill_text("{parent}" if on_parent else "{name}", row, ui)
        if unchanged:
            ui.notify(f"{owner}: the {self.what}s are as they were; nothing was sent.")
            return
        ui.notify(f"{owner}: {len(done)} {self.what}{'' if len(done) == 1 else 's'}")
        ui.reload() if on_parent else ui.follow(row)


ROWS = "ROWS"  # SetEditor.read: the rows of the child list the action is on


def _same(a: list[Any], b: list[Any], ordered: bool) -> bool:
    """The same set (in the same order, when the order matters)."""
    return a == b if ordered else sorted(map(repr, a)) == sorted(map(repr, b))
