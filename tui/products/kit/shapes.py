"""Action shapes: the conversations most actions are, declared instead of written as flows.

    ActionSpec("acls", "ACL rules (replace the set)…", shape=SetEditor(...))

A shape is run by the console exactly like a flow (`products/kit/flows.py`: the same FlowUI, worker,
read-only rule and error handling), so a product declares what differs and nothing else:

- `ShowValue`: a value to read and copy (a download URL, a configuration snippet);
- `ShowSecret`: a value holding a secret (a URL with a password), masked until revealed;
- `ShowAnswer`: what a GET answers (the platform's default rules, an access open now), shown;
- `SaveAnswer`: a file the API answers (a TLS certificate), saved where the operator says;
- `FormCall`: a form, then one request with its values (then the row followed or the list read);
- `PickCall`: one value picked (a type to change to, a group to join), then one request with it;
- `SetEditor`: a whole set (ACL rules, settings, networks, members) edited as a list and sent in
  one request, with uniqueness and a maximum count checked before sending;
- `DeleteAsking`: a delete that asks one question first (keep or release an address), its answer
  sent as a query parameter (a kind's `Deleting.flow`).

Titles and texts are templates of the row: `{name}`, `{id}`, any row field (`{download_url}`,
`{expires_at:.16}`), `{parent}`, the name of the resource a child list is opened for, and
`{grandparent}`, the name of that resource's own parent. No
Textual and no pydantic here: form models are `Lazy`.
"""

from __future__ import annotations

import inspect
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Callable, Literal, cast

from .base import Choices, Lazy, Row
from .location import Call
from .rows import called, called_with_id

if TYPE_CHECKING:
    from .flows import FlowUI

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
            if name not in self.FIELDS or name in self.FIELDS[: len(args)]:
                raise TypeError(f"{type(self).__name__}: unexpected or repeated field {name!r}")
            setattr(self, name, value)
        missing = [name for name in self.FIELDS if not hasattr(self, name)]
        if missing:
            raise TypeError(f"{type(self).__name__} needs {', '.join(missing)}")

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self.__dict__:
            raise AttributeError(f"{type(self).__name__} is a declaration: {name} is set once")
        object.__setattr__(self, name, value)


class _Fields(dict):
    """Template values: the row's fields as text, its name and id, and the parent's name."""

    def __init__(self, row: Row, ui: FlowUI, extra: dict[str, Any]) -> None:
        parent = getattr(ui.service(), "parent", None)
        up = parent.up if parent is not None else None
        super().__init__(
            name=row.name or row.id,
            id=row.id,
            parent=(parent.name or parent.id) if parent else "",
            grandparent=(up.name or up.id) if up else "",
            **extra,
        )
        self.row = row

    def __missing__(self, key: str) -> str:
        return self.row.text(key)


def fill_text(template: str, row: Row, ui: FlowUI, **extra: Any) -> str:
    return template.format_map(_Fields(row, ui, extra))


class ShowValue(Shape):
    """A value to read and copy (`y`): `text` is a template of the row, or a function of the row and
    the list's parent (`ParentRef`, None at the top: a tag's pull command needs its namespace).
    With `copy` (a template or a function as `text`), `y` copies that alone (the command, not its
    explanation). Without `copy`, a text of several lines is a snippet to paste: shown unwrapped,
    scrolled sideways."""

    title: str
    text: "str | Callable[[Row, Any], str]"
    copy: "str | Callable[[Row, Any], str]" = ""
    mutating = False

    async def __call__(self, ui: FlowUI, row: Row) -> None:
        from .commands import CommandRefused

        parent = getattr(ui.service(), "parent", None)

        def made(template: "str | Callable[..., str]") -> str:
            if not callable(template):
                return fill_text(template, row, ui)
            if "origins" in inspect.signature(template).parameters:  # it may name where the secret key goes
                return template(row, parent, origins=getattr(ui, "origins", ()))
            return template(row, parent)

        title = fill_text(self.title, row, ui)
        try:
            extra: dict[str, Any] = {"copy_text": made(self.copy)} if self.copy else {}
            text = made(self.text)
        except CommandRefused as err:  # a value the command cannot hold safely: said, nothing to copy
            await ui.dialog("result", title=title, text=refusal(err), copy=False)
            return
        if not self.copy and "\n" in text.strip():
            extra["unwrapped"] = True
        await ui.dialog("result", title=title, text=text, **extra)


