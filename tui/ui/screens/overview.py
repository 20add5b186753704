"""The overview of the account (issue 52, item 1; `O`, or "Overview" in the palette): every list the
console has read, by product and zone or region, how many resources in each state (what needs someone
first), a monthly estimate where a price list gives one, what is watched and the journal's last failures.
Enter on a figure opens the list behind it, filtered to that state (`state=stopped`).

It reads through the index (`Finder.fill`, the same bounded, cancellable reads as `F`, through the
limiter): opened before every product was read, it reads them, counting again as they come; what could
not be read is said above the figures. Counting (`products.kit.overview.tally`) and pricing run off the UI
thread. Nothing here names a product."""

from __future__ import annotations

import asyncio
import functools
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from ...api.safe import clean, cut
from ...products import manifest
from ...products.kit.location import ALL
from ...products.kit.overview import Tally, tally
from ..across.costs import euros
from ..widgets.dialog_title import DialogTitle
from .every_product import EveryProductScreen

if TYPE_CHECKING:
    from ...products.kit.related import Held
    from ..across.finder import Reads
    from ..app import CloudApp

MARKS = {"alarm": "✖", "bad": "✖", "busy": "◐", "good": "●", "other": "○"}
FAILURES_SHOWN = 3
Target = tuple[str, str, str, str]  # (what: "list" | "watch" | "journal" | "none", kind id, scope, state)


