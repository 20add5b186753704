"""One change of several, picked, then its form (or its confirmation), then one request: a database
instance's upgrade (node type, HA, volume, engine version) or a cache cluster's migration (version,
node type, number of nodes) — the API takes one change per request.

    ActionSpec("upgrade", "Upgrade…", shape=PickChange(
        "Upgrade {name}: one change at a time", Call("POST", "{id}/upgrade"), (
        Change("Node type", form=Lazy(F + "NodeTypeForm"), options=Lazy(F + "node_types")),
        Change("Enable high availability", confirm="A standby node is added.", body={"enable_ha": True},
               why_not=lambda r: "it is already highly available" if r.get("is_ha_cluster") else None),
    )))

A change offered but impossible now is greyed with why. A form's values are the body unless
`body` (a function of the form and the row) says otherwise. No Textual and no pydantic here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from .base import Lazy, Row
from .location import Call
from .shapes import Shape, ShapeOptions, fill_text

if TYPE_CHECKING:
    from .flows import FlowUI


class Change(Shape):
    label: str
    form: Any = None  # Lazy of a form model; None: `confirm` then `body`
    title: str = ""  # the form's or the confirmation's title (a template of the row); default: the label's
    confirm: str = ""
    body: dict[str, Any] | Callable[[Any, Row], dict[str, Any]] | None = None
    initial: Callable[[Row], dict[str, Any]] | None = None
    options: ShapeOptions | None = None  # `async (ui, row) -> (choices, context)` of the form
    why_not: Callable[[Row], str | None] | None = None
    # What the change costs, said before it is sent (Cancel focused): `warn(form, row, context)` ->
    # text, or None when there is nothing to say (a smaller node type, a new major version).
    warn: Callable[[Any, Row, dict[str, Any]], str | None] | Lazy[Any] | None = None

    def body_for(self, form: Any, row: Row) -> dict[str, Any]:
        from .fields import form_body

        if callable(self.body):
            return self.body(form, row)
        if self.body is not None:
            return dict(self.body)
        return form_body(form)


class PickChange(Shape):
    asks_at_send = True  # on a production profile each send asks the name (`flows.asks_at_send`)

    title: str
    call: Call
    changes: tuple[Change, ...]
    submit_label: str = "Send"
    done: str = "{name}: {change} accepted"  # also `{value}`: the first value sent

    @property
    def mutating(self) -> bool:
        return self.call.mutating

    async def __call__(self, ui: FlowUI, row: Row) -> None:
        from . import outcome
        from .flows import Refused

        offered = [(c.label, n, c.why_not(row) if c.why_not else None) for n, c in enumerate(self.changes)]
        picked = await ui.pick(fill_text(self.title, row, ui), offered)
        if picked is None:
            return
        change = self.changes[picked]
        title = fill_text(change.title or f"{change.label}: {{name}}", row, ui)
        lost: list[str] = []
        sent: list[dict[str, Any]] = []

        async def send(body: dict[str, Any]) -> Any:
            await ui.cleared(title)  # on a production profile: the name typed, at each send
            sent.append(body)
            answer, said = await outcome.send(ui.service(), self.call, ui.scope, row, body)
            if said:
                lost.append(said)
            return answer or True

        if change.form is None:
            if not await ui.confirm(title, change.confirm, self.submit_label):
                return
            await send(change.body_for(None, row))
        else:
            choices, context = await change.options.get()(ui, row) if change.options is not None else ({}, {})

            async def submit(form: Any) -> Any:
                warn = change.warn.get() if isinstance(change.warn, Lazy) else change.warn
                said = warn(form, row, context) if warn is not None else None
                if said and not await ui.confirm(f"{title}?", said, self.submit_label):
                    raise Refused("not sent: change it, or esc to leave it as it is")
                return await send(change.body_for(form, row))

            if not await ui.form(
                title,
                change.form.get(),
                initial=change.initial(row) if change.initial else None,
                choices=choices,
                context={"current": row, **context},
                submit=submit,
                submit_label=self.submit_label,
            ):
                return
        value = str(next(iter(sent[-1].values()), "")) if sent and sent[-1] else ""
        said = fill_text(self.done, row, ui, change=change.label.split(" (")[0].lower(), value=value)
        ui.notify(lost[0] if lost else said, "warning" if lost else "information")
        ui.follow(row)