def refusal(err: Exception) -> str:
    """What a dialog says instead of a command it would not build (`commands.CommandRefused`)."""
    reason = getattr(err, "reason", str(err))
    return (
        f"Not offered: {reason}.\n\nThe platform answered a value that a command cannot hold safely, "
        "so nothing is shown to copy. Look at the resource (its detail, JSON tab) before using it."
    )


class ShowSecret(Shape):
    """A row field holding a secret (a URL with a password): masked until `v`, copied whole with `y`."""

    title: str
    field: str
    label: str
    note: str = ""
    mutating = False

    async def __call__(self, ui: FlowUI, row: Row) -> None:
        value = row.get(self.field)
        await ui.dialog(
            "secret",
            title=fill_text(self.title, row, ui),
            secrets={self.label: getattr(value, "secret", value)},
            note=self.note,
        )


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

    async def __call__(self, ui: FlowUI, row: Row) -> None:
        from ...api.errors import NotFound

        try:
            answer = await ui.service().run(self.call, ui.scope, row)
        except NotFound:
            if not self.absent:
                raise
            ui.notify(fill_text(self.absent, row, ui))
            return
        await self.show(ui, row, answer)

    async def show(self, ui: FlowUI, row: Row, answer: dict[str, Any]) -> None:
        text = self.text(answer) if callable(self.text) else self.text.format_map(_Answer(answer))
        title = fill_text(self.title, row, ui)
        if not self.secret:
            await ui.dialog("result", title=title, text=text)
            return
        value, once = answer.get(self.secret), cast(tuple[str, ...], ())
        if value is None:  # a kind's secret field is kept aside from every answer, to be given once: here
            value = ui.service().take_secrets(row.id).get(self.secret)
            once = (self.secret,)  # closing before it was copied asks first
        await ui.dialog(
            "secret",
            title=title,
            secrets={self.secret: value},
            note=text,
            once=once,
            expires_at=answer.get(self.expires) if self.expires else None,
            extra={k: answer.get(k) for k in self.copy},
        )


class _Answer(dict):
    def __missing__(self, key: str) -> str:
        return ""


class SaveAnswer(Shape):
    """A file the API answers (`call`, a GET), saved where the operator says."""

    call: Call
    title: str

    @property
    def mutating(self) -> bool:
        return self.call.mutating

    async def __call__(self, ui: FlowUI, row: Row) -> None:
        from .files import save_file_flow

        answer = await ui.service().run(self.call, ui.scope, row)
        await save_file_flow(ui, fill_text(self.title, row, ui), answer)


class SaveField(Shape):
    """A text the row holds (a certificate chain in PEM), saved as a file where the operator says,
    named from the row (`name`, a template): nothing is asked of the API."""

    title: str
    field: str
    name: str
    # What is written, from the value as the row holds it (its line breaks shown as `\n`: API text is
    # cleaned when read), or `Refused` when it is not what the file should hold (`files.pem`).
    made: Callable[[str], str] = str
    mutating = False

    async def __call__(self, ui: FlowUI, row: Row) -> None:
        from .files import save_bytes
        from .flows import Refused

        text = row.raw.get(self.field)
        if not isinstance(text, str) or not text.strip():
            raise Refused(f"there is no {self.field.replace('_', ' ')} to save yet")
        name = fill_text(self.name, row, ui).replace("/", "-")
        await save_bytes(ui, fill_text(self.title, row, ui), self.made(text).encode("utf-8"), name)


