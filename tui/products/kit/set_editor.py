"""The whole-set shape: a set (ACL rules, settings, networks, members) edited as a list and sent in
one request, with uniqueness and a maximum count checked before sending, an unchanged set not sent,
and in read-only mode the set shown to read. Products import it from `shapes` with the others."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ...api.safe import clean
from .base import Choices, Column, Lazy, Row
from .location import Call
from .shapes import Shape, ShapeOptions, fill_text

if TYPE_CHECKING:
    from .flows import FlowUI


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

    asks_at_send = True  # on a production profile each send asks the name (`flows.asks_at_send`)

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
    # Asked (Cancel focused) before sending a set when it says something: what this set changes
    # beyond itself (name servers that are not the default stop record editing). `(records, row)`.
    confirm: Callable[[list[dict[str, Any]], Row], str | None] | None = None

    viewable = True  # offered in read-only mode too, to read the set

    @property
    def mutating(self) -> bool:
        return self.send.mutating

    async def current(self, ui: FlowUI, row: Row, fresh: bool = False) -> list[dict[str, Any]]:
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

    async def send_set(
        self, ui: FlowUI, row: Row, records: list[dict[str, Any]], before: list[dict[str, Any]] | None = None
    ) -> dict[str, Any]:
        """Check the set and send it; when the answer is lost, read the set again: applied (said),
        or not (`writes.Looked`, shown in the editor, whose edits stay)."""
        from . import outcome
        from .flows import Refused, StepCancelled

        self.check(records)
        if (
            not records
            and self.empty
            and not await ui.confirm(f"Send an empty set of {self.what}s?", self.empty, "Send it empty")
        ):
            raise Refused(f"Not sent: {self.empty[0].lower()}{self.empty[1:]}")
        said = self.confirm(records, row) if self.confirm is not None else None
        changes = self._changes(ui, row, records, before)
        # (what it costs, then what is sent: on a production profile this question takes the name, at this send)
        if said and not await ui.confirm(f"Send these {self.what}s?", f"{changes}\n\n{said}", "Send"):
            raise StepCancelled("Not confirmed: nothing was sent. ctrl+s asks again; esc closes.")
        body = self.body(records)
        await ui.cleared(changes)  # on a production profile: at each send (unless asked just above)

        async def read() -> Any:  # after a lost answer: the set as it is now
            return self.body(await self.current(ui, row, fresh=True))[self.key]

        answer, told = await outcome.send_whole(
            ui.service(), self.send, ui.scope, row, body, read, lambda now: _same(now, body[self.key], self.ordered)
        )
        if told:
            ui.notify(told, "warning")
        return answer

    def _changes(self, ui: FlowUI, row: Row, records: list[dict[str, Any]], before: list[dict[str, Any]] | None) -> str:
        """What a send changes, said where a production profile asks: "Rules of web-public: 1 removed,
        0 added (2 rules sent)"."""
        sent = f"{len(records)} {self.what}{'' if len(records) == 1 else 's'} sent"
        if before is None:
            return f"{fill_text(self.title, row, ui)}: {sent}"
        now, was = [repr(sorted(r.items())) for r in records], [repr(sorted(r.items())) for r in before]
        added = [r for r, key in zip(records, now) if key not in was]
        removed = [r for r, key in zip(before, was) if key not in now]
        moved = " (order changed)" if self.ordered and not added and not removed and now != was else ""
        said = f"{fill_text(self.title, row, ui)}: {len(removed)} removed, {len(added)} added{moved} ({sent})"
        return said + self._named("removed", removed) + self._named("added", added)

    def _named(self, what: str, records: list[dict[str, Any]], most: int = 5) -> str:
        """The records `what` ("removed", "added"), each by its values (five at most, then how many more):
        what a production question shows before a set is replaced (the SSH rule about to go)."""
        if not records:
            return ""

        def value(v: object) -> str:  # (a list as its items: an empty one says nothing)
            return ", ".join(map(str, v)) if isinstance(v, list) else str(v)

        shown = [
            clean(" ".join(value(r[f]) for f in self.fields if r.get(f) not in (None, "", [], {})))[:80]
            for r in records
        ]
        more = f"\n  … and {len(shown) - most} more" if len(shown) > most else ""
        return f"\n{what.capitalize()}:" + "".join(f"\n  {line}" for line in shown[:most]) + more

    async def __call__(self, ui: FlowUI, row: Row) -> None:
        choices, context = await self.options.get()(ui, row) if self.options is not None else (self.choices or {}, {})
        on_parent = self.read == ROWS
        if ui.read_only:  # read-only mode: the set is shown, nothing can be changed or sent
            await ui.edit_records(
                fill_text(self.title, row, ui),
                self.record.get(),
                await self.current(ui, row),
                self.columns,
                choices=choices,
                context=context,
                ordered=self.ordered,
                number_from=1 if self.ordered else None,
            )
            return
        describe = self.describe(row) if callable(self.describe) else fill_text(self.describe, row, ui)

        before = await self.current(ui, row)
        unchanged: list[bool] = []

        async def save(records: list[dict[str, Any]]) -> Any:
            if _same(self.body(records)[self.key], self.body(before)[self.key], self.ordered):
                unchanged.append(True)  # nothing to send
                return {}
            return await self.send_set(ui, row, records, before)

        done = await ui.edit_records(
            fill_text(self.title, row, ui),
            self.record.get(),
            before,
            self.columns,
            save=save,
            choices=choices,
            context=context,
            describe=describe,
            ordered=self.ordered,
            number_from=1 if self.ordered else None,
            unique=self.unique,
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