class OverviewScreen(EveryProductScreen):
    def __init__(self) -> None:
        super().__init__(id="overview")
        self.tallies: list[Tally] = []
        self.costs: dict[tuple[str, str], tuple[float, int]] = {}  # (kind id, scope) → (a month, rows unpriced)
        self.targets: list[Target] = []
        self._counted_at = -1  # the index's size last counted

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="overview"):
            yield DialogTitle(f"Overview · profile {self.console.settings.profile}" + self._production())
            yield Label("", id="overview-read", markup=False)
            yield OptionList(id="overview-lines", markup=False)
            yield Label("enter opens the list behind a figure · F reads every product again · esc", id="overview-keys")

    def on_mount(self) -> None:
        super().on_mount()
        self.set_interval(1.0, self._while_reading)  # (counted again as the lists come)

    def _while_reading(self) -> None:
        finder = self.console.finder
        if finder.filling is not None and finder.filling.is_running and len(finder.index) != self._counted_at:
            self.look()

    # ---- counting -------------------------------------------------------------------------------
    def look(self) -> None:
        """Count again what every list read holds (in a thread), then price it."""
        finder = self.console.finder
        self._counted_at = len(finder.index)
        reads = finder.reads()
        # (the coroutine made when the worker starts: one replaced before it starts is never made)
        async def work() -> None:
            await self._count(reads)

        # (a coroutine function, made when the worker starts; Textual types one returning None as Never)
        self.run_worker(work, group="overview", exclusive=True, exit_on_error=False)  # type: ignore[arg-type]

    async def _count(self, reads: Reads) -> None:
        held = await asyncio.to_thread(reads.held)
        self.tallies = await asyncio.to_thread(tally, held)
        self.costs = {}
        self._draw()
        await self._price(held)
        self._draw()

    async def _price(self, held: list[Held]) -> None:
        """A month's estimate of each list a price list prices (read at most once an hour, `across.costs`)."""
        from ..across.costs import estimates

        seen: set[tuple[str, str]] = set()  # (a resource in two lists read: priced once, as it is counted)
        for part in held:
            if part.parent is not None or part.kind.rows.cost is None or not part.rows:
                continue
            rows = [r for r in part.rows if (part.kind.id, r.id) not in seen]
            seen.update((part.kind.id, r.id) for r in rows)
            try:
                found = await estimates(self.console, part.kind, rows, part.scope)
            except Exception:  # a price list that cannot be read: its lists say "cost unknown"
                continue
            for row, _, monthly in found:
                scope = (part.kind.scope_of(row) if part.scope == ALL else "") or part.scope
                total, unpriced = self.costs.get((part.kind.id, scope), (0.0, 0))
                self.costs[(part.kind.id, scope)] = (
                    (total + monthly, unpriced) if monthly is not None else (total, unpriced + 1)
                )

    # ---- drawing ------------------------------------------------------------------------------
    def _draw(self) -> None:
        if not self.is_attached:
            return
        finder = self.console.finder
        reading = finder.filling is not None and finder.filling.is_running
        resources = sum(t.total for t in self.tallies)
        lists = len(self.tallies)  # (a list in each zone: as many as the headings below)
        said = f"{resources:,} resources in {lists} list{'s' if lists != 1 else ''}"
        priced = sum(total for total, _ in self.costs.values())
        if self.costs:  # (each list's price list says what it holds: stopped servers at their type's price)
            said += f" · ≈ {euros(priced)} a month where priced (stopped servers included; volumes, IPs not)"
        needing = sum(t.needing() for t in self.tallies)
        if needing:
            said += f" · ✖ {needing:,} in a bad state"
        unread = finder.unsearched(self.counted_kinds)
        if reading:
            said += f" · reading every product: {finder.progress or 'starting'}… (F stops)"
        elif unread:
            said += f" · not read: {unread}"
        self.query_one("#overview-read", Label).update(said)
        lines: list[Option] = []
        self.targets = []

        def add(text: Text | str, target: Target, disabled: bool = False) -> None:
            lines.append(Option(text, id=str(len(self.targets)), disabled=disabled))
            self.targets.append(target)

        order = {e.id: n for n, e in enumerate(manifest.entries())}
        groups = {e.id: e.group for e in manifest.entries()}
        tallies = sorted(self.tallies, key=lambda t: (order.get(t.kind.id, len(order)), t.scope))
        first = [(t, state, n) for t in tallies for state, n, tone in t.ordered() if tone in ("bad", "alarm")]
        if first:  # what needs someone, first: each opens its list, filtered to that state
            add(Text("Needs someone first", style="bold"), ("none", "", "", ""), disabled=True)
        for t, state, n in first:
            where = "" if t.scope in ("", "global", ALL) else f" · {t.scope}"
            line = Text(f"    {MARKS['bad']} {cut(clean(state), 24):<12} {n:>5,}  ", style="bold")
            line.append(f"{groups.get(t.kind.id, t.kind.product)} › {t.kind.title}{where}")
            add(line, ("list", t.kind.id, t.scope, state))
        if first:
            add(Text("Every list", style="bold"), ("none", "", "", ""), disabled=True)
        for t in tallies:
            add(self._heading(t, groups.get(t.kind.id, t.kind.product)), ("list", t.kind.id, t.scope, ""))
            for state, n, tone in t.ordered():
                line = Text(f"    {MARKS[tone]} {cut(clean(state), 40):<24} {n:>7,}")
                if tone in ("bad", "alarm"):
                    line.stylize("bold")
                add(line, ("list", t.kind.id, t.scope, state))
        watched = len(self.console.watcher.items)
        if watched:
            add(f"Watched: {watched} resource{'s' if watched > 1 else ''} (ctrl+w lists them)", ("watch", "", "", ""))
        failures, later = [], set()
        for entry in self.console.journal.entries:  # (newest first: a later success stands for what it did)
            doing = entry.doing
            what = f"{doing.what} {doing.resource}".strip() if doing is not None else f"{entry.method} {entry.url}"
            if entry.outcome == "done":
                later.add(what)
            elif entry.outcome in ("failed", "maybe") and what not in later and not entry.superseded_at:
                failures.append((entry, what))
        for entry, what in failures[:FAILURES_SHOWN]:
            looked = {False: "not applied", True: "applied"}
            word = looked[entry.applied] if entry.looked and entry.applied is not None else ""
            word = word or ("may have been applied" if entry.outcome == "maybe" else "failed")
            said = f"Journal: {cut(clean(what), 50)} — {word}: {cut(clean(entry.said), 100)}"
            add(Text(said), ("journal", "", "", ""))
        options = self.query_one(OptionList)
        at = options.highlighted
        options.clear_options()
        options.add_options(lines)
        if lines:  # (a heading is no place for the cursor)
            on = next((i for i, o in enumerate(lines) if not o.disabled), 0)
            options.highlighted = max(on, min(at if at is not None else on, len(lines) - 1))

    def _heading(self, t: Tally, group: str) -> Text:
        where = "" if t.scope in ("", "global", ALL) else f" · {t.scope}"
        head = Text(f"{group} › {t.kind.title}{where}", style="bold")
        head.append(f"  {t.total:,}")
        cost = self.costs.get((t.kind.id, t.scope))
        if cost is not None:
            total, unpriced = cost
            head.append(f"  ≈ {euros(total)} a month" + (f" ({unpriced} unpriced)" if unpriced else ""))
        elif t.kind.rows.cost is not None:
            head.append("  (pricing…)")
        return head

    @functools.cached_property
    def counted_kinds(self) -> set[str]:
        """The lists the overview counts (what the account holds: not catalogues, not child lists)."""
        from ...products.kit.overview import held_by_account

        return {e.id for e in manifest.entries() if e.opens == "list" and held_by_account(e.load())}

    # ---- keys ---------------------------------------------------------------------------------
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        what, kind_id, scope, state = self.targets[int(event.option.id or 0)]
        if what == "none":
            return
        console = self.console
        self.dismiss(None)
        if what == "watch":
            console.watcher.show_list()
        elif what == "journal":
            console.action_journal()
        else:
            open_list(console, kind_id, scope, state)



def open_list(app: CloudApp, kind_id: str, scope: str, state: str, tries: int = 20) -> None:
    """The list of `kind_id` in front, in `scope`, filtered to `state` when one is given."""
    main = app.main
    entry = manifest.by_id(kind_id)
    if main is None or entry is None or not main.bring_to_front():
        return
    main.open_entry(entry.id)
    if entry.scope_type != "global" and scope:
        main.set_scope(scope, entry.scope_type)
    if state:
        _filter_when_shown(app, kind_id, f"state={state}", tries)


def _filter_when_shown(app: CloudApp, kind_id: str, text: str, tries: int) -> None:
    from ..widgets.resource_view import ResourceView

    main = app.main
    view = main.view if main is not None else None
    if not isinstance(view, ResourceView) or view.kind.id != kind_id or not view.is_mounted:
        if tries > 0:  # (a view made just now is mounted a refresh later)
            app.call_after_refresh(_filter_when_shown, app, kind_id, text, tries - 1)
        return
    view.filter_to(text)