class FormCall(Shape):
    """A form, then `call` with its values added to the call's own body (`body`, a `Lazy` of
    `(form, row) -> dict`, default: the form's values, secrets as their value). An API error keeps
    the form open with what was typed; an answer lost on the way is looked for (`outcome.send`).
    Then `done` is said (a template of the row, and of the values sent as `{form.bucket}`) and the
    row followed, or the list read again; with `answer` (a `ShowAnswer`), the answer is shown
    (an access opened: its URL and password)."""

    title: (
        str | Callable[[Row, dict[str, Any]], str]
    )  # a template of the row, or a function of the row and the options' context
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
    # The kind the call creates an object of (a volume's snapshot): a lost answer is looked for among
    # them, by what the body names, those there before sending left out (not in the row's state).
    creates: Lazy[Any] | None = None
    asks_at_send = True  # on a production profile the form's every ctrl+s asks the name (`flows.asks_at_send`)

    @property
    def mutating(self) -> bool:
        return self.call.mutating

    async def __call__(self, ui: FlowUI, row: Row) -> None:
        from . import outcome
        from .fields import form_body

        choices, context = await self.options.get()(ui, row) if self.options is not None else (self.choices or {}, {})
        lost: list[str] = []

        typed: dict[str, str] = {}

        async def send(form: Any) -> Any:
            body = self.body.get()(form, row) if self.body is not None else form_body(form)
            typed.update({k: str(v) for k, v in form_body(form).items() if isinstance(v, (str, int, float))})
            made = ui.service(self.creates.get()) if self.creates is not None else None
            await ui.cleared(title)  # on a production profile: the name typed, at each send
            answer, said = await outcome.send(ui.service(), self.call, ui.scope, row, body, made=made)
            if said:
                lost.append(said)
            return answer

        title = self.title(row, context) if callable(self.title) else fill_text(self.title, row, ui)
        sent = await ui.form(
            title,
            self.form.get(),
            initial=self.initial(row) if self.initial else None,
            choices=choices,
            context={**context, "current": row},
            submit=send,
            submit_label=self.submit_label,
        )
        if sent is None:
            return
        if self.answer is not None and sent:
            await self.answer.show(ui, row, sent)
        else:
            ui.notify(
                lost[0] if lost else fill_text(self.done, row, ui, form=SimpleNamespace(**typed)),
                "warning" if lost else "information",
            )
        if self.then == "upsert" and isinstance(sent, dict) and sent:
            ui.upsert(ui.service().row_of(sent, ui.scope))
        else:
            ui.follow(row) if self.then != "reload" else ui.reload()


class DeleteAsking(Shape):
    """A delete that asks one question before its confirmation, the answer sent as a query parameter
    (keep the address the resource holds for reuse, or release it). `question` is the picker's
    title; each choice is (label, value sent, what it means), templates of the row. The
    confirmation (Cancel focused) repeats what the choice means, and `warning` (what else goes with
    it), both read from the resource as it is now; then `call` with `{param: value}`, and the row
    followed until the platform has removed it.
    A kind declares it as its `Deleting.flow` (a `Lazy` of it)."""

    question: str
    param: str
    choices: tuple[tuple[str, str, str], ...]
    warning: "str | Callable[[Row], str]" = ""  # a template, or a function of the row (words that depend on counts)
    call: Call = Call("DELETE", "{id}")
    mutating = True
    confirms = True  # it confirms before it sends (`flows.confirms_first`)

    async def __call__(self, ui: FlowUI, row: Row) -> None:
        from ...api.errors import ApiError

        try:  # asked and confirmed from what is there now (counts, the address), not a stale row
            row = await ui.service().get_row(ui.scope, row.id)
        except ApiError:
            pass
        offered = [
            (fill_text(label, row, ui), (value, fill_text(means, row, ui))) for label, value, means in self.choices
        ]
        picked = await ui.pick(fill_text(self.question, row, ui), offered)
        if picked is None:
            return
        value, means = picked
        name = called(row)
        where = f" in {ui.scope}" if ui.scope else ""
        message = (
            f"{called_with_id(row)}{where} will be deleted. This cannot be undone.\n{means[:1].upper()}{means[1:]}"
        )
        warning = (
            self.warning(row) if callable(self.warning) else fill_text(self.warning, row, ui) if self.warning else ""
        )
        if warning:
            message += "\n" + warning
        kind = ui.service().kind  # a delete that loses data takes the name typed, asked or not
        if not await ui.confirm(
            f"Delete {kind.singular} {name}?",
            message,
            "Delete",
            require_text=name if kind.writing.deleting.needs_name else None,
        ):
            return
        call = Call(self.call.method, self.call.path, self.call.body, {**(self.call.params or {}), self.param: value})
        from . import outcome

        found = await outcome.act(ui.service(), call, ui.scope, row)
        if found is not None:  # may have been applied: say what a look found there
            ui.notify(found.told, "warning")
            ui.remove(row) if found.row is None and found.applied else ui.follow(found.row or row)
            return
        ui.notify(f"Deleting {name}: {means}")
        ui.follow(row)
